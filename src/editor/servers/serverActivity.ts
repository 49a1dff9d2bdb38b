import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { SpawnRecord } from '../../core/process/spawnRecord';

/** **MCP Host: Show Server Activity**: the record of every server process MCP Host started. */
export function registerServerActivity(record: SpawnRecord): vscode.Disposable {
  return vscode.commands.registerCommand('mcpHost.showServerActivity', async () => {
    await record.flushed();
    if (!existsSync(record.path)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('MCP Host has not started a server process yet.'));
      return;
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(record.path));
    await vscode.window.showTextDocument(document, { preview: true });
  });
}
