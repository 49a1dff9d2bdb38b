import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/serverDefinition';
import { HOST_SETTINGS } from '../../core/config/hostSettingKeys';

const SERVERS = HOST_SETTINGS.servers.key;

/**
 * Sets one field of a server's entry (`["sampling", "mode"]`) in the settings that define the
 * server (user, workspace or folder), leaving every other entry and field as it was.
 */
export async function updateServerField(
  definition: ServerDefinition,
  path: readonly string[],
  value: unknown,
): Promise<void> {
  const folder =
    definition.scope === 'folder' && definition.folder ? vscode.Uri.file(definition.folder.path) : undefined;
  const config = vscode.workspace.getConfiguration(undefined, folder);
  const inspected = config.inspect<Record<string, unknown>>(SERVERS);
  const [current, target] =
    definition.scope === 'user'
      ? [inspected?.globalValue, vscode.ConfigurationTarget.Global]
      : definition.scope === 'workspace'
        ? [inspected?.workspaceValue, vscode.ConfigurationTarget.Workspace]
        : [inspected?.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder];
  const servers = structuredClone(current ?? {}) as Record<string, Record<string, unknown>>;
  let node: Record<string, unknown> = (servers[definition.id] ??= {});
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}) as Record<
      string,
      unknown
    >;
  }
  node[path[path.length - 1]] = value;
  await config.update(SERVERS, servers, target);
}

/**
 * Adds servers to `mcpHost.servers` of a workspace folder (its own settings in a multi-root
 * workspace, the workspace's otherwise) or of the user (no folder). An id already configured
 * there, or seen from there, is left as it is. `beforeWrite` gets the ids about to be added (to
 * store their secrets before the servers start). Returns the ids added.
 */
export async function addServerEntries(
  folder: vscode.WorkspaceFolder | undefined,
  entries: Readonly<Record<string, unknown>>,
  beforeWrite?: (ids: readonly string[]) => Promise<void>,
): Promise<string[]> {
  const target = folder
    ? vscode.workspace.workspaceFile
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  const config = vscode.workspace.getConfiguration(undefined, folder?.uri);
  const inspected = config.inspect<Record<string, unknown>>(SERVERS);
  const current =
    target === vscode.ConfigurationTarget.Global
      ? inspected?.globalValue
      : target === vscode.ConfigurationTarget.Workspace
        ? inspected?.workspaceValue
        : inspected?.workspaceFolderValue;
  const seen = config.get<Record<string, unknown>>(SERVERS, {});
  const servers = { ...(current ?? {}) };
  const added = Object.keys(entries).filter((id) => servers[id] === undefined && seen[id] === undefined);
  for (const id of added) servers[id] = entries[id];
  if (added.length === 0) return added;
  await beforeWrite?.(added);
  await config.update(SERVERS, servers, target);
  return added;
}
