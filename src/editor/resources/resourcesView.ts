import * as vscode from 'vscode';
import type {
  HostSettings,
  ResourceBrowsing,
  ServerCalls,
  ServerDirectory,
  ServerLifecycle,
} from '../../core/host/hostPorts';
import { RESOURCE_SCHEME } from '../../core/resources/resourceUris';
import { ResourceFileSystem } from './resourceFileSystem';
import { ResourcesTreeProvider } from './resourcesTreeProvider';

/** The MCP Resources view, and the read-only file system its resources open in. */
export function registerResourcesView(
  host: ServerDirectory &
    ServerCalls &
    ResourceBrowsing &
    Pick<ServerLifecycle, 'startOnDemand'> &
    Pick<HostSettings, 'settingsApplied'>,
  warn: (message: string) => void,
): vscode.Disposable[] {
  const tree = new ResourcesTreeProvider(host);
  const files = new ResourceFileSystem(host, warn);
  return [
    tree,
    files,
    vscode.window.createTreeView('mcpHost.resources', { treeDataProvider: tree, showCollapseAll: true }),
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, files, { isReadonly: true, isCaseSensitive: true }),
  ];
}
