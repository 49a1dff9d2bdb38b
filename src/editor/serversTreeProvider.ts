import type { Tool } from '@modelcontextprotocol/client';
import { appResourceUri, offeredToModel } from '../core/apps/appToolMeta';
import * as vscode from 'vscode';
import { plural } from '../shared/plural';
import type { ServerSnapshot, ServerStatus } from '../core/connection/serverSnapshot';
import type { McpHost } from '../core/host/mcpHost';
import type { ModelToolSwitches } from '../core/tools/modelToolSwitches';
import type { BuiltInServer, OtherHostFiles } from './otherHostFiles';
import { HostTreeProvider } from './hostTreeProvider';

type Node =
  | { kind: 'server'; server: ServerSnapshot }
  | { kind: 'group'; server: ServerSnapshot; group: 'tools' | 'prompts' }
  | { kind: 'item'; server: ServerSnapshot; name: string; title?: string; description?: string; group: 'tools' | 'prompts'; app?: 'app' | 'app only' };

const STATUS_ICONS: Record<ServerStatus, [string, string?]> = {
  running: ['pass-filled', 'testing.iconPassed'],
  starting: ['loading~spin'],
  restarting: ['sync~spin', 'editorWarning.foreground'],
  stopping: ['loading~spin'],
  stopped: ['circle-outline'],
  error: ['error', 'errorForeground'],
  invalid: ['warning', 'editorWarning.foreground'],
  untrusted: ['shield', 'editorWarning.foreground'],
  disabled: ['circle-slash', 'disabledForeground'],
  'needs-sign-in': ['account', 'editorWarning.foreground'],
};

/**
 * The MCP Servers view: one node per server with its state, and its tools and prompts below.
 * Servers and tools have a check box: checked means offered to language models.
 */
export class ServersTreeProvider extends HostTreeProvider<Node> {
  private readonly switchesChanged: { dispose(): void };

  private readonly builtInChanged: { dispose(): void };

  constructor(
    host: McpHost,
    private readonly switches: ModelToolSwitches,
    /** VS Code's own MCP configuration, to say when a server is configured there too. */
    private readonly builtIn?: Pick<OtherHostFiles, 'sameAs' | 'onDidChange'>,
  ) {
    super(host);
    this.switchesChanged = switches.onDidChange(() => this.refresh());
    this.builtInChanged = builtIn?.onDidChange(() => this.refresh()) ?? { dispose() {} };
  }

  /** Applies the user's clicks on the check boxes (the view manages them itself, one by one). */
  async applyCheckboxes(items: readonly (readonly [Node, vscode.TreeItemCheckboxState])[]): Promise<void> {
    for (const [node, state] of items) {
      const on = state === vscode.TreeItemCheckboxState.Checked;
      if (node.kind === 'server') await this.switches.setServer(node.server.id, on);
      else if (node.kind === 'item' && node.group === 'tools') await this.switches.setTool(node.server.id, node.name, on);
    }
  }

