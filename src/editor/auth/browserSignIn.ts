import * as vscode from 'vscode';
import type { AuthorizationBrowser } from '../../core/auth/signIn';
import { listenForRedirect } from './loopbackRedirect';

/**
 * The browser step of a sign-in in the editor: listen on the loopback redirect first, then open
 * the authorization page in the user's browser, and wait (the caller shows progress with Cancel).
 */
export class EditorAuthorizationBrowser implements AuthorizationBrowser {
  /** Browser sign-ins one at a time: they may share the loopback port, and the user's attention. */
  private queue: Promise<unknown> = Promise.resolve();

  authorize(
    request: { readonly serverId: string; readonly url: URL; readonly redirectUrl: string },
    signal: AbortSignal,
  ): Promise<URLSearchParams> {
    const turn = this.queue.then(() => this.authorizeNow(request, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async authorizeNow(
    request: { readonly serverId: string; readonly url: URL; readonly redirectUrl: string },
    signal: AbortSignal,
  ): Promise<URLSearchParams> {
    if (signal.aborted) throw new Error(vscode.l10n.t('sign-in was cancelled'));
    const answer = listenForRedirect(request.redirectUrl, signal);
    // A listener that cannot start fails before any browser opens.
    const early = await Promise.race([
      answer.then(
        () => undefined,
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(resolve, 50, 'listening')),
    ]);
    if (early instanceof Error) throw early;
    const opened = await vscode.env.openExternal(vscode.Uri.parse(request.url.toString(), true));
    if (!opened) throw new Error(vscode.l10n.t('the browser did not open the sign-in page'));
    return answer;
  }
}
