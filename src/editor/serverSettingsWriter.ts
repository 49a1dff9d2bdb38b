import * as vscode from 'vscode';
import type { ServerDefinition } from '../core/config/serverDefinition';
import { SERVERS_SETTING } from './serverSettingsReader';

/**
 * Sets one field of a server's entry (`["sampling", "mode"]`) in the settings that define the
 * server (user, workspace or folder), leaving every other entry and field as it was.
 */
export async function updateServerField(definition: ServerDefinition, path: readonly string[], value: unknown): Promise<void> {
  const folder = definition.scope === 'folder' && definition.folder ? vscode.Uri.file(definition.folder.path) : undefined;
  const config = vscode.workspace.getConfiguration(undefined, folder);
  const inspected = config.inspect<Record<string, unknown>>(SERVERS_SETTING);
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
    node = (node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
  await config.update(SERVERS_SETTING, servers, target);
}
