import type { ServerSnapshot } from '../connection/serverSnapshot';
import type { Event } from '../events';
import { formatDuration } from '../../shared/formatDuration';

export interface ServersSource {
  server(id: string): ServerSnapshot | undefined;
  readonly onDidChangeServers: Event<unknown>;
  /** Settles once settings have been applied at least once (before that no server is known). */
  readonly settingsApplied: Promise<void>;
}

/** Still on its way to running by itself (or waiting for the user's consent, which is being asked). */
function onItsWay(server: ServerSnapshot): boolean {
  return server.status === 'starting' || server.status === 'restarting' || server.held === 'consent';
}

/**
 * Resolves once the server runs. Fails at once, saying why and what to do, when it will not run
 * by itself (stopped, error, invalid, disabled, untrusted, not in settings), and after
 * `timeoutMs` when it takes too long. A window reload restores editors before servers start:
 * they wait here instead of failing.
 */
export function whenServerRunning(
  source: ServersSource,
  id: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let done = false;
    let applied = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.dispose();
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      if (!applied) return;
      const server = source.server(id);
      if (!server) return finish(new Error(`There is no MCP server "${id}" in settings.`));
      if (server.status === 'running') return finish();
      if (!onItsWay(server)) {
        finish(
          new Error(
            `MCP server "${id}" is not running (${server.status}${server.reason ? `: ${server.reason}` : ''}). Start it in the MCP Servers view, then try again.`,
          ),
        );
      }
    };
    const onAbort = () => finish(new Error(`Waiting for MCP server "${id}" was cancelled.`));
    const timer = setTimeout(() => {
      const server = source.server(id);
      finish(
        new Error(
          `MCP server "${id}" did not start within ${formatDuration(timeoutMs)} (${server ? server.status : 'not in settings yet'}). See its output, then try again.`,
        ),
      );
    }, timeoutMs);
    const subscription = source.onDidChangeServers(check);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    void source.settingsApplied.then(() => {
      applied = true;
      check();
    });
  });
}
