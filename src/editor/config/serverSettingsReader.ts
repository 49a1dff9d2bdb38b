import * as vscode from 'vscode';
import { HOST_SETTINGS } from '../../core/config/hostSettingKeys';
import type { FolderRef, ServerSettingsEntry } from '../../core/config/serverDefinition';
import { hostSetting } from './hostSettings';

/** When servers whose entries do not say start: `mcpHost.autoStart`. */
export function autoStartDefault(): 'startup' | 'onDemand' {
  return hostSetting('autoStart') === 'onDemand' ? 'onDemand' : 'startup';
}

/**
 * Reads `mcpHost.servers` from every scope, tagging each entry with where it came from.
 * A folder's entry overrides the workspace's, which overrides the user's, as VS Code merges settings.
 */
export function readServerSettings(): ServerSettingsEntry[] {
  const byId = new Map<string, ServerSettingsEntry>();
  const add = (servers: unknown, scope: ServerSettingsEntry['scope'], folder?: FolderRef) => {
    if (typeof servers !== 'object' || servers === null) return;
    for (const [id, raw] of Object.entries(servers)) byId.set(id, { id, scope, folder, raw });
  };
  const inspected = vscode.workspace.getConfiguration().inspect<unknown>(HOST_SETTINGS.servers.key);
  add(inspected?.globalValue, 'user');
  add(inspected?.workspaceValue, 'workspace');
  // In a single-folder window the folder's settings are the workspace settings; read them once.
  if (vscode.workspace.workspaceFile) {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const value = vscode.workspace
        .getConfiguration(undefined, folder.uri)
        .inspect<unknown>(HOST_SETTINGS.servers.key)?.workspaceFolderValue;
      add(value, 'folder', toFolderRef(folder));
    }
  }
  return [...byId.values()];
}

export function workspaceFolderRefs(): FolderRef[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map(toFolderRef);
}

function toFolderRef(folder: vscode.WorkspaceFolder): FolderRef {
  return { name: folder.name, path: folder.uri.fsPath };
}
