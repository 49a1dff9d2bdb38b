import { execFile } from 'node:child_process';

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
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM, then SIGKILL whatever is still alive after the grace period. */
export async function terminateProcesses(pids: readonly number[], graceMs = 1_000): Promise<void> {
  const alive = pids.filter(isAlive);
  if (alive.length === 0) return;
  if (process.platform === 'win32') {
    await Promise.all(alive.map((pid) => new Promise((r) => execFile('taskkill', ['/T', '/F', '/PID', String(pid)], () => r(undefined)))));
    return;
  }
  for (const pid of alive) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && alive.some(isAlive)) await new Promise((r) => setTimeout(r, 50));
  for (const pid of alive) if (isAlive(pid)) signal(pid, 'SIGKILL');
}

/**
 * Ends a process group (its leader's pid is the group id): SIGTERM to every member, then
 * SIGKILL to what is left after the grace period. Members whose parent died are still members.
 */
export async function terminateGroup(pgid: number, graceMs = 1_000): Promise<void> {
  if (process.platform === 'win32' || !isAlive(-pgid)) return;
  signal(-pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && isAlive(-pgid)) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(-pgid)) signal(-pgid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
