import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { plural } from '../../shared/plural';
import type { ServerLogChannels } from './serverLogs';

type UsedHost = ServerDirectory & ServerLifecycle;

/** A command's target: a tree node (from the view), a server id (from the API or a keybinding), or nothing (pick). */
type Target = { server?: ServerSnapshot } | string | undefined;

export function registerServerCommands(
  host: UsedHost,
  logs: ServerLogChannels,
  refresh: () => Promise<unknown>,
): vscode.Disposable[] {
  const withServer = (action: ServerAction, verb: string) => async (target: Target) => {
    const id = typeof target === 'string' ? target : (target?.server?.id ?? (await pickServer(host, verb)));
    if (!id) return;
    const run = await action(id);
    if (!run) return;
    try {
      await vscode.window.withProgress(
        { location: { viewId: 'mcpHost.servers' }, title: vscode.l10n.t('{0} {1}…', verb, id) },
        async () => run(),
      );
    } catch (error) {
      void vscode.window.showErrorMessage((error as Error).message);
    }
  };
  return [
    vscode.commands.registerCommand(
      'mcpHost.startServer',
      withServer((id) => () => host.start(id), vscode.l10n.t('Starting')),
    ),
    vscode.commands.registerCommand(
      'mcpHost.stopServer',
      withServer((id) => howToStop(host, id), vscode.l10n.t('Stopping')),
    ),
    vscode.commands.registerCommand(
      'mcpHost.restartServer',
      withServer((id) => () => host.restart(id), vscode.l10n.t('Restarting')),
    ),
    vscode.commands.registerCommand(
      'mcpHost.showOutput',
      withServer((id) => () => logs.show(id), vscode.l10n.t('Showing output of')),
    ),
    vscode.commands.registerCommand('mcpHost.openSettings', (target: Target) =>
      openSettings(typeof target === 'object' ? target?.server : undefined),
    ),
    vscode.commands.registerCommand('mcpHost.refresh', () =>
      vscode.window.withProgress(
        { location: { viewId: 'mcpHost.servers' }, title: vscode.l10n.t('Refreshing MCP servers…') },
        () => refresh(),
      ),
    ),
  ];
}

/** What a command does to the server it names, once asked what it needs to ask; undefined when the user cancelled. */
type ServerAction = (id: string) => Promise<Work | undefined> | Work | undefined;
type Work = () => Promise<unknown> | void;

/**
 * How to stop a server: one whose process other windows share asks whether to stop it for them too
 * (else it stops only here: the others keep it, or take it over when this window ran it).
 */
async function howToStop(host: UsedHost, id: string): Promise<Work | undefined> {
  const share = host.server(id)?.share;
  if (!share || share.role === 'alone' || share.otherWindows === 0) return () => host.stop(id);
  const all = vscode.l10n.t('Stop in All Windows');
  const here = vscode.l10n.t('Stop in This Window');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'MCP server "{0}" is shared with {1}. Stop it there too?',
      id,
      plural(share.otherWindows, 'other window'),
    ),
    {
      modal: true,
      detail:
        share.role === 'owner'
          ? vscode.l10n.t('This window runs its process. Stopped only here, another window takes it over.')
          : vscode.l10n.t('Another window runs its process. Stopped only here, it keeps running for the others.'),
    },
    here,
    all,
  );
  if (answer === all) return () => host.stopForAll(id);
  return answer === here ? () => host.stop(id) : undefined;
}

async function pickServer(host: UsedHost, verb: string): Promise<string | undefined> {
  const servers = host.servers();
  if (servers.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No MCP servers are configured. Add them under "mcpHost.servers" in settings.'),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    servers.map((s) => ({ label: s.id, description: s.status, detail: s.target })),
    { title: vscode.l10n.t('{0} which MCP server?', verb) },
  );
  return picked?.label;
}

function openSettings(server: ServerSnapshot | undefined): Thenable<unknown> {
  if (server?.origin) return vscode.window.showTextDocument(vscode.Uri.file(server.origin.path));
  if (server?.scope === 'user') return vscode.commands.executeCommand('workbench.action.openSettingsJson');
  if (server) return vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  return vscode.commands.executeCommand('workbench.action.openSettings', 'mcpHost.servers');
}
