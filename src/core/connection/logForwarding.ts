import type { LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { shownText, type ResolvedSecret } from '../shownText';
import type { LogBounds } from './boundedLog';

/** A server's log line (`notifications/message`) on its way to MCP Host's other clients. */
export type ForwardedLogMessage = Pick<LoggingMessageNotificationParams, 'level' | 'logger'> & {
  /** The line's text: the server's data as text, its secrets as placeholders, cut at the server's line bound. */
  readonly data: string;
};

/** A log line and the server that sent it. */
export type ServerLogMessage = ForwardedLogMessage & { readonly serverId: string };

/**
 * Passes a server's log lines on (to the windows that share its process, to VS Code's agents) the
 * way its own log keeps them: each resolved secret as its placeholder, a line at most
 * `maxLineLength` characters, at most `maxLinesPerSecond` lines a second (the rest are dropped;
 * the server's own log counts them).
 */
export function forwardedLogMessages(
  forward: (message: ForwardedLogMessage) => void,
  bounds: LogBounds,
  secrets: readonly ResolvedSecret[],
  now: () => number = Date.now,
): (message: LoggingMessageNotificationParams) => void {
  let windowStart = 0;
  let lines = 0;
  return ({ level, logger, data }) => {
    const time = now();
    if (time - windowStart >= 1_000) {
      windowStart = time;
      lines = 0;
    }
    if (lines >= bounds.maxLinesPerSecond) return;
    lines++;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    forward({
      level,
      ...(logger ? { logger: shownText(logger, secrets, 200) } : {}),
      data: shownText(text ?? '', secrets, bounds.maxLineLength),
    });
  };
}
