import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';

/**
 * One error notification per failure of a server (not per automatic retry), where the user looks,
 * with what to do next. A server that leaves the error state may notify again when it fails again.
 */
export class ServerFailureNotices implements vscode.Disposable {
  private readonly failing = new Set<string>();
  private readonly subscription: { dispose(): void };

  constructor(private readonly host: McpHost) {
    this.subscription = host.onDidChangeServers(() => this.update());
    this.update();
  }

  private update(): void {
    const servers = this.host.servers();
    for (const id of [...this.failing]) {
      if (!servers.some((s) => s.id === id && s.status === 'error')) this.failing.delete(id);
    }
    for (const server of servers) {
      if (server.status !== 'error' || this.failing.has(server.id)) continue;
      this.failing.add(server.id);
      void this.notify(server.id, server.reason ?? vscode.l10n.t('no reason was given'));
    }
  }

  private async notify(id: string, reason: string): Promise<void> {
    const output = vscode.l10n.t('Show Output');
    const settings = vscode.l10n.t('Open Settings');
    const restart = vscode.l10n.t('Restart');
    const choice = await vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" failed: {1}', id, reason), output, settings, restart);
    if (choice === output) await vscode.commands.executeCommand('mcpHost.showOutput', id);
    if (choice === settings) await vscode.commands.executeCommand('mcpHost.openSettings', { server: this.host.server(id) });
    if (choice === restart) await vscode.commands.executeCommand('mcpHost.restartServer', id);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
