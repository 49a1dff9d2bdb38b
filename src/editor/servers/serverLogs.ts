import * as vscode from 'vscode';
import type { HostLogLevel, ServerLog } from '../../core/connection/serverLog';

const LEVELS: Record<number, HostLogLevel> = {
  [vscode.LogLevel.Off]: 'off',
  [vscode.LogLevel.Trace]: 'trace',
  [vscode.LogLevel.Debug]: 'debug',
  [vscode.LogLevel.Info]: 'info',
  [vscode.LogLevel.Warning]: 'warning',
  [vscode.LogLevel.Error]: 'error',
};

/** A ServerLog on a LogOutputChannel: the channel's level (set by the user) drives the server's. */
export class ChannelServerLog implements ServerLog {
  constructor(readonly channel: vscode.LogOutputChannel) {}
  get level(): HostLogLevel {
    return LEVELS[this.channel.logLevel] ?? 'info';
  }
  onDidChangeLevel(listener: (level: HostLogLevel) => void): vscode.Disposable {
    return this.channel.onDidChangeLogLevel((level) => listener(LEVELS[level] ?? 'info'));
  }
  trace(message: string): void {
    this.channel.trace(message);
  }
  debug(message: string): void {
    this.channel.debug(message);
  }
  info(message: string): void {
    this.channel.info(message);
  }
  warn(message: string): void {
    this.channel.warn(message);
  }
  error(message: string): void {
    this.channel.error(message);
  }
}

/** One channel per server, made on first use and kept for the window (logs survive restarts). */
export class ServerLogChannels implements vscode.Disposable {
  private readonly logs = new Map<string, ChannelServerLog>();
  readonly hostLog = new ChannelServerLog(vscode.window.createOutputChannel('MCP Host', { log: true }));

  logFor(serverId: string): ChannelServerLog {
    let log = this.logs.get(serverId);
    if (!log) {
      log = new ChannelServerLog(vscode.window.createOutputChannel(`MCP: ${serverId}`, { log: true }));
      this.logs.set(serverId, log);
    }
    return log;
  }

  show(serverId: string): void {
    this.logFor(serverId).channel.show(true);
  }

  dispose(): void {
    for (const log of this.logs.values()) log.channel.dispose();
    this.hostLog.channel.dispose();
  }
}