  override dispose(): void {
    this.switchesChanged.dispose();
    this.builtInChanged.dispose();
    super.dispose();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.host.servers().map((server) => ({ kind: 'server', server }));
    if (node.kind === 'server') {
      const groups: Node[] = [];
      if (node.server.tools.length > 0) groups.push({ kind: 'group', server: node.server, group: 'tools' });
      if (node.server.prompts.length > 0) groups.push({ kind: 'group', server: node.server, group: 'prompts' });
      return groups;
    }
    if (node.kind === 'group') {
      if (node.group === 'prompts') return node.server.prompts.map((i) => ({ kind: 'item', server: node.server, group: 'prompts', name: i.name, title: i.title, description: i.description }));
      return node.server.tools.map((t) => ({ kind: 'item', server: node.server, group: 'tools', name: t.name, title: t.title, description: t.description, app: appMarker(t) }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const definition = this.host.definition(node.server.id);
      const item = serverItem(node.server, definition && this.builtIn?.sameAs(definition));
      item.checkboxState = checkbox(this.switches.isServerOffered(node.server.id), vscode.l10n.t('Offer the tools of {0} to language models', node.server.id));
      return item;
    }
    if (node.kind === 'group') {
      const count = node.group === 'tools' ? node.server.tools.length : node.server.prompts.length;
      const item = new vscode.TreeItem(node.group === 'tools' ? vscode.l10n.t('Tools ({0})', count) : vscode.l10n.t('Prompts ({0})', count), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.server.id}/${node.group}`;
      item.iconPath = new vscode.ThemeIcon(node.group === 'tools' ? 'tools' : 'comment-discussion');
      item.contextValue = `mcpGroup:${node.group}`;
      return item;
    }
    const item = new vscode.TreeItem(node.title ?? node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.server.id}/${node.group}/${node.name}`;
    item.description = node.title && node.title !== node.name ? node.name : undefined;
    // Server strings are untrusted: plain text only.
    item.tooltip = node.description ? new vscode.MarkdownString().appendText(node.description) : undefined;
    item.iconPath = new vscode.ThemeIcon(node.group === 'tools' ? 'symbol-method' : 'symbol-string');
    item.contextValue = node.group === 'tools' ? 'mcpTool' : 'mcpPrompt';
    if (node.app) item.description = [item.description, node.app === 'app only' ? vscode.l10n.t('app only, never offered to models') : vscode.l10n.t('has an app')].filter(Boolean).join(' · ');
    if (node.group === 'tools' && node.app !== 'app only') {
      const on = this.switches.isToolSwitchedOn(node.server.id, node.name);
      item.checkboxState = checkbox(on, vscode.l10n.t('Offer {0} to language models', node.name));
      if (on && !this.switches.isServerOffered(node.server.id)) item.description = [item.description, vscode.l10n.t('server not offered to models')].filter(Boolean).join(' · ');
    }
    return item;
  }
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
  return { state: checked ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked, tooltip, accessibilityInformation: { label: tooltip } };
}

export function describeServer(server: ServerSnapshot): string {
  if (server.configError) return vscode.l10n.t('{0} · settings error', server.status);
  // A failure says why right in the row; the tooltip and the notification carry the rest.
  if ((server.status === 'error' || server.status === 'restarting') && server.reason) return `${server.status}: ${server.reason}`;
  if (server.status === 'needs-sign-in') return vscode.l10n.t('needs sign-in');
  if (server.startsWhenNeeded) {
    return server.toolsFromLastRun ? vscode.l10n.t('starts when needed · {0} from its last run', plural(server.tools.length, 'tool')) : vscode.l10n.t('starts when needed');
  }
  if (server.status !== 'running') return server.status;
  const parts = [
    server.status,
    ...(server.sandbox ? [vscode.l10n.t('sandboxed')] : []),
    plural(server.tools.length, 'tool'),
    plural(server.prompts.length, 'prompt'),
    plural(server.resources.length + server.resourceTemplates.length, 'resource'),
  ];
  // An empty list that failed says so, instead of looking like a server with nothing to offer.
  const failed = Object.keys(server.listProblems ?? {});
  if (failed.length > 0) parts.push(vscode.l10n.t('{0} failed', failed.join(', ')));
  return parts.join(' · ');
}

function serverItem(server: ServerSnapshot, alsoBuiltIn: BuiltInServer | undefined): vscode.TreeItem {
  const hasChildren = server.tools.length + server.prompts.length > 0;
  const item = new vscode.TreeItem(server.id, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `server/${server.id}`;
  const described = describeServer(server).split(' · ');
  // Where a live server comes from goes right after its state, where a narrow view still shows it.
  if (server.origin) described.splice(1, 0, vscode.l10n.t('from {0}', server.origin.host));
  item.description = described.join(' · ');
  const [icon, color] = server.configError ? STATUS_ICONS.invalid : STATUS_ICONS[server.status];
  item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
  item.contextValue = `mcpServer:${server.status}:${server.transport}`;
  item.tooltip = serverTooltip(server, alsoBuiltIn);
  if (alsoBuiltIn) item.description = `${item.description} · ${vscode.l10n.t('also in VS Code\'s MCP')}`;
  item.accessibilityInformation = { label: `${server.id}, ${item.description}${server.reason ? `, ${server.reason}` : ''}` };
  return item;
}

/** The tooltip shows this much of a server's instructions. */
const TOOLTIP_INSTRUCTIONS = 1_500;

function serverTooltip(server: ServerSnapshot, alsoBuiltIn: BuiltInServer | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(server.id)}** — ${escape(server.status)}\n\n`);
  if (alsoBuiltIn) {
    md.appendMarkdown('$(warning) ')
      .appendText(vscode.l10n.t('Also configured in VS Code\'s built-in MCP support ({0}, server "{1}"): when both start it, it runs twice. Keep it in one place.', alsoBuiltIn.file, alsoBuiltIn.id))
      .appendMarkdown('\n\n');
  }
  const row = (label: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') md.appendMarkdown(`${label}: `).appendText(String(value)).appendMarkdown('  \n');
  };
  row(vscode.l10n.t('Reason'), server.reason);
  row(vscode.l10n.t('Settings error'), server.configError);
  for (const [list, problem] of Object.entries(server.listProblems ?? {})) row(list, problem);
  row(vscode.l10n.t('Server'), server.serverName ? `${server.serverName} ${server.serverVersion ?? ''}`.trim() : undefined);
  row(vscode.l10n.t('Protocol'), server.protocolVersion ? `${server.protocolVersion} (${server.era})` : undefined);
  row(vscode.l10n.t('Transport'), server.transport);
  row(vscode.l10n.t('Runs'), server.target);
  row(vscode.l10n.t('Process id'), server.pid);
  row(vscode.l10n.t('Sandbox'), server.sandbox);
  row(vscode.l10n.t('Defined in'), server.origin ? vscode.l10n.t('{0}: {1} (read live, treated as {2} settings)', server.origin.host, server.origin.file, server.scope) : vscode.l10n.t('{0} settings', server.scope));
  if (server.instructions) {
    md.appendMarkdown(`\n**${vscode.l10n.t('Instructions for models')}**\n\n`);
    md.appendCodeblock(server.instructions.length > TOOLTIP_INSTRUCTIONS ? `${server.instructions.slice(0, TOOLTIP_INSTRUCTIONS)}…` : server.instructions, 'text');
  }
  return md;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&');
}
