import * as vscode from 'vscode';
import type { ServerStatus } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';

type UsedHost = ServerDirectory & ServerLifecycle;

/**
 * One notification each time a server enters a status (a failure, a wish to sign in), not per
 * automatic retry, where the user looks, with what to do next. A server that leaves the status
 * may notify again when it comes back to it.
 */
export class ServerStatusNotices implements vscode.Disposable {
  private readonly notified = new Set<string>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly host: UsedHost,
    private readonly status: ServerStatus,
    private readonly notify: (id: string, reason: string) => Promise<void>,
  ) {
    this.subscription = host.onDidChangeServers((id) => this.update(id));
    this.update();
  }

  /** Looks at the server that changed (`id`), or at every server. */
  private update(id?: string): void {
    for (const known of [...this.notified])
      if (this.host.server(known)?.status !== this.status) this.notified.delete(known);
    for (const server of this.host.changedServers(id)) {
      if (server.status !== this.status || this.notified.has(server.id)) continue;
      this.notified.add(server.id);
      void this.notify(server.id, server.reason ?? vscode.l10n.t('no reason was given'));
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** A failed server: why, and where to look or what to try. */
export async function notifyFailure(host: UsedHost, id: string, reason: string): Promise<void> {
  const output = vscode.l10n.t('Show Output');
  const settings = vscode.l10n.t('Open Settings');
  const restart = vscode.l10n.t('Restart');
  const choice = await vscode.window.showErrorMessage(
    vscode.l10n.t('MCP server "{0}" failed: {1}', id, reason),
    output,
    settings,
    restart,
  );
  if (choice === output) await vscode.commands.executeCommand('mcpHost.showOutput', id);
  if (choice === settings) await vscode.commands.executeCommand('mcpHost.openSettings', { server: host.server(id) });
  if (choice === restart) await vscode.commands.executeCommand('mcpHost.restartServer', id);
}

/** A server that wants the user to sign in: the same Sign In the view offers. */
export async function notifySignIn(id: string, reason: string): Promise<void> {
  const signIn = vscode.l10n.t('Sign In');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('MCP server "{0}" {1}.', id, reason.replace(/; use Sign In$/, '')),
    signIn,
  );
  if (choice === signIn) await vscode.commands.executeCommand('mcpHost.signIn', id);
}
