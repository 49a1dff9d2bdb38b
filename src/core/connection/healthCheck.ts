import type { Client } from '@modelcontextprotocol/client';
import type { Disposable } from '../events';

/** The `healthCheck` settings of a server: a `ping` every `intervalSeconds`, answered within `timeoutSeconds`. */
export interface HealthCheckSettings {
  readonly intervalSeconds: number;
  readonly timeoutSeconds?: number;
}

export const DEFAULT_HEALTH_TIMEOUT_SECONDS = 10;

/**
 * Pings a running server on a timer, one ping at a time, for servers that hang while alive (their
 * process runs, their pipe is open, nothing answers). A ping not answered in time calls `onHung`
 * once, with why; the caller ends the server and its restart policy takes over. Only a timeout
 * counts: a server that answers `ping` with an error is alive.
 */
export function startHealthCheck(
  settings: HealthCheckSettings,
  client: Client,
  onHung: (why: string) => void,
): Disposable {
  const timeoutSeconds = settings.timeoutSeconds ?? DEFAULT_HEALTH_TIMEOUT_SECONDS;
  let stopped = false;
  let pinging = false;
  const timer = setInterval(() => {
    if (pinging || stopped) return;
    pinging = true;
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), timeoutSeconds * 1000);
    client
      .ping({ signal: abort.signal, timeout: timeoutSeconds * 1000 })
      .then(
        () => undefined,
        () => {
          if (!stopped && abort.signal.aborted) {
            stopped = true;
            onHung(`it did not answer a health-check ping within ${timeoutSeconds} s; MCP Host ended it`);
          }
        },
      )
      .finally(() => {
        clearTimeout(deadline);
        pinging = false;
      });
  }, settings.intervalSeconds * 1000);
  timer.unref();
  return {
    dispose: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
