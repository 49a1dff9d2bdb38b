import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { offersResources, type ServerSnapshot } from '../../core/connection/serverSnapshot';
import { HostTreeProvider } from '../ui/hostTreeProvider';
import { plainMarkdown } from '../ui/plainMarkdown';
import type { ResourceBrowsing, ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { startWhenNeeded } from '../servers/serverItemPicker';
import { sameEntries } from '../../core/view/sameEntries';
import { plural } from '../../shared/plural';
import { resourceEditorUri } from './resourceFileSystem';

export type ResourceNode =
  | { kind: 'server'; server: ServerSnapshot }
  | { kind: 'templates'; serverId: string; templates: readonly ResourceTemplateType[] }
  | { kind: 'template'; serverId: string; template: ResourceTemplateType }
  | { kind: 'resource'; serverId: string; resource: Resource }
  | { kind: 'more'; serverId: string; loaded: number };

/**
 * The MCP Resources view: each running server that offers resources, then its templates (in a
 * group) and resources. Resources come a page at a time: "Load more…" fetches the next page.
 * A server that starts when needed is listed when its last run offered resources (they are not
 * kept); expanding it starts it, and its row stays while it starts.
 */
export class ResourcesTreeProvider extends HostTreeProvider<
  ResourceNode,
  ServerDirectory & ResourceBrowsing & Pick<ServerLifecycle, 'startOnDemand'>
> {
  /** The servers the view shows, as of its last redraw, in order: each with the lists it showed (lists are replaced, never changed). */
  private shown = new Map<string, readonly unknown[]>();
  /** Servers started by expanding their row, until the start has ended. */
  private readonly starting = new Set<string>();

  /**
   * Redraws the view when a server's resources or templates changed, or which servers have some;
   * not for every change of a server. A change to one server looks at that server only.
   */
  protected override hostChanged(serverId?: string): void {
    const one = serverId === undefined ? undefined : this.host.server(serverId);
    if (one && sameLists(this.shownLists(one), this.shown.get(one.id))) return;
    const now = new Map<string, readonly unknown[]>();
    for (const server of this.host.servers()) {
      const lists = this.shownLists(server);
      if (lists) now.set(server.id, lists);
    }
    const before = [...this.shown];
    this.shown = now;
    if (sameEntries(before, [...now], sameLists)) return;
    this.refresh();
  }

  /** What the view shows of a server: its lists, that it waits or starts, or nothing (it is not listed). */
  private shownLists(server: ServerSnapshot): readonly unknown[] | undefined {
    if (offersResources(server)) return [server.resources, server.resourceTemplates, server.moreResources];
    if (server.startsWhenNeeded && server.resourcesInLastRun) return WAITING;
    return this.starting.has(server.id) ? STARTING : undefined;
  }

  async getChildren(node?: ResourceNode): Promise<ResourceNode[]> {
    if (!node)
      return this.host
        .servers()
        .filter((server) => this.shownLists(server))
        .map((server) => ({ kind: 'server', server }));
    if (node.kind === 'templates')
      return node.templates.map((template) => ({ kind: 'template', serverId: node.serverId, template }));
    if (node.kind !== 'server') return [];
    const id = node.server.id;
    if (this.host.server(id)?.startsWhenNeeded) await this.startFromRow(id);
    if (this.host.server(id)?.status !== 'running') return [];
    // Stale by the server's ttlMs: fetched again now, as the user looks.
    const resources = await this.host.freshResources(id).catch(() => node.server.resources);
    const server = this.host.server(id) ?? node.server;
    return [
      ...(server.resourceTemplates.length
        ? [{ kind: 'templates' as const, serverId: id, templates: server.resourceTemplates }]
        : []),
      ...resources.map((resource) => ({ kind: 'resource' as const, serverId: id, resource })),
      ...(server.moreResources ? [{ kind: 'more' as const, serverId: id, loaded: resources.length }] : []),
    ];
  }

  /** Starts a waiting server whose row was expanded; its row stays while it starts (a failure shows in the Servers view). */
  private async startFromRow(id: string): Promise<void> {
    this.starting.add(id);
    try {
      await startWhenNeeded(this.host, { ids: [id] });
    } finally {
      this.starting.delete(id);
      this.hostChanged(id);
    }
  }

  getTreeItem(node: ResourceNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': {
        const { server } = node;
        const item = new vscode.TreeItem(server.id, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `server/${server.id}`;
        item.iconPath = new vscode.ThemeIcon('server');
        if (!offersResources(server)) {
          const waits = server.startsWhenNeeded === true;
          item.description = waits ? vscode.l10n.t('starts when needed') : vscode.l10n.t('starting…');
          item.tooltip = waits
            ? vscode.l10n.t('Its last run offered resources. Expand it to start it and list them.')
            : undefined;
          item.contextValue = 'mcpResourceServerWaiting';
          return item;
        }
        item.description = [
          server.resources.length
            ? server.moreResources
              ? `${server.resources.length}+ resources`
              : plural(server.resources.length, 'resource')
            : undefined,
          server.resourceTemplates.length ? plural(server.resourceTemplates.length, 'template') : undefined,
        ]
          .filter(Boolean)
          .join(', ');
        item.contextValue = 'mcpResourceServer';
        return item;
      }
      case 'templates': {
        const item = new vscode.TreeItem(
          vscode.l10n.t('Resource Templates'),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = `templates/${node.serverId}`;
        item.description = String(node.templates.length);
        item.iconPath = new vscode.ThemeIcon('symbol-snippet');
        return item;
      }
      case 'template': {
        const { template } = node;
        const item = new vscode.TreeItem(template.title ?? template.name, vscode.TreeItemCollapsibleState.None);
        item.id = `template/${node.serverId}/${template.uriTemplate}`;
        item.description = template.uriTemplate;
        item.iconPath = new vscode.ThemeIcon('symbol-snippet');
        item.contextValue = 'mcpResourceTemplate';
        item.command = {
          command: 'mcpHost.openResourceTemplate',
          title: vscode.l10n.t('Open from Template…'),
          arguments: [node],
        };
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
        item.id = `more/${node.serverId}/${node.loaded}`;
        item.description = vscode.l10n.t('{0} loaded', node.loaded);
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.command = {
          command: 'mcpHost.loadMoreResources',
          title: vscode.l10n.t('Load More Resources'),
          arguments: [node],
        };
        return item;
      }
      case 'resource': {
        const { resource } = node;
        const item = new vscode.TreeItem(resource.title ?? resource.name, vscode.TreeItemCollapsibleState.None);
        item.id = `resource/${node.serverId}/${resource.uri}`;
        item.description = [resource.uri, resource.size === undefined ? undefined : formatSize(resource.size)]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = iconOf(resource);
        item.contextValue = 'mcpResource';
        item.command = {
          command: 'vscode.open',
          title: vscode.l10n.t('Open Resource'),
          arguments: [
            resourceEditorUri({ serverId: node.serverId, uri: resource.uri }, resource.name, resource.mimeType),
          ],
        };
        return item;
      }
    }
  }

  /** A resource's or template's tooltip, made when the user hovers its row: a server may list thousands. */
  resolveTreeItem(item: vscode.TreeItem, node: ResourceNode): vscode.TreeItem {
    if (node.kind === 'resource')
      item.tooltip = plainTooltip(node.resource.description, node.resource.uri, node.resource.mimeType);
    else if (node.kind === 'template')
      item.tooltip = plainTooltip(node.template.description, node.template.uriTemplate, node.template.mimeType);
    return item;
  }
}

/** What the view shows of a server that waits to start, or that starts (see `shownLists`). */
const WAITING: readonly unknown[] = ['starts when needed'];
const STARTING: readonly unknown[] = ['starting'];

const sameLists = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
  a === b || (!!a && !!b && a.every((list, i) => list === b[i]));

/** Server strings are untrusted: plain text only. */
function plainTooltip(...lines: (string | undefined)[]): vscode.MarkdownString {
  return new vscode.MarkdownString(lines.flatMap((line) => (line ? [plainMarkdown(line)] : [])).join('\n\n'));
}

/**
 * The resource's own icon when it carries one inline (`data:image/…`), else one from its MIME type.
 * Icons at https addresses are not fetched: the host never loads a URL a server names.
 */
export function iconOf(resource: Resource): vscode.ThemeIcon | vscode.Uri {
  const own = resource.icons?.find((icon) => /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/.test(icon.src));
  if (own) return vscode.Uri.parse(own.src);
  return new vscode.ThemeIcon(iconFor(resource.mimeType));
}

function iconFor(mimeType: string | undefined): string {
  if (!mimeType) return 'file';
  if (mimeType.startsWith('image/')) return 'file-media';
  if (mimeType.startsWith('text/') || mimeType.includes('json') || mimeType.includes('xml')) return 'file-code';
  return 'file-binary';
}

export function formatSize(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
