import { existsSync } from 'node:fs';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { terminateGroup, terminateProcesses } from '../process/processTree';
import { describeExit, type ProcessExit } from './startFailure';
import { stdioInternals } from './stdioLibrarySeam';

/** How long a server may stay half-dead (output closed, or exited with its pipe still held) before the host ends it. */
export const LIVENESS_GRACE_MS = 1_000;

const SETSID = '/usr/bin/setsid';

/** What the host knows of a stdio server's process, kept after the transport forgets it. */
export interface ChildProcessRecord {
  pid?: number;
  /** The process leads its own process group (pgid = pid): ending the group ends its whole tree. */
  readonly ownGroup: boolean;
  /** The value of `RUN_MARKER_ENV` the process was started with: what it left running carries it too. */
  readonly runMarker?: string;
  /** How the process ended on its own; unset when it ended because the host closed it. */
  exit?: ProcessExit;
  /** Why the host ended a server that could no longer talk (set before it does). */
  ended?: string;
  /** Settles when the process exits, or at once if it never started. */
  readonly exited: Promise<void>;
}

/**
 * On Linux the server runs under `setsid`, which makes it the leader of a new process group
 * (it execs in place: same pid). Its children stay in that group after it crashes, so the host
 * can end them even once they are re-parented.
 */
export function inOwnProcessGroup(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[]; ownGroup: boolean } {
  if (platform === 'linux' && existsSync(SETSID)) return { command: SETSID, args: [command, ...args], ownGroup: true };
  return { command, args: [...args], ownGroup: false };
}

/**
 * Watches the transport's child from spawn to exit: its pid and exit code or signal (the
 * transport exposes neither once the process is gone; the child is its `_process`, reached once
 * here and proven by the unit tests), and whether it can still talk. A server that closes its
 * stdout but keeps running, or exits while a child of its own still holds the pipe, is ended
 * (its whole group) after {@link LIVENESS_GRACE_MS}, so the client sees the close and the
 * restart policy runs instead of every request waiting for its timeout.
 */
export function watchChildProcess(
  stdio: StdioClientTransport,
  ownGroup: boolean,
  ledger?: {
    add(pid: number): void;
    remove(pid: number): void;
    spawned?(pid: number): void;
    ended?(pid: number, how: string): void;
  },
  runMarker?: string,
): ChildProcessRecord {
  let exited!: () => void;
  const record: ChildProcessRecord = {
    ownGroup,
    runMarker,
    exited: new Promise<void>((resolve) => (exited = resolve)),
  };
  let closing = false;
  const close = stdio.close.bind(stdio);
  stdio.close = () => {
    closing = true;
    return close();
  };
  const end = (why: string) => {
    if (closing || record.ended || record.pid === undefined) return;
    record.ended = why;
    void (ownGroup ? terminateGroup(record.pid) : terminateProcesses([record.pid]));
  };
  const start = stdio.start.bind(stdio);
  stdio.start = async () => {
    const started = start();
    const child = stdioInternals(stdio)._process;
    record.pid = child?.pid;
    if (record.pid !== undefined) ledger?.spawned?.(record.pid);
    if (ownGroup && record.pid !== undefined) ledger?.add(record.pid);
    let pipeClosed = false;
    child?.once('close', () => (pipeClosed = true));
    child?.stdout?.once('end', () => {
      const timer = setTimeout(
        () =>
          child.exitCode === null &&
          child.signalCode === null &&
          end('it closed its output (stdout) but kept running; MCP Host ended it'),
        LIVENESS_GRACE_MS,
      );
      timer.unref();
    });
    child?.once('exit', (code, signal) => {
      if (record.pid !== undefined) ledger?.remove(record.pid);
      if (!closing && !record.ended) record.exit = { code, signal };
      if (record.pid !== undefined)
        ledger?.ended?.(
          record.pid,
          record.ended
            ? `ended by MCP Host: ${record.ended}`
            : closing
              ? 'stopped by MCP Host'
              : describeExit({ code, signal }).replace(/^the process /, ''),
        );
      exited();
      // Exited, yet the pipe stays open: a process it started holds it. End them too.
      const timer = setTimeout(
        () =>
          !pipeClosed &&
          end(`${record.exit ? 'it exited, ' : ''}but a process it started kept its output open; MCP Host ended it`),
        LIVENESS_GRACE_MS,
      );
      timer.unref();
    });
    child?.once('error', () => exited());
    await started;
  };
  return record;
}

/**
 * Ends a server's process (its whole group when it leads one) without the graceful wait of a
 * session's end: for a process that never answered its handshake, which has no session to end.
 */
export function terminateChild(record: ChildProcessRecord): Promise<void> {
  if (record.pid === undefined) return Promise.resolve();
  return record.ownGroup ? terminateGroup(record.pid) : terminateProcesses([record.pid]);
}
