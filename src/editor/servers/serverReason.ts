import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';

/**
 * A server's state in a few words: the same in its row, its tooltip's heading, the status bar's
 * list and what screen readers say. What holds a server back comes before its status; a server
 * that waits for its first use is not "stopped" to the user.
 */
export function stateOf(server: ServerSnapshot): string {
  switch (server.held) {
    case 'policy':
      return vscode.l10n.t('blocked by policy');
    case 'declined':
      return vscode.l10n.t('not allowed to run');
    case 'consent':
      return vscode.l10n.t('waiting for your consent');
    case 'consentWhenNeeded':
      return vscode.l10n.t('starts when needed, after your consent');
    case 'disabled':
      return vscode.l10n.t('disabled');
  }
  if (server.status === 'needs-sign-in') return vscode.l10n.t('needs sign-in');
  if (server.waitingForTurn) return vscode.l10n.t('waiting to start');
  if (server.startsWhenNeeded) return vscode.l10n.t('starts when needed');
  if (server.learning && (server.status === 'starting' || server.status === 'running'))
    return vscode.l10n.t('learning its tools');
  return server.status;
}

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
