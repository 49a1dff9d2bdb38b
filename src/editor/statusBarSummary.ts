import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';

/** `MCP 3/4` in the status bar: running servers over enabled ones; warns when one is in error. */
export class StatusBarSummary implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: { dispose(): void };
  /** What the item shows, as last set. */
  private shown: string | undefined;

  constructor(private readonly host: McpHost) {
    this.item.name = vscode.l10n.t('MCP Servers');
    this.item.command = 'mcpHost.servers.focus';
    this.subscription = host.onDidChangeServers(() => this.update());
    this.update();
  }

  private update(): void {
    const servers = this.host.servers().filter((s) => s.status !== 'disabled');
    // A server that waits for its first use is not "stopped" to the user: it says so as the view does.
    const lines = servers.map((s) => (s.startsWhenNeeded ? `${s.id}: ${s.reason ?? vscode.l10n.t('starts when needed')}` : `${s.id}: ${s.status}${s.reason ? ` — ${s.reason}` : ''}`));
    const failing = servers.some((s) => s.status === 'error' || s.status === 'invalid' || s.configError);
    // Most changes (a server's lists, its log level) change nothing here; each setting of the item
    // is a message to the window.
    const shown = JSON.stringify([lines, failing]);
    if (shown === this.shown) return;
    this.shown = shown;
    if (servers.length === 0) {
      this.item.hide();
      return;
    }
    const running = servers.filter((s) => s.status === 'running').length;
    this.item.text = `$(${failing ? 'warning' : 'plug'}) MCP ${running}/${servers.length}`;
    this.item.backgroundColor = failing ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString();
    for (const line of lines) tooltip.appendText(`${line}\n\n`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: vscode.l10n.t('MCP: {0} of {1} servers running', running, servers.length) };
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
