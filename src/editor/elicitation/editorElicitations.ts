import type { ElicitResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ElicitationPort, FormElicitation, UrlElicitation } from '../../core/elicitation/elicitationRouter';
import type { PendingRequests } from '../ui/pendingRequests';
import { askInForm } from '../webviews/formPanel';

/**
 * Elicitation in the editor: forms in a webview (Submit / Decline; Cancel, Escape or closing is
 * cancel), consent to open a URL in a modal that shows the whole URL and its host, and a
 * notification with Retry and Cancel while the user finishes in the browser.
 */
export class EditorElicitations implements ElicitationPort {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly pending: PendingRequests,
  ) {}

  async askForm(request: FormElicitation, signal: AbortSignal): Promise<ElicitResult> {
    const { panel, outcome } = askInForm(this.extensionUri, {
      viewType: 'mcpHost.elicitation',
      title: vscode.l10n.t('Input for {0}', request.serverId),
      init: {
        title: vscode.l10n.t('MCP server "{0}" asks for input', request.serverId),
        serverId: request.serverId,
        // Shown as text: links in a server's message are never clickable.
        description: request.message,
        badges: [],
        form: request.form,
        submitLabel: vscode.l10n.t('Submit'),
        declineLabel: vscode.l10n.t('Decline'),
      },
      check: request.validate,
      background: this.pending.size > 0,
      signal,
    });
    const waiting = this.pending.add(vscode.l10n.t('Input requested by "{0}"', request.serverId), () => panel.reveal());
    try {
      const answer = await outcome;
      return answer.action === 'submit'
        ? { action: 'accept', content: answer.values as ElicitResult['content'] }
        : { action: answer.action };
    } finally {
      waiting.dispose();
    }
  }

  async askUrl(request: UrlElicitation, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'> {
    const { inspection } = request;
    const open = vscode.l10n.t('Open in Browser');
    const decline = vscode.l10n.t('Decline');
    const detail = [
      request.message,
      '',
      vscode.l10n.t(
        'HOST: {0}',
        inspection.unicodeHost ? `${inspection.unicodeHost}  (${inspection.host})` : inspection.host,
      ),
      vscode.l10n.t('Full URL: {0}', inspection.url),
      ...inspection.warnings.map((w) => `⚠ ${w}`),
      '',
      vscode.l10n.t('The page opens in your browser, outside the editor; MCP Host does not load or read it.'),
    ].join('\n');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('MCP server "{0}" asks you to open a web page', request.serverId),
      { modal: true, detail },
      open,
      decline,
    );
    if (signal.aborted) return 'cancel';
    if (choice === decline) return 'decline';
    if (choice !== open) return 'cancel';
    await vscode.env.openExternal(vscode.Uri.parse(inspection.url, true));
    return 'accept';
  }

  async awaitBrowser(serverId: string, pending: number, signal: AbortSignal): Promise<'retry' | 'cancel'> {
    const retry = vscode.l10n.t('Retry');
    const cancel = vscode.l10n.t('Cancel');
    const message =
      pending === 1
        ? vscode.l10n.t(
            'Finish in your browser what MCP server "{0}" asked for. The call is retried when the server says it is done, or when you press Retry.',
            serverId,
          )
        : vscode.l10n.t(
            'Finish the {0} pages MCP server "{1}" opened in your browser. The call is retried when the server says they are done, or when you press Retry.',
            pending,
            serverId,
          );
    return new Promise((resolve) => {
      let settled = false;
      const finish = (answer: 'retry' | 'cancel') => {
        if (settled) return;
        settled = true;
        waiting.dispose();
        resolve(answer);
      };
      // Dismissing the notice is not an answer: it stays listed as waiting and can be shown again.
      const ask = () =>
        void vscode.window.showInformationMessage(message, retry, cancel).then((choice) => {
          if (choice === retry) finish('retry');
          else if (choice === cancel) finish('cancel');
        });
      const waiting = this.pending.add(vscode.l10n.t('"{0}" waits for you to finish in the browser', serverId), ask);
      if (signal.aborted) return finish('retry');
      signal.addEventListener('abort', () => finish('retry'), { once: true });
      ask();
    });
  }
}
