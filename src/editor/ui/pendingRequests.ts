import * as vscode from 'vscode';

export interface PendingRequest {
  /** What waits, naming the server ("Sampling request from "everything""). */
  readonly label: string;
  readonly startedAt: number;
  /** Brings the request's panel or dialog to the front. */
  reveal(): void;
}

export const SHOW_PENDING_COMMAND = 'mcpHost.showPendingRequests';

/**
 * Requests from servers that wait for the user (sampling approvals, elicitation forms): counted in
 * the status bar, listed by "MCP: Show Waiting Requests", so none is lost behind other tabs.
 */
export class PendingRequests implements vscode.Disposable {
  private readonly requests = new Set<PendingRequest>();
  private readonly item = vscode.window.createStatusBarItem('mcpHost.pending', vscode.StatusBarAlignment.Left, 49);
  private readonly command: vscode.Disposable;

  constructor() {
    this.item.name = vscode.l10n.t('MCP Requests Waiting');
    this.item.command = SHOW_PENDING_COMMAND;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.command = vscode.commands.registerCommand(SHOW_PENDING_COMMAND, () => this.show());
  }

  get size(): number {
    return this.requests.size;
  }

  /** Adds a waiting request; dispose the result when it no longer waits. */
  add(label: string, reveal: () => void): vscode.Disposable {
    const request: PendingRequest = { label, startedAt: Date.now(), reveal };
    this.requests.add(request);
    this.update();
    return { dispose: () => this.requests.delete(request) && this.update() };
  }

  private update(): void {
    const count = this.requests.size;
    if (count === 0) {
      this.item.hide();
      return;
    }
    this.item.text = `$(bell-dot) ${count === 1 ? vscode.l10n.t('1 MCP request waiting') : vscode.l10n.t('{0} MCP requests waiting', count)}`;
    this.item.tooltip = [...this.requests].map((r) => r.label).join('\n');
    this.item.show();
  }

  private async show(): Promise<void> {
    if (this.requests.size === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No MCP server is waiting for you.'));
      return;
    }
    const items = [...this.requests].map((request) => ({
      label: request.label,
      description: vscode.l10n.t('waiting since {0}', new Date(request.startedAt).toLocaleTimeString()),
      request,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('MCP requests waiting for you'),
      placeHolder: vscode.l10n.t('Choose one to answer'),
    });
    picked?.request.reveal();
  }

  dispose(): void {
    this.command.dispose();
    this.item.dispose();
  }
}
