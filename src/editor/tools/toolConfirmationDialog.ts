import * as vscode from 'vscode';
import type {
  ConfirmationAnswer,
  ToolConfirmationPort,
  ToolConfirmationRequest,
} from '../../core/tools/toolConfirmation';
import { annotationBadges, toolLabel } from './toolLabels';
import { untilAborted } from '../../core/abortWith';

/**
 * Confirms a tool call in a modal dialog that shows the server, the tool, the exact arguments, the
 * server's (untrusted) hints, and what changed since an earlier approval.
 */
export class ToolConfirmationDialog implements ToolConfirmationPort {
  async confirm(request: ToolConfirmationRequest, signal: AbortSignal): Promise<ConfirmationAnswer> {
    const { tool, serverId } = request;
    const badges = annotationBadges(tool);
    const lines = [
      request.origin === 'model'
        ? vscode.l10n.t('A chat model wants to run this tool.')
        : request.origin === 'app'
          ? vscode.l10n.t('The app of this server wants to run this tool.')
          : vscode.l10n.t('Run this tool with these arguments?'),
      '',
      vscode.l10n.t('Arguments: {0}', JSON.stringify(request.args, null, 2)),
    ];
    if (tool.description) lines.push('', vscode.l10n.t('Description: {0}', tool.description));
    if (badges.length)
      lines.push('', vscode.l10n.t('The server describes it as: {0} (its claim, not verified).', badges.join(', ')));
    if (tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true)
      lines.push(
        vscode.l10n.t(
          'Tools a server marks read-only run without asking once you set "trusted": true on "{0}" in settings.',
          serverId,
        ),
      );
    const renamed = request.changes.find((change) => change.field === 'name');
    if (renamed)
      lines.push(
        '',
        vscode.l10n.t('The server renamed this tool: it was "{0}". Check it as a new tool.', renamed.before),
      );
    const changed = request.changes.filter((change) => change.field !== 'name');
    if (changed.length) {
      lines.push('', vscode.l10n.t('This tool changed since you allowed it:'));
      for (const change of changed)
        lines.push(
          vscode.l10n.t('• {0} was: {1}', change.field, change.before),
          vscode.l10n.t('  now: {0}', change.after),
        );
    }
    const choices: { title: string; answer: ConfirmationAnswer; isCloseAffordance?: boolean }[] = [
      { title: vscode.l10n.t('Run Once'), answer: 'once' },
      { title: vscode.l10n.t('Allow in This Session'), answer: 'session' },
      { title: vscode.l10n.t('Allow in This Workspace'), answer: 'workspace' },
      { title: vscode.l10n.t('Always Allow, in Every Workspace'), answer: 'always' },
      { title: vscode.l10n.t('Deny'), answer: 'deny', isCloseAffordance: true },
    ];
    const shown = vscode.window.showWarningMessage(
      vscode.l10n.t('MCP server "{0}": run tool "{1}"?', serverId, toolLabel(tool)),
      { modal: true, detail: lines.join('\n') },
      ...choices,
    );
    // A cancelled request (the chat was stopped) no longer waits for the dialog.
    const picked = await untilAborted(Promise.resolve(shown), signal).catch(() => undefined);
    return picked?.answer ?? 'deny';
  }
}
