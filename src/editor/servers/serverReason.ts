import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';

/**
 * Why a server is as it is, in the user's language. What holds it back is data in the core
 * (`held`) and said here; other reasons (a failure, a restart's countdown) are the core's.
 */
export function reasonOf(server: ServerSnapshot): string | undefined {
  switch (server.held) {
    case 'disabled':
      return vscode.l10n.t('disabled in settings ("enabled": false)');
    case 'trust':
      return vscode.l10n.t('defined in workspace settings; trust the workspace to start it');
    case 'consent':
      return vscode.l10n.t('waiting for your consent to run this workspace server');
    case 'consentWhenNeeded':
      return vscode.l10n.t('starts when needed, after your consent to run this workspace server');
    case 'declined':
      return vscode.l10n.t('not started: you did not allow this workspace server to run. Start it to be asked again.');
    case 'input':
      return vscode.l10n.t('{0}. Start it to be asked for the value again.', server.reason ?? '');
    default:
      return server.reason;
  }
}
