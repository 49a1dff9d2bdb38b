import type { Tool } from '@modelcontextprotocol/client';
import { appResourceUri, offeredToModel } from '../../core/apps/appToolMeta';
import * as vscode from 'vscode';
import type { SkillSummary } from '../../core/skills/serverSkills';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory } from '../../core/host/hostPorts';
import type { ModelToolSwitches } from '../../core/tools/modelToolSwitches';
import type { BuiltInServer, OtherHostFiles } from '../config/otherHostFiles';
import { HostTreeProvider } from '../ui/hostTreeProvider';
import { serverItem, serverKey, serverTooltip, skillRow, tooltipFacts } from './serverRows';
import { EMPTY_TREE, rowsToRedraw, type DrawnRow, type DrawnTree } from '../../core/view/rowRedraws';

/** A row of the view. Rows keep their object from one drawing to the next (VS Code knows them by it); `key` is the row's id. */
type Node =
  | { key: string; kind: 'server'; server: ServerSnapshot }
  | { key: string; kind: 'group'; server: ServerSnapshot; group: 'tools' | 'prompts' | 'skills' }
  | {
      key: string;
      kind: 'item';
      server: ServerSnapshot;
      name: string;
      title: string | undefined;
      description: string | undefined;
      group: 'tools' | 'prompts';
      app: 'app' | 'app only' | undefined;
    }
  | { key: string; kind: 'skill'; server: ServerSnapshot; skill: SkillSummary };

/**
 * The MCP Servers view: one node per server with its state, and its tools and prompts below.
 * Servers and tools have a check box: checked means offered to language models.
 */
export class ServersTreeProvider extends HostTreeProvider<Node> {
  private readonly switchesChanged: { dispose(): void };

  private readonly builtInChanged: { dispose(): void };

  /** The tree as last handed to VS Code, and its rows by key. */
  private drawn: DrawnTree = EMPTY_TREE;
  private nodes = new Map<string, Node>();
  /** Rows whose children VS Code has asked for: only those are drawn below (it holds no others). */
  private readonly opened = new Set<string>();
  /** The servers whose row has children (tools or prompts), as drawn. */
  private readonly collapsibleServers = new Set<string>();

  constructor(
    host: ServerDirectory,
    private readonly switches: ModelToolSwitches,
    /** VS Code's own MCP configuration, to say when a server is configured there too. */
    private readonly builtIn?: Pick<OtherHostFiles, 'sameAs' | 'onDidChange'>,
  ) {
    super(host);
    this.switchesChanged = switches.onDidChange(() => this.hostChanged());
    this.builtInChanged = builtIn?.onDidChange(() => this.hostChanged()) ?? { dispose() {} };
    this.draw();
  }

  /**
   * Redraws only the rows whose look or children changed. VS Code forgets every row of a tree
   * that is redrawn whole until it has fetched it again, and drops a check box click on a row it
   * does not know: one server's change must not cost a click on another's tools.
   */
  protected override hostChanged(serverId?: string): void {
    const aligned = this.collapsibleServers.size === 0;
    const redraw = (serverId !== undefined && this.drawServer(serverId)) || this.drawChanges();
    if (redraw === 'all') return this.refresh();
    // VS Code draws a row without a twistie's space when none of its siblings has children, and
    // works that out only when it draws the row: when the first server gets tools, or the last
    // one loses them, every server's row is drawn again (a server that failed before any had
    // tools kept its row flush left, its check box out of line with the others').
    const keys =
      aligned === (this.collapsibleServers.size === 0) ? redraw : [...new Set([...redraw, ...this.drawn.roots])];
    this.refresh(keys.map((key) => this.nodes.get(key)!));
  }

  /** Draws the whole tree again: the rows that changed. */
  private drawChanges(): 'all' | string[] {
    const before = this.drawn;
    this.draw();
    return rowsToRedraw(before, this.drawn);
  }

  /**
   * Draws one server's rows again, when the servers are the ones drawn: the rows that changed.
   * A window's starts change each server several times; drawing every server's rows each time
   * would cost the square of their number.
   */
  private drawServer(serverId: string): string[] | undefined {
    const key = serverKey(serverId);
    const server = this.host.server(serverId);
    const ids = this.host.serverIds();
    if (!server || ids.length !== this.drawn.roots.length || ids.some((id, i) => this.drawn.roots[i] !== serverKey(id)))
      return undefined;
    const rows = this.drawn.rows as Map<string, DrawnRow>;
    const was = subtree(rows, key);
    const drawnRows = new Map<string, DrawnRow>();
    const drawnNodes = new Map<string, Node>();
    this.drawRow({ key, kind: 'server', server }, drawnRows, drawnNodes);
    for (const gone of was.keys()) {
      if (drawnRows.has(gone)) continue;
      rows.delete(gone);
      this.nodes.delete(gone);
      this.opened.delete(gone);
    }
    for (const [row, drawn] of drawnRows) rows.set(row, drawn);
    for (const [row, node] of drawnNodes) this.nodes.set(row, node);
    return rowsToRedraw({ roots: [key], rows: was }, { roots: [key], rows: drawnRows }) as string[];
  }

