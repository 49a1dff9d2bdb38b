import * as vscode from 'vscode';
import type { FieldProblem, JsonValue } from '../../shared/protocol/formModel';
import type { FormToHost, HostToForm, ToolFormInit } from '../../shared/protocol/toolForm';
import { openWebviewPanel } from './webviewPanel';

export type FormOutcome =
  | { readonly action: 'submit'; readonly values: { [key: string]: JsonValue } }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export interface FormPanelOptions {
  readonly viewType: string;
  readonly title: string;
  readonly init: ToolFormInit;
  /** The host's check, run as the user types and again on submit. */
  check(values: Record<string, unknown>): FieldProblem[];
  readonly background?: boolean;
  /** Closes the form (as cancel) when it aborts. */
  readonly signal?: AbortSignal;
}

/**
 * A form in a webview: resolves with values that passed `check`, a decline, or a cancel (Cancel,
 * Escape, closing the panel, or `signal`). The panel is gone when the promise settles.
 */
export function askInForm(
  extensionUri: vscode.Uri,
  options: FormPanelOptions,
): { readonly panel: vscode.WebviewPanel; readonly outcome: Promise<FormOutcome> } {
  const panel = openWebviewPanel(extensionUri, options.viewType, options.title, 'toolForm', {
    background: options.background,
  });
  const post = (message: HostToForm) => void panel.webview.postMessage(message);
  const outcome = new Promise<FormOutcome>((resolve) => {
    let settled = false;
    const finish = (value: FormOutcome) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      resolve(value);
      panel.dispose();
    };
    const onAbort = () => finish({ action: 'cancel' });
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    panel.onDidDispose(() => finish({ action: 'cancel' }));
    panel.webview.onDidReceiveMessage((message: FormToHost) => {
      switch (message.type) {
        case 'ready':
          post({ type: 'init', init: options.init });
          break;
        case 'validate':
          post({ type: 'problems', problems: options.check(message.values), submitted: false });
          break;
        case 'submit': {
          const problems = options.check(message.values);
          if (problems.length) post({ type: 'problems', problems, submitted: true });
          else finish({ action: 'submit', values: message.values });
          break;
        }
        case 'decline':
          finish({ action: 'decline' });
          break;
        case 'cancel':
          finish({ action: 'cancel' });
          break;
      }
    });
  });
  return { panel, outcome };
}
