/**
 * Where a server's resource lives in the editor: `mcp-host-resource:/<server>/<uri, base64url>/<file name>`.
 * The server's URI is kept exactly (encoded whole, never normalised); the file name at the end
 * gives the editor a title and, through its extension, the language or the image preview.
 */
// Not `mcp-resource`: VS Code's built-in MCP support owns that scheme.
export const RESOURCE_SCHEME = 'mcp-host-resource';

export interface ResourceLocation {
  readonly serverId: string;
  readonly uri: string;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/html': '.html',
  'text/css': '.css',
  'text/csv': '.csv',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'application/json': '.json',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'application/yaml': '.yaml',
  'text/x-python': '.py',
  'text/x-typescript': '.ts',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'image/bmp': '.bmp',
};

/** `nameFrom` is the URI the file name is taken from, when not the resource's own (a part of it). */
export function resourcePath(location: ResourceLocation, name?: string, mimeType?: string, nameFrom = location.uri): string {
  return `/${encodeURIComponent(location.serverId)}/${Buffer.from(location.uri, 'utf8').toString('base64url')}/${encodeURIComponent(fileNameFor(nameFrom, name, mimeType))}`;
}

export function parseResourcePath(path: string): ResourceLocation | undefined {
  const [, server, encoded] = path.split('/');
  if (!server || !encoded) return undefined;
  try {
    return { serverId: decodeURIComponent(server), uri: Buffer.from(encoded, 'base64url').toString('utf8') };
  } catch {
    return undefined;
  }
}

/** A file name for the editor tab: the URI's last segment, with an extension from the MIME type when it has none. */
export function fileNameFor(uri: string, name?: string, mimeType?: string): string {
  let last = '';
  try {
    last = decodeURIComponent(new URL(uri).pathname.split('/').filter(Boolean).pop() ?? '');
  } catch {
    last = uri.split(/[/:]/).filter(Boolean).pop() ?? '';
  }
  const base = (last || name || 'resource').replace(/[\\/]/g, '_');
  if (/\.[A-Za-z0-9]{1,8}$/.test(base)) return base;
  const extension = mimeType ? EXTENSIONS[mimeType.split(';')[0].trim().toLowerCase()] : undefined;
  return extension ? `${base}${extension}` : base;
}

/** One string per server and resource URI, for maps (URIs compared exactly). */
export function resourceKey(location: ResourceLocation): string {
  return `${location.serverId}\u0000${location.uri}`;
}
