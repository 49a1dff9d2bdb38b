import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { groupAlive, terminateGroup } from './processTree';
import { SpawnRecord, type SpawnEnd, type SpawnEntry } from './spawnRecord';

/** One stdio server process a window started: it leads its own process group (Linux, `setsid`). */
interface LedgerEntry {
  readonly pid: number;
  /** Its start time (clock ticks since boot, /proc/PID/stat field 22): tells it from a reused pid. */
  readonly started: string;
  readonly serverId: string;
}

interface LedgerFile {
  /** The window's extension host, and its start time. */
  readonly owner: { readonly pid: number; readonly started: string };
  readonly processes: readonly LedgerEntry[];
}

const PREFIX = 'server-processes-';

/** A process's start time from /proc, or undefined where there is no /proc or no such process. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The process group of a pid (/proc/PID/stat field 5), if it is still running. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

/**
 * Which server processes this window started, in a file of its own, so that the next window can
 * end what a crashed one left running (servers that ignore the end of their input and live on in
 * their own process group). Linux only: elsewhere there is no /proc and no own process group.
 */
export class ProcessLedger {
  private readonly file: string;
  private readonly entries = new Map<number, LedgerEntry>();
  private writing: Promise<void> = Promise.resolve();
  /**
   * A write is queued and has not begun: changes until it begins ride on it (20 servers starting
   * at once write the file once or twice, not 20 times).
   */
  private queued = false;

  /** Every server process started, kept beside the ledger (what ran, never a secret). */
  readonly spawns: SpawnRecord;

  constructor(
    private readonly dir: string,
    private readonly owner: { readonly pid: number; readonly started: string } | undefined = ownerOf(process.pid),
  ) {
    this.file = path.join(dir, `${PREFIX}${owner?.pid ?? 'none'}.json`);
    this.spawns = new SpawnRecord(dir);
  }

  /** A server process started (every one, on every platform): into the record of spawns. */
  spawned(entry: SpawnEntry): void {
    this.spawns.add(entry);
  }

  /** A server process ended, and how: into the record of spawns. */
  ended(end: SpawnEnd): void {
    this.spawns.ended(end);
  }

  add(pid: number, serverId: string): void {
    const started = startTimeOf(pid);
    if (!this.owner || started === undefined) return;
    this.entries.set(pid, { pid, started, serverId });
    this.save();
  }

  remove(pid: number): void {
    if (this.entries.delete(pid)) this.save();
  }

  /** Settles once what was recorded so far is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  /**
   * Ends the process groups recorded by windows whose extension host is gone (crashed, killed),
   * and forgets their files. Returns what it ended, for the host's log.
   */
  async endLeftovers(): Promise<{ serverId: string; pid: number }[]> {
    const ended: { serverId: string; pid: number }[] = [];
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((n) => n.startsWith(PREFIX) && n.endsWith('.json'));
    } catch {
      return ended;
    }
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (file === this.file) continue;
      let ledger: LedgerFile;
      try {
        ledger = JSON.parse(await fs.readFile(file, 'utf8')) as LedgerFile;
      } catch {
        await fs.rm(file, { force: true });
        continue;
      }
      if (startTimeOf(ledger.owner.pid) === ledger.owner.started) continue; // that window still runs
      for (const entry of ledger.processes ?? []) {
        if (!leftover(entry)) continue;
        await terminateGroup(entry.pid);
        ended.push({ serverId: entry.serverId, pid: entry.pid });
      }
      await fs.rm(file, { force: true });
    }
    return ended;
  }

  private save(): void {
    if (this.queued) return;
    this.queued = true;
    this.writing = this.writing.then(async () => {
      this.queued = false;
      // What is recorded when the write begins; a change after this queues the next write.
      const content: LedgerFile = { owner: this.owner!, processes: [...this.entries.values()] };
      try {
        await fs.mkdir(this.dir, { recursive: true });
        if (content.processes.length === 0) await fs.rm(this.file, { force: true });
        else await fs.writeFile(this.file, JSON.stringify(content));
      } catch {
        // Best effort: a ledger that cannot be written only loses the cleanup after a crash.
      }
    });
  }
}

function ownerOf(pid: number): { pid: number; started: string } | undefined {
  const started = startTimeOf(pid);
  return started === undefined ? undefined : { pid, started };
}

/**
 * Whether a recorded group still has members of ours: its leader, recognised by its start time,
 * or, the leader gone, any member (Linux gives no new process a pid that is still some group's
 * id, so that group can only be the one we recorded).
 */
function leftover(entry: LedgerEntry): boolean {
  const leaderStarted = startTimeOf(entry.pid);
  if (leaderStarted !== undefined) return leaderStarted === entry.started && groupOf(entry.pid) === entry.pid;
  return groupAlive(entry.pid);
}