  /** Applies the user's clicks on the check boxes (the view manages them itself, one by one). */
  async applyCheckboxes(items: readonly (readonly [Node, vscode.TreeItemCheckboxState])[]): Promise<void> {
    for (const [node, state] of items) {
      const on = state === vscode.TreeItemCheckboxState.Checked;
      if (node.kind === 'server') await this.switches.setServer(node.server.id, on);
      else if (node.kind === 'item' && node.group === 'tools')
        await this.switches.setTool(node.server.id, node.name, on);
    }
  }

  override dispose(): void {
    this.switchesChanged.dispose();
    this.builtInChanged.dispose();
    super.dispose();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.drawn.roots.map((key) => this.nodes.get(key)!);
    const row = this.drawn.rows.get(node.key);
    if (!row) return [];
    if (!this.opened.has(node.key)) {
      this.opened.add(node.key);
      const rows = this.drawn.rows as Map<string, DrawnRow>;
      rows.set(node.key, { ...row, children: childrenOf(node).map((child) => this.drawRow(child, rows, this.nodes)) });
    }
    return this.drawn.rows.get(node.key)!.children.map((key) => this.nodes.get(key)!);
  }

  /** Draws the tree from the host's servers, keeping the object of every row that stays. */
  private draw(): void {
    const rows = new Map<string, DrawnRow>();
    const nodes = new Map<string, Node>();
    this.collapsibleServers.clear();
    const roots = this.host
      .servers()
      .map((server) => this.drawRow({ key: serverKey(server.id), kind: 'server', server }, rows, nodes));
    for (const key of this.opened) if (!nodes.has(key)) this.opened.delete(key);
    this.drawn = { roots, rows };
    this.nodes = nodes;
  }

  /** Draws a row, and its children when VS Code has asked for them. */
  private drawRow(fresh: Node, rows: Map<string, DrawnRow>, nodes: Map<string, Node>): string {
    const kept = this.nodes.get(fresh.key);
    const node = kept && kept.kind === fresh.kind ? Object.assign(kept, fresh) : fresh;
    nodes.set(node.key, node);
    const children = this.opened.has(node.key) ? childrenOf(node).map((child) => this.drawRow(child, rows, nodes)) : [];
    // A row whose tooltip would read otherwise is drawn again, so that its next hover asks for it.
    let item: vscode.TreeItem;
    let tooltip: string | undefined;
    if (node.kind === 'server') {
      const alsoBuiltIn = this.alsoBuiltIn(node.server);
      item = this.serverRow(node.server, alsoBuiltIn);
      tooltip = JSON.stringify(tooltipFacts(node.server, alsoBuiltIn));
      if (item.collapsibleState === vscode.TreeItemCollapsibleState.None) this.collapsibleServers.delete(node.key);
      else this.collapsibleServers.add(node.key);
    } else {
      item = this.getTreeItem(node);
      tooltip =
        node.kind === 'item'
          ? node.description
          : node.kind === 'skill'
            ? (node.skill.refused ?? node.skill.description)
            : undefined;
    }
    rows.set(node.key, { look: lookOf(item, tooltip), children });
    return node.key;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'server') return this.serverRow(node.server, this.alsoBuiltIn(node.server));
    if (node.kind === 'group') {
      const count =
        node.group === 'tools'
          ? node.server.tools.length
          : node.group === 'prompts'
            ? node.server.prompts.length
            : (node.server.skills?.length ?? 0);
      const label =
        node.group === 'tools'
          ? vscode.l10n.t('Tools ({0})', count)
          : node.group === 'prompts'
            ? vscode.l10n.t('Prompts ({0})', count)
            : vscode.l10n.t('Skills ({0})', count);
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.key;
      item.iconPath = new vscode.ThemeIcon(
        node.group === 'tools' ? 'tools' : node.group === 'prompts' ? 'comment-discussion' : 'book',
      );
      item.contextValue = `mcpGroup:${node.group}`;
      return item;
    }
    if (node.kind === 'skill') return skillRow(node.server, node.skill);
    const item = new vscode.TreeItem(node.title ?? node.name, vscode.TreeItemCollapsibleState.None);
    item.id = node.key;
    item.description = node.title && node.title !== node.name ? node.name : undefined;
    item.iconPath = new vscode.ThemeIcon(node.group === 'tools' ? 'symbol-method' : 'symbol-string');
    item.contextValue = node.group === 'tools' ? 'mcpTool' : 'mcpPrompt';
    if (node.app)
      item.description = [
        item.description,
        node.app === 'app only' ? vscode.l10n.t('app only, never offered to models') : vscode.l10n.t('has an app'),
      ]
        .filter(Boolean)
        .join(' · ');
    if (node.group === 'tools' && node.app !== 'app only') {
      const on = this.switches.isToolSwitchedOn(node.server.id, node.name);
      item.checkboxState = checkbox(on, vscode.l10n.t('Offer {0} to language models', node.name));
      if (on && !this.switches.isServerOffered(node.server.id))
        item.description = [item.description, vscode.l10n.t('server not offered to models')]
          .filter(Boolean)
          .join(' · ');
    }
    return item;
  }

  /**
   * Tooltips are made when the user hovers a row, not each time it is drawn: a window's starts
   * draw every server's row several times, and VS Code parses each tooltip it is handed.
   */
  resolveTreeItem(item: vscode.TreeItem, node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const server = this.host.server(node.server.id) ?? node.server;
      item.tooltip = serverTooltip(tooltipFacts(server, this.alsoBuiltIn(server)));
    } else if (node.kind === 'item' && node.description) {
      // Server strings are untrusted: plain text only.
      item.tooltip = new vscode.MarkdownString().appendText(node.description);
    } else if (node.kind === 'skill') {
      item.tooltip = new vscode.MarkdownString().appendText(
        [
          node.skill.uri,
          node.skill.description,
          node.skill.refused && vscode.l10n.t('Refused: {0}', node.skill.refused),
        ]
          .filter(Boolean)
          .join('\n\n'),
      );
    }
    return item;
  }

  private alsoBuiltIn(server: ServerSnapshot): BuiltInServer | undefined {
    const definition = this.host.definition(server.id);
    return definition && this.builtIn?.sameAs(definition);
  }

  private serverRow(server: ServerSnapshot, alsoBuiltIn: BuiltInServer | undefined): vscode.TreeItem {
    const item = serverItem(server, alsoBuiltIn);
    item.checkboxState = checkbox(
      this.switches.isServerOffered(server.id),
      vscode.l10n.t('Offer the tools of {0} to language models', server.id),
    );
    return item;
  }
}

