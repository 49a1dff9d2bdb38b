import * as vscode from 'vscode';
import type { ToolInvocation } from '../../core/tools/toolInvoker';
import { resultItems, resultText } from '../../core/tools/toolResults';
import type { ResultPanelToHost, ToolResultView } from '../../shared/protocol/toolResultView';
import { openWebviewPanel, speakingPanelColumn } from '../webviews/webviewPanel';
import { toolLabel } from './toolLabels';

/** Opens a resource a result links to; supplied by whoever can read resources. */
export type ResourceOpener = (serverId: string, uri: string) => Promise<void>;

/** Shows one tool call's outcome: content, errors, duration, with Copy and resource links. */
/** The open result panel of each tool (`server\0tool`): a tool's next result replaces its last, tabs do not pile up. */
const openPanels = new Map<string, { readonly panel: vscode.WebviewPanel; invocation: ToolInvocation }>();

export function showToolResult(
  extensionUri: vscode.Uri,
  invocation: ToolInvocation,
  openResource: ResourceOpener,
): vscode.WebviewPanel {
  const key = `${invocation.serverId}\u0000${invocation.tool.name}`;
  // A panel the user is reading (a sampling request, or the note that its server withdrew it)
  // stays in front: the result opens beside it, without taking the focus.
  const reading = speakingPanelColumn();
  const open = openPanels.get(key);
  if (open) {
    open.invocation = invocation;
    void open.panel.webview.postMessage({ type: 'show', view: resultView(invocation) });
    if (reading === undefined) open.panel.reveal(undefined, false);
    else if (open.panel.viewColumn !== reading) open.panel.reveal(undefined, true);
    return open.panel;
  }
  const panel = openWebviewPanel(
    extensionUri,
    'mcpHost.toolResult',
    vscode.l10n.t('Result: {0}', toolLabel(invocation.tool)),
    'toolResult',
    reading === undefined ? {} : { beside: true, background: true },
  );
  const shown = { panel, invocation };
  openPanels.set(key, shown);
  panel.onDidDispose(() => openPanels.get(key) === shown && openPanels.delete(key));
  panel.webview.onDidReceiveMessage(async (message: ResultPanelToHost) => {
    const { invocation } = shown;
    const view = resultView(invocation);
    switch (message.type) {
      case 'ready':
        void panel.webview.postMessage({ type: 'show', view });
        break;
      case 'copy':
        await vscode.env.clipboard.writeText(
          invocation.result ? resultText(invocation.result) : (invocation.error ?? ''),
        );
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the result of {0}.', view.toolLabel), 3000);
        break;
      case 'openResource':
        try {
          await openResource(invocation.serverId, message.uri);
        } catch (error) {
          void vscode.window.showErrorMessage((error as Error).message);
        }
        break;
    }
  });
  return panel;
}

export function resultView(invocation: ToolInvocation): ToolResultView {
  return {
    serverId: invocation.serverId,
    toolLabel: toolLabel(invocation.tool),
    arguments: JSON.stringify(invocation.args, null, 2),
    outcome: invocation.outcome === 'denied' ? 'protocolError' : invocation.outcome,
    durationMs: invocation.durationMs,
    error: invocation.error,
    items: invocation.result ? resultItems(invocation.result) : [],
  };
}
