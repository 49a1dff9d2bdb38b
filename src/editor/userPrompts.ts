import * as vscode from 'vscode';
import type { StartConsentRequest, UserPrompts } from '../core/host/ports';

/** Modal consent for workspace servers, and settings errors as notifications with a way to fix them. */
export class EditorUserPrompts implements UserPrompts {
  async confirmWorkspaceServers(requests: readonly StartConsentRequest[]): Promise<ReadonlySet<string>> {
    const changed = requests.some((r) => r.changed);
    const message =
      requests.length === 1
        ? vscode.l10n.t(
            changed ? 'The definition of MCP server "{0}" in workspace settings changed. Allow it to run?' : 'Allow MCP server "{0}" from workspace settings to run?',
            requests[0].serverId,
          )
        : vscode.l10n.t('Allow {0} MCP servers from workspace settings to run?', requests.length);
    const detail = [
      vscode.l10n.t('Workspace settings come from the repository: only allow servers you trust. Each runs exactly:'),
      '',
      ...requests.map((r) => `${r.serverId}${r.folderName ? ` (${r.folderName})` : ''}${r.changed ? ` — ${vscode.l10n.t('changed')}` : ''}:\n  ${r.target}`),
    ].join('\n');
    const allow = vscode.l10n.t('Allow');
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, allow);
    return new Set(answer === allow ? requests.map((r) => r.serverId) : []);
  }

  showConfigError(message: string): void {
    const open = vscode.l10n.t('Open Settings');
    void vscode.window.showErrorMessage(message, open).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('mcpHost.openSettings');
    });
  }
}
