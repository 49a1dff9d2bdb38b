import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { appSandboxPolicy, type AppSandboxPolicy } from './appCsp';
import { APP_MIME_TYPE } from './appToolMeta';

/** An app's HTML and the policy it runs under, read from its `ui://` resource. */
export interface AppResource {
  readonly uri: string;
  readonly html: string;
  readonly policy: AppSandboxPolicy;
  /** `_meta.ui.prefersBorder`: undefined leaves it to the host. */
  readonly prefersBorder?: boolean;
}

/** An app's page may be a whole single-file bundle; beyond this it is refused, not rendered. */
export const MAX_APP_HTML_BYTES = 8 * 1024 * 1024;

/**
 * Reads an app with `resources/read` ("Host MUST use resources/read to fetch the referenced
 * resource URI") and checks what came back: the `ui://` scheme, the MIME type the specification
 * requires, text or base64 content, a bounded size.
 */
export async function loadAppResource(
  read: (uri: string) => Promise<ReadResourceResult>,
  serverId: string,
  uri: string,
): Promise<AppResource> {
  const where = `the app ${uri} of MCP server "${serverId}"`;
  if (!uri.startsWith('ui://')) throw new Error(`Cannot show ${where}: app resources use the ui:// scheme.`);
  const result = await read(uri);
  const contents = Array.isArray(result?.contents) ? result.contents : [];
  const content = contents.find((c) => c?.uri === uri) ?? contents[0];
  if (!content) throw new Error(`Cannot show ${where}: resources/read returned no contents.`);
  const mimeType =
    typeof content.mimeType === 'string' ? content.mimeType.replace(/\s+/g, '').toLowerCase() : undefined;
  if (mimeType !== APP_MIME_TYPE) {
    throw new Error(
      `Cannot show ${where}: its MIME type is ${content.mimeType === undefined ? 'missing' : JSON.stringify(content.mimeType)}; an MCP App must be "${APP_MIME_TYPE}".`,
    );
  }
  const text = 'text' in content && typeof content.text === 'string' ? content.text : undefined;
  const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : undefined;
  if (text === undefined && blob === undefined)
    throw new Error(`Cannot show ${where}: it has neither text nor blob content.`);
  const size = text !== undefined ? Buffer.byteLength(text) : Math.floor((blob!.length * 3) / 4);
  if (size > MAX_APP_HTML_BYTES)
    throw new Error(
      `Cannot show ${where}: it is ${(size / 1048576).toFixed(1)} MB, more than the ${MAX_APP_HTML_BYTES / 1048576} MB an app may be.`,
    );
  const html = text ?? Buffer.from(blob!, 'base64').toString('utf8');
  const ui = (content._meta as { ui?: Record<string, unknown> } | undefined)?.ui;
  return {
    uri,
    html,
    policy: appSandboxPolicy(ui?.csp, ui?.permissions),
    prefersBorder: typeof ui?.prefersBorder === 'boolean' ? ui.prefersBorder : undefined,
  };
}
