import type { Resource } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import { HostTreeProvider } from '../hostTreeProvider';
import { resourceEditorUri } from './resourceFileSystem';

type Node = { kind: 'server'; server: ServerSnapshot } | { kind: 'resource'; serverId: string; resource: Resource };

/** The MCP Resources view: each running server that offers resources, and its resources. */
export class ResourcesTreeProvider extends HostTreeProvider<Node> {
  getChildren(node?: Node): Node[] {
    if (!node) return this.host.servers().filter((s) => s.status === 'running' && s.resources.length > 0).map((server) => ({ kind: 'server', server }));
    if (node.kind === 'server') return node.server.resources.map((resource) => ({ kind: 'resource', serverId: node.server.id, resource }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const item = new vscode.TreeItem(node.server.id, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `server/${node.server.id}`;
      item.description = vscode.l10n.t('{0} resources', node.server.resources.length);
      item.iconPath = new vscode.ThemeIcon('server');
      return item;
    }
    const { resource } = node;
    const item = new vscode.TreeItem(resource.title ?? resource.name, vscode.TreeItemCollapsibleState.None);
    item.id = `resource/${node.serverId}/${resource.uri}`;
    item.description = [resource.uri, resource.size === undefined ? undefined : formatSize(resource.size)].filter(Boolean).join(' · ');
    // Server strings are untrusted: plain text only.
    item.tooltip = new vscode.MarkdownString().appendText([resource.description, resource.uri, resource.mimeType].filter(Boolean).join('\n\n'));
    item.iconPath = new vscode.ThemeIcon(iconFor(resource.mimeType));
    item.contextValue = 'mcpResource';
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open Resource'), arguments: [resourceEditorUri({ serverId: node.serverId, uri: resource.uri }, resource.name, resource.mimeType)] };
    return item;
  }
}

function iconFor(mimeType: string | undefined): string {
  if (!mimeType) return 'file';
  if (mimeType.startsWith('image/')) return 'file-media';
  if (mimeType.startsWith('text/') || mimeType.includes('json') || mimeType.includes('xml')) return 'file-code';
  return 'file-binary';
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
