import { DEFAULT_LIMITS, limitsOf, type ServerDefinition } from '../config/serverDefinition';
import { WrappingServerLog, type LogMethod, type ServerLog } from './serverLog';

export interface LogBounds {
  /** Longer lines are cut, saying how much was left out. */
  readonly maxLineLength: number;
  /** Lines beyond this many in one second are dropped, then counted in one line. */
  readonly maxLinesPerSecond: number;
}

export const DEFAULT_LOG_BOUNDS: LogBounds = {
  maxLineLength: DEFAULT_LIMITS.logLineLength,
  maxLinesPerSecond: DEFAULT_LIMITS.logLinesPerSecond,
};

/** A server's log bounds from its `limits` settings. */
export function logBoundsOf(def: Pick<ServerDefinition, 'limits'>): LogBounds {
  const limits = limitsOf(def);
  return { maxLineLength: limits.logLineLength, maxLinesPerSecond: limits.logLinesPerSecond };
}

/**
 * A server's log with limits: what a server sends (stderr, `notifications/message`, traffic at
 * trace level) can be megabytes a line or thousands of lines a second, and the editor's output
 * channel must stay usable. Errors the host writes itself are never dropped.
 */
export class BoundedServerLog extends WrappingServerLog {
  private windowStart = 0;
  private linesInWindow = 0;
  private dropped = 0;

  constructor(
    inner: ServerLog,
    private readonly bounds: LogBounds = DEFAULT_LOG_BOUNDS,
    private readonly now: () => number = Date.now,
  ) {
    super(inner);
  }

  protected write(level: LogMethod, message: string): void {
    const time = this.now();
    if (time - this.windowStart >= 1_000) {
      this.reportDropped();
      this.windowStart = time;
      this.linesInWindow = 0;
    }
    if (level !== 'error' && this.linesInWindow >= this.bounds.maxLinesPerSecond) {
      // Said once the flood pauses, or with the next window's first line, whichever comes first.
      if (this.dropped++ === 0) setTimeout(() => this.reportDropped(), 1_000).unref();
      return;
    }
    this.linesInWindow++;
    this.inner[level](cut(message, this.bounds.maxLineLength));
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    this.inner.warn(`${this.dropped} log line(s) dropped: more than ${this.bounds.maxLinesPerSecond} in a second.`);
    this.dropped = 0;
  }
}

function cut(message: string, max: number): string {
  return message.length <= max ? message : `${message.slice(0, max)}… (${message.length - max} more characters)`;
}
