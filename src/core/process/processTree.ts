import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';

/**
 * The variable every server process MCP Host starts carries, with a value of its own per start,
 * and passes on to whatever it starts: a daemon that left the server's tree and group (`setsid`
 * after a fork) still carries it, unless it cleared its environment.
 */
export const RUN_MARKER_ENV = 'MCPHOST_RUN';

/**
 * The processes (of any tree) whose environment carries `RUN_MARKER_ENV=marker`: Linux reads
 * `/proc/<pid>/environ`, which only the process's own user (or root) may read. Elsewhere none.
 */
export async function markedProcesses(marker: string, platform: NodeJS.Platform = process.platform): Promise<number[]> {
  if (platform !== 'linux') return [];
  const entry = `${RUN_MARKER_ENV}=${marker}`;
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter(
    (name) => /^\d+$/.test(name) && Number(name) !== process.pid,
  );
  const marked = await Promise.all(
    pids.map(async (pid) => {
      const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
      return environ.split('\0').includes(entry) ? Number(pid) : undefined;
    }),
  );
  return marked.filter((pid): pid is number => pid !== undefined);
}

/** Every descendant of a process (children, grandchildren…), so none survives its parent. */
export function listDescendants(rootPid: number, platform: NodeJS.Platform = process.platform): Promise<number[]> {
  if (platform === 'win32') return Promise.resolve([]); // taskkill /T walks the tree itself
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 5_000 }, (error, stdout) => {
      if (error) return resolve([]);
      const children = new Map<number, number[]>();
      for (const line of stdout.split('\n')) {
        const [pid, ppid] = line.trim().split(/\s+/).map(Number);
        if (!Number.isFinite(pid) || !Number.isFinite(ppid)) continue;
        const list = children.get(ppid) ?? [];
        list.push(pid);
        children.set(ppid, list);
      }
      const out: number[] = [];
      const queue = [rootPid];
      while (queue.length > 0) {
        for (const child of children.get(queue.shift()!) ?? []) {
          out.push(child);
          queue.push(child);
        }
      }
      resolve(out);
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A process that has ended but was not yet reaped (Linux state `Z`): re-parented children wait
 * for an init that may be slow to reap them (containers), yet nothing of them runs any more.
 */
function isZombie(pid: number): boolean {
  return process.platform === 'linux' && procStat(String(pid))?.state === 'Z';
}

/** State and process group from `/proc/<pid>/stat` (Linux), or undefined once the process is gone. */
function procStat(pid: string): { state: string; group: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], group: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL whatever is still alive after the grace period. */
export async function terminateProcesses(pids: readonly number[], graceMs = 1_000): Promise<void> {
  const alive = pids.filter(isAlive);
  if (alive.length === 0) return;
  if (process.platform === 'win32') {
    await Promise.all(
      alive.map(
        (pid) => new Promise((r) => execFile('taskkill', ['/T', '/F', '/PID', String(pid)], () => r(undefined))),
      ),
    );
    return;
  }
  for (const pid of alive) signal(pid, 'SIGTERM');
  await until(() => !alive.some(isAlive), graceMs);
  const left = alive.filter(isAlive);
  for (const pid of left) signal(pid, 'SIGKILL');
  await until(() => !left.some(isAlive), KILL_WAIT_MS);
}

/**
 * Ends a process group (its leader's pid is the group id): SIGTERM to every member, then
 * SIGKILL to what is left after the grace period. Members whose parent died are still members.
 */
export async function terminateGroup(pgid: number, graceMs = 1_000): Promise<void> {
  if (process.platform === 'win32' || !groupAlive(pgid)) return;
  signal(-pgid, 'SIGTERM');
  await until(() => !groupAlive(pgid), graceMs);
  if (!groupAlive(pgid)) return;
  signal(-pgid, 'SIGKILL');
  await until(() => !groupAlive(pgid), KILL_WAIT_MS);
}

/** How long a SIGKILLed process may take to be gone before the host moves on. */
const KILL_WAIT_MS = 1_000;

/** Polls `done` until it holds or `withinMs` passes; says whether it held. */
export async function until(done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** Whether a process group has a member that still runs (ended, unreaped members do not count). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return readdirSync('/proc').some((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      const stat = procStat(entry); // undefined: gone meanwhile
      return stat !== undefined && stat.group === pgid && stat.state !== 'Z';
    });
  } catch {
    return true;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
