import * as vscode from 'vscode';
import { withCancellableProgress } from './cancellation';
import type { McpHost } from '../core/host/mcpHost';

/** Opens a server's resource read-only for reading: text in an editor, binary content described. */
export async function openResourceDocument(host: McpHost, serverId: string, uri: string): Promise<void> {
  const result = await withCancellableProgress(vscode.l10n.t('Reading {0} from {1}', uri, serverId), (signal) => host.readResource(serverId, uri, signal));
  const texts = result.contents.flatMap((c) => ('text' in c && typeof c.text === 'string' ? [c.text] : []));
  const binaries = result.contents.length - texts.length;
  if (texts.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is binary ({1} part(s)); it cannot be shown as text.', uri, binaries));
    return;
  }
  const document = await vscode.workspace.openTextDocument({ content: texts.join('\n\n') });
  await vscode.window.showTextDocument(document, { preview: true });
}
