import * as vscode from 'vscode';
import type { StartConsentRequest, ServerDialogs } from '../../core/host/ports';
import type { RunField, RunFieldChange } from '../../core/config/whatRunsSummary';

/** Modal consent for workspace servers, and settings errors as notifications with a way to fix them. */
export class EditorServerDialogs implements ServerDialogs {
  async confirmWorkspaceServers(requests: readonly StartConsentRequest[]): Promise<ReadonlySet<string>> {
    const changed = requests.some((r) => r.changed);
    const message =
      requests.length === 1
        ? vscode.l10n.t(
            changed
              ? 'The definition of MCP server "{0}" in workspace settings changed. Allow it to run?'
              : 'Allow MCP server "{0}" from workspace settings to run?',
            requests[0].serverId,
          )
        : vscode.l10n.t('Allow {0} MCP servers from workspace settings to run?', requests.length);
    const detail = [
      vscode.l10n.t('Workspace settings come from the repository: only allow servers you trust.'),
      ...requests.map(describeRequest),
    ].join('\n\n');
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

const FLAG = '⚠';

function describeRequest(request: StartConsentRequest): string {
  const name = `${request.serverId}${request.folderName ? ` (${request.folderName})` : ''}`;
  const lines: string[] = [];
  if (request.changed) {
    lines.push(
      request.changes.length > 0
        ? vscode.l10n.t('{0} — changed since you allowed it:', name)
        : vscode.l10n.t('{0} — changed since you allowed it (what you allowed then was not recorded).', name),
    );
    lines.push(...request.changes.map(describeChange));
    lines.push(vscode.l10n.t('It now runs exactly:'));
  } else {
    lines.push(vscode.l10n.t('{0} runs exactly:', name));
  }
  lines.push(`  ${request.target}`, ...request.fields.map(describeField));
  return lines.join('\n');
}

function describeField(field: RunField): string {
  return `  ${field.field}: ${field.shown}${field.warning ? `  ${FLAG} ${field.warning}` : ''}`;
}

function describeChange(change: RunFieldChange): string {
  const before = change.before ?? vscode.l10n.t('(not set)');
  const after = change.after ?? vscode.l10n.t('(not set)');
  return `  ${change.field}: ${before} → ${after}${change.warning ? `  ${FLAG} ${change.warning}` : ''}`;
}
