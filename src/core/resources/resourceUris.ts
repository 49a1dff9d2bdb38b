/**
 * Where a server's resource lives in the editor:
 * `mcp-host-resource:/<server>/<scheme>/<authority>/<path segments>/<file name>?uri=<the URI>`.
 * The path is for people (the breadcrumb reads `demo › resource › static › …`); the server's URI
 * is kept exactly in the query (encoded whole, never normalised). The file name at the end gives
 * the editor a title and, through its extension, the language or the image preview.
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

/** What follows the scheme in an editor URI: a readable path and the query that carries the exact URI. */
export interface ResourceAddress {
  readonly path: string;
  readonly query: string;
}

const MAX_READABLE_SEGMENTS = 12;

/**
 * `nameFrom` is the URI the file name is taken from, when not the resource's own (a part of it);
 * `part` (0-based) addresses one part of a resource read in several.
 */
export function resourceAddress(
  location: ResourceLocation,
  name?: string,
  mimeType?: string,
  nameFrom = location.uri,
  part?: number,
): ResourceAddress {
  const segments = [location.serverId, ...readableFolders(location.uri), fileNameFor(nameFrom, name, mimeType)];
  const query = new URLSearchParams({ uri: location.uri, ...(part !== undefined ? { part: String(part) } : {}) });
  return { path: `/${segments.map((s) => encodeURIComponent(s)).join('/')}`, query: query.toString() };
}

/** The server and URI of an editor URI; also reads the base64 form of editors restored from earlier versions. */
export function parseResourceAddress(path: string, query = ''): ResourceLocation | undefined {
  const [, server, second] = path.split('/');
  if (!server) return undefined;
  let serverId: string;
  try {
    serverId = decodeURIComponent(server);
  } catch {
    return undefined;
  }
  const exact = new URLSearchParams(query).get('uri');
  if (exact !== null) return { serverId, uri: exact };
  if (!second) return undefined;
  const legacy = Buffer.from(second, 'base64url').toString('utf8');
  return legacy ? { serverId, uri: legacy } : undefined;
}

/** The part an editor URI addresses (0 when none is named). */
export function partOf(query: string): number {
  const part = Number(new URLSearchParams(query).get('part') ?? 0);
  return Number.isInteger(part) && part >= 0 ? part : 0;
}

/** The URI's scheme, authority and folders as path segments (the file name comes separately). */
function readableFolders(uri: string): string[] {
  let parts: string[];
  try {
    const parsed = new URL(uri);
    parts = [parsed.protocol.replace(/:$/, ''), parsed.host, ...parsed.pathname.split('/').map(safeDecode)];
  } catch {
    parts = uri.split(/[/:]+/);
  }
  const folders = parts.filter((p) => p !== '' && p !== '.' && p !== '..').map((p) => p.replace(/[\\/]/g, '_'));
  folders.pop();
  return folders.slice(0, MAX_READABLE_SEGMENTS);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
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
