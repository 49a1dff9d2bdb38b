import type { Client } from '@modelcontextprotocol/client';
/** Log levels as VS Code's LogOutputChannel orders them. */
export type HostLogLevel = 'off' | 'trace' | 'debug' | 'info' | 'warning' | 'error';

/** The per-server log the core writes to; the editor backs it with a LogOutputChannel. */
export interface ServerLog {
  readonly level: HostLogLevel;
  onDidChangeLevel(listener: (level: HostLogLevel) => void): { dispose(): void };
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** MCP logging levels (RFC 5424 names) for the channel's level. */
export function mcpLevelFor(level: HostLogLevel): 'debug' | 'info' | 'warning' | 'error' | 'emergency' {
  switch (level) {
    case 'trace':
    case 'debug':
      return 'debug';
    case 'info':
      return 'info';
    case 'warning':
      return 'warning';
    case 'error':
      return 'error';
    case 'off':
      return 'emergency';
  }
}

/** Writes an MCP `notifications/message` into the channel at the matching level. */
/**
 * Keeps a 2025-era server's `logging/setLevel` in step with its log channel's level, from now on
 * (2026-07-28 servers get the level in each request's `_meta`). Stops with the returned disposable.
 */
export function followLogLevel(client: Client, log: ServerLog, current: () => boolean): { dispose(): void } {
  const apply = async () => {
    if (!current() || client.getProtocolEra() !== 'legacy' || !client.getServerCapabilities()?.logging) return;
    try {
      await client.setLoggingLevel(mcpLevelFor(log.level));
    } catch (error) {
      log.warn(`logging/setLevel failed: ${(error as Error).message}`);
    }
  };
  void apply();
  return log.onDidChangeLevel(() => void apply());
}

export function logServerMessage(log: ServerLog, level: string, logger: string | undefined, data: unknown): void {
  const text = `${logger ? `[${logger}] ` : ''}${typeof data === 'string' ? data : JSON.stringify(data)}`;
  switch (level) {
    case 'debug':
      return log.debug(text);
    case 'info':
    case 'notice':
      return log.info(text);
    case 'warning':
      return log.warn(text);
    default:
      return log.error(text);
  }
}

/** The five writing methods of a log. */
export type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** A log whose writing methods all go through one `write(method, message)` (filters, wrappers, sinks). */
export abstract class WritingServerLog implements ServerLog {
  abstract readonly level: HostLogLevel;
  abstract onDidChangeLevel(listener: (level: HostLogLevel) => void): { dispose(): void };
  protected abstract write(method: LogMethod, message: string): void;
  trace(message: string): void {
    this.write('trace', message);
  }
  debug(message: string): void {
    this.write('debug', message);
  }
  info(message: string): void {
    this.write('info', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  error(message: string): void {
    this.write('error', message);
  }
}

/** A log that writes into another one (a filter, a limit): its level is the inner log's. */
export abstract class WrappingServerLog extends WritingServerLog {
  constructor(protected readonly inner: ServerLog) {
    super();
  }
  get level(): HostLogLevel {
    return this.inner.level;
  }
  onDidChangeLevel(listener: (level: HostLogLevel) => void): { dispose(): void } {
    return this.inner.onDidChangeLevel(listener);
  }
}

/** A log that drops everything, for probes and headless use. */
export const silentLog: ServerLog = {
  level: 'off',
  onDidChangeLevel: () => ({ dispose() {} }),
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
};
