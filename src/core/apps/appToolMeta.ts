import type { Tool } from '@modelcontextprotocol/client';
// The library's constants come from its server entry, a few hundred bytes without schemas; its host
// bridge builds the extension's zod schemas when it loads (hundreds of them), so it loads only for
// a tool that has an app.
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { appBridgeLibrary } from '../lazyLibraries';

/** The MCP Apps extension (SEP-1865): tools with interactive HTML user interfaces. */
export const APPS_EXTENSION = EXTENSION_ID;
/** The one kind of app the 2026-01-26 specification defines. */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

/** Who may call a tool: the model (agents, `@mcp`, LM tools), its server's app, or both. */
export type ToolAudience = 'model' | 'app';

const EVERYONE: readonly ToolAudience[] = ['model', 'app'];

/**
 * The `ui://` resource a tool's app lives in (`_meta.ui.resourceUri`, or the deprecated flat
 * `_meta["ui/resourceUri"]`); undefined for a tool without one. A value that is not a `ui://`
 * URI is the server's mistake, reported as such.
 */
export function appResourceUri(tool: Tool): string | undefined {
  const meta = tool._meta as { ui?: { resourceUri?: unknown }; [RESOURCE_URI_META_KEY]?: unknown } | undefined;
  const named = meta?.ui?.resourceUri === undefined ? meta?.[RESOURCE_URI_META_KEY] : meta.ui.resourceUri;
  if (named === undefined) return undefined;
  try {
    return appBridgeLibrary().getToolUiResourceUri(tool);
  } catch {
    throw new Error(`Tool "${tool.name}" names its app as ${JSON.stringify(named)}, which is not a ui:// URI.`);
  }
}

/** `_meta.ui.visibility`; absent (or not a list) means both, as the specification says. */
export function toolAudience(tool: Tool): readonly ToolAudience[] {
  const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
  if (!Array.isArray(visibility)) return EVERYONE;
  return visibility.filter((v): v is ToolAudience => v === 'model' || v === 'app');
}

/** "Host MUST NOT include tools in the agent's tool list when their visibility does not include model." */
export function offeredToModel(tool: Tool): boolean {
  return toolAudience(tool).includes('model');
}

/** "Host MUST reject tools/call requests from apps for tools that don't include app in visibility." */
export function callableFromApp(tool: Tool): boolean {
  return toolAudience(tool).includes('app');
}
