import * as vscode from 'vscode';
import type { SamplingRecord, SamplingRouter } from '../../core/sampling/samplingRouter';
import { formatDuration } from '../../shared/formatDuration';

const OUTCOME_ICONS: Record<SamplingRecord['outcome'], string> = {
  answered: '$(check)',
  rejected: '$(circle-slash)',
  refused: '$(error)',
  failed: '$(error)',
  cancelled: '$(close)',
};

/** "MCP: Show Sampling History": this window's recent sampling requests per server, newest first. */
export function registerSamplingHistoryCommand(router: SamplingRouter): vscode.Disposable {
  return vscode.commands.registerCommand('mcpHost.showSamplingHistory', async () => {
    const records = [...router.history()].reverse();
    if (records.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('No MCP server has asked for a completion in this window yet.'),
      );
      return;
    }
    const servers = [...new Set(records.map((r) => r.serverId))].sort();
    const items = servers.flatMap((serverId): vscode.QuickPickItem[] => [
      { label: serverId, kind: vscode.QuickPickItemKind.Separator },
      ...records
        .filter((r) => r.serverId === serverId)
        .map((r) => ({
          label: `${OUTCOME_ICONS[r.outcome]} ${r.outcome}${r.model ? ` · ${r.model}` : ''}`,
          description: `${new Date(r.at).toLocaleTimeString()} · ${formatDuration(r.durationMs)}`,
          detail: [r.summary && `“${r.summary}”`, r.detail].filter(Boolean).join(' — '),
        })),
    ]);
    await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('MCP sampling history'),
      matchOnDescription: true,
      matchOnDetail: true,
      placeHolder: vscode.l10n.t('Recent sampling requests, newest first'),
    });
  });
}
