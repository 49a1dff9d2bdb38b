import * as vscode from 'vscode';
import type { HostAuthorization } from '../../core/auth/hostAuthorization';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { spawnsProcess } from '../../core/config/transportKinds';

type Target = { server?: ServerSnapshot } | string | undefined;

/** Sign In, Sign Out and Manage Sign-ins for HTTP servers that use MCP authorization. */
export function registerSignInCommands(
  host: ServerDirectory & ServerLifecycle,
  authorization: HostAuthorization,
): vscode.Disposable[] {
  const httpServers = (filter: (s: ServerSnapshot) => boolean) =>
    host.servers().filter((s) => !spawnsProcess(s.transport) && filter(s));
  const pick = async (target: Target, title: string, candidates: ServerSnapshot[]): Promise<string | undefined> => {
    if (typeof target === 'string') return target;
    if (target?.server) return target.server.id;
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No HTTP MCP server is configured that could sign in.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((s) => ({
        label: s.id,
        description: s.status === 'needs-sign-in' ? vscode.l10n.t('needs sign-in') : s.status,
        detail: s.target,
      })),
      { title },
    );
    return picked?.label;
  };

  const signIn = async (target: Target) => {
    const id = await pick(
      target,
      vscode.l10n.t('Sign in to which MCP server?'),
      httpServers((s) => s.status !== 'running').concat(httpServers((s) => s.status === 'running')),
    );
    if (!id) return;
    const definition = host.definition(id);
    if (!definition || spawnsProcess(definition.transport)) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('MCP server "{0}" is not an HTTP server with a valid definition; only those sign in.', id),
      );
      return;
    }
    const browser = authorization.isInteractive(definition);
    let cancelled = false;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: browser
            ? vscode.l10n.t('Signing in to MCP server "{0}": finish in your browser…', id)
            : vscode.l10n.t('Signing in to MCP server "{0}"…', id),
          cancellable: true,
        },
        async (_progress, token) => {
          const abort = new AbortController();
          const listener = token.onCancellationRequested(() => {
            cancelled = true;
            abort.abort();
          });
          try {
            await host.signIn(id, abort.signal);
          } finally {
            listener.dispose();
          }
        },
      );
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to MCP server "{0}".', id));
    } catch (error) {
      // The user pressed Cancel: the row still says "needs sign-in"; nothing else to say.
      if (!cancelled)
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Sign-in to MCP server "{0}" failed: {1}', id, (error as Error).message),
        );
    }
  };

  const signOut = async (target: Target) => {
    const id = await pick(
      target,
      vscode.l10n.t('Sign out of which MCP server?'),
      httpServers(() => true),
    );
    if (!id) return;
    const remove = vscode.l10n.t('Sign Out');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Sign out of MCP server "{0}"?', id),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its tokens and client registration for {0} are removed from this editor; the server needs sign-in again.',
          host.server(id)?.target ?? '',
        ),
      },
      remove,
    );
    if (choice !== remove) return;
    await host.signOut(id);
  };

  const manage = async () => {
    const stored = await authorization.stored();
    if (stored.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No MCP server sign-ins are stored.'));
      return;
    }
    const items = stored.map((s) => ({
      label: s.resource,
      description: s.issuers.join(', '),
      detail: [
        s.savedAt
          ? vscode.l10n.t('signed in {0}', new Date(s.savedAt).toLocaleString())
          : vscode.l10n.t('registered, not signed in'),
        s.scope ? vscode.l10n.t('scope: {0}', s.scope) : undefined,
        vscode.l10n.t(
          'servers: {0}',
          host
            .servers()
            .filter((srv) => srv.target === s.resource)
            .map((srv) => srv.id)
            .join(', ') || '—',
        ),
      ]
        .filter(Boolean)
        .join(' · '),
      resource: s.resource,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('MCP sign-ins: pick one to remove'),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!picked) return;
    const remove = vscode.l10n.t('Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the stored sign-in for {0}?', picked.resource),
      { modal: true },
      remove,
    );
    if (choice !== remove) return;
    const servers = host.servers().filter((s) => s.target === picked.resource && s.status !== 'stopped');
    await authorization.signOut(picked.resource);
    for (const server of servers) await host.signOut(server.id);
  };

  return [
    vscode.commands.registerCommand('mcpHost.signIn', signIn),
    vscode.commands.registerCommand('mcpHost.signOut', signOut),
    vscode.commands.registerCommand('mcpHost.manageSignIns', manage),
  ];
}
