import * as vscode from 'vscode';
import { applySamplingEdits, withAnswerText, type SamplingResult } from '../../core/sampling/samplingConversation';
import type {
  SamplingApprovalPort,
  SamplingDecision,
  SamplingReview,
  SamplingReviewRequest,
} from '../../core/sampling/samplingRouter';
import { samplingAnswerView, samplingRequestView } from '../../core/sampling/samplingView';
import type { SamplingHostToPanel, SamplingPanelToHost } from '../../shared/protocol/samplingPanel';
import type { PendingRequests } from '../ui/pendingRequests';
import { openWebviewPanel } from '../webviews/webviewPanel';

export interface SamplingPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly pending: PendingRequests;
  readonly modelLabel: (id: string) => string;
  /** Writes `sampling.mode: "allowAlways"` into the server's settings. */
  readonly allowAlways: (serverId: string) => Promise<void>;
}

/**
 * Each sampling request in a panel of its own: the user sees everything the server sends, may edit
 * the text and pick the model, approves or denies, watches the answer stream in, and reviews it.
 * A request that arrives while another waits opens in the background and is counted in the status
 * bar. Closing the panel denies (or discards the answer); when the server gives up, the panel says so.
 */
export class SamplingApprovalPanels implements SamplingApprovalPort {
  constructor(private readonly deps: SamplingPanelDeps) {}

  open(request: SamplingReviewRequest, signal: AbortSignal): SamplingReview {
    const { deps } = this;
    const panel = openWebviewPanel(
      deps.extensionUri,
      'mcpHost.sampling',
      vscode.l10n.t('Sampling: {0}', request.serverId),
      'sampling',
      { background: deps.pending.size > 0, speaksToUser: true },
    );
    // A request the policy already allowed waits for nobody until its answer is ready for review.
    const waiting = request.askFirst
      ? deps.pending.add(vscode.l10n.t('Sampling request from "{0}"', request.serverId), () => panel.reveal())
      : { dispose: () => undefined };
    const post = (message: SamplingHostToPanel) => void panel.webview.postMessage(message);
    const models = new Map(request.models.map((m) => [m.id, m]));
    let decided: (decision: SamplingDecision) => void = () => undefined;
    let reviewed: (result: SamplingResult | undefined) => void = () => undefined;
    const decision = new Promise<SamplingDecision>((resolve) => (decided = resolve));
    let answer: SamplingResult | undefined;
    let sentLength = 0;
    let closed = false;
    const userCancel = new AbortController();

    const openedAt = Date.now();
    // The server gave up (its own deadline, then notifications/cancelled): the panel stays and says
    // so, rather than vanishing under the user's hands; nothing more can be sent.
    let withdrawn = false;
    const onAbort = () => {
      if (closed || withdrawn) return;
      withdrawn = true;
      waiting.dispose();
      decided({ approved: false });
      reviewed(undefined);
      userCancel.abort();
      panel.title = vscode.l10n.t('Withdrawn: {0}', request.serverId);
      post({
        type: 'failed',
        message: vscode.l10n.t(
          'MCP server "{0}" stopped waiting after {1} s and withdrew its request: nothing was sent to a model or back to the server. You can close this panel.',
          request.serverId,
          Math.round((Date.now() - openedAt) / 1000),
        ),
      });
    };
    if (signal.aborted) queueMicrotask(onAbort);
    else signal.addEventListener('abort', onAbort, { once: true });
    panel.onDidDispose(() => {
      closed = true;
      signal.removeEventListener('abort', onAbort);
      waiting.dispose();
      decided({ approved: false });
      reviewed(undefined);
      userCancel.abort();
    });
    panel.webview.onDidReceiveMessage(async (message: SamplingPanelToHost) => {
      switch (message.type) {
        case 'ready':
          post({ type: 'init', view: samplingRequestView(request, deps.modelLabel) });
          break;
        case 'approve': {
          const model = models.get(message.modelId) ?? request.choice.model;
          if (message.alwaysAllow) {
            try {
              await deps.allowAlways(request.serverId);
            } catch (error) {
              void vscode.window.showErrorMessage(
                vscode.l10n.t(
                  'Could not save "always allow" for MCP server "{0}": {1}',
                  request.serverId,
                  (error as Error).message,
                ),
              );
            }
          }
          waiting.dispose();
          post({ type: 'running', model: deps.modelLabel(model.id) });
          decided({
            approved: true,
            model,
            params: applySamplingEdits(request.params, { systemPrompt: message.systemPrompt, texts: message.texts }),
          });
          break;
        }
        case 'send':
          if (answer) reviewed(message.text === undefined ? answer : withAnswerText(answer, message.text));
          break;
        case 'deny':
        case 'cancel':
        case 'discard':
          panel.dispose();
          break;
      }
    });
    return {
      userCancel: userCancel.signal,
      decide: () => decision,
      streaming: (text) => {
        post({ type: 'streaming', append: text.slice(sentLength) });
        sentLength = text.length;
      },
      reviewAnswer: (result, dropped) => {
        if (closed) return Promise.resolve(undefined);
        answer = result;
        const promise = new Promise<SamplingResult | undefined>((resolve) => (reviewed = resolve));
        post({ type: 'answer', answer: samplingAnswerView(result, dropped) });
        panel.title = vscode.l10n.t('Review answer: {0}', request.serverId);
        const reviewWaiting = deps.pending.add(vscode.l10n.t('Answer for "{0}" to review', request.serverId), () =>
          panel.reveal(),
        );
        return promise.finally(() => reviewWaiting.dispose());
      },
      close: (failure) => {
        if (closed) return;
        if (signal.aborted) return onAbort(); // the router closes what the server gave up on: it stays, saying so
        if (failure) {
          // Keep the panel so the user can read what went wrong; the server has its error already.
          waiting.dispose();
          post({ type: 'failed', message: failure });
        } else panel.dispose();
      },
    };
  }
}