/** A row and the rows below it, as drawn. */
function subtree(rows: ReadonlyMap<string, DrawnRow>, key: string): Map<string, DrawnRow> {
  const found = new Map<string, DrawnRow>();
  const visit = (at: string): void => {
    const row = rows.get(at);
    if (!row) return;
    found.set(at, row);
    for (const child of row.children) visit(child);
  };
  visit(key);
  return found;
}

/** A row's children, fresh from its server's snapshot. */
function childrenOf(node: Node): Node[] {
  const { server } = node;
  if (node.kind === 'server') {
    const groups: Node[] = [];
    if (server.tools.length > 0) groups.push({ key: `${server.id}/tools`, kind: 'group', server, group: 'tools' });
    if (server.prompts.length > 0)
      groups.push({ key: `${server.id}/prompts`, kind: 'group', server, group: 'prompts' });
    if (server.skills?.length) groups.push({ key: `${server.id}/skills`, kind: 'group', server, group: 'skills' });
    return groups;
  }
  if (node.kind !== 'group') return [];
  if (node.group === 'skills')
    return (server.skills ?? []).map((skill) => ({
      key: `${server.id}/skills/${skill.uri}`,
      kind: 'skill',
      server,
      skill,
    }));
  if (node.group === 'prompts')
    return server.prompts.map((p) => ({
      key: `${server.id}/prompts/${p.name}`,
      kind: 'item',
      server,
      group: 'prompts',
      name: p.name,
      title: p.title,
      description: p.description,
      app: undefined,
    }));
  return server.tools.map((t) => ({
    key: `${server.id}/tools/${t.name}`,
    kind: 'item',
    server,
    group: 'tools',
    name: t.name,
    title: t.title,
    description: t.description,
    app: appMarker(t),
  }));
}

/** Everything a row shows, with what its tooltip says, as one string: two rows that look alike give the same. */
function lookOf(item: vscode.TreeItem, tooltip: string | undefined): string {
  const icon = item.iconPath instanceof vscode.ThemeIcon ? [item.iconPath.id, item.iconPath.color?.id] : undefined;
  const box =
    typeof item.checkboxState === 'object'
      ? [item.checkboxState.state, item.checkboxState.tooltip]
      : item.checkboxState;
  return JSON.stringify([
    item.label,
    item.description,
    tooltip,
    icon,
    item.contextValue,
    item.collapsibleState,
    box,
    item.accessibilityInformation?.label,
  ]);
}

/** Whether a tool comes with an MCP App, or is for its app alone. */
function appMarker(tool: Tool): 'app' | 'app only' | undefined {
  if (!offeredToModel(tool)) return 'app only';
  try {
    return appResourceUri(tool) ? 'app' : undefined;
  } catch {
    return undefined;
  }
}

function checkbox(checked: boolean, tooltip: string): vscode.TreeItem['checkboxState'] {
  return {
    state: checked ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
    tooltip,
    accessibilityInformation: { label: tooltip },
  };
}

/** The MCP Servers view, its check boxes applied to the model tool switches. */
export function registerServersView(
  host: ServerDirectory,
  switches: ModelToolSwitches,
  builtIn: Pick<OtherHostFiles, 'sameAs' | 'onDidChange'>,
): vscode.Disposable[] {
  const tree = new ServersTreeProvider(host, switches, builtIn);
  const view = vscode.window.createTreeView('mcpHost.servers', {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  return [tree, view, view.onDidChangeCheckboxState((e) => void tree.applyCheckboxes(e.items))];
}
