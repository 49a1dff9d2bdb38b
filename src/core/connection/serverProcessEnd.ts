import { isAlive, listDescendants, markedProcesses, terminateGroup, terminateProcesses } from '../process/processTree';
import type { CreatedTransport } from './transportFactory';

/** How long a stopping server gets after its stdin closes before the host signals it. */
const STOP_GRACE_MS = 500;
/** How long a failed start waits for the child's exit and last stderr lines. */
const EXIT_WAIT_MS = 500;

/** A stdio server's processes, collected while the server lives (its children are re-parented after). */
export interface ServerProcessTree {
  readonly pid?: number;
  readonly descendants: readonly number[];
  /** The server leads its own process group: ending the group ends what left the tree too. */
  readonly ownGroup: boolean;
  /** The server's run marker: ending the processes that carry it ends what left the group too. */
  readonly runMarker?: string;
}

export async function processTreeOf(created: CreatedTransport | undefined, alive: boolean): Promise<ServerProcessTree> {
  // The transport forgets its process on close; the host's watch remembers it.
  const pid = created?.child?.pid ?? created?.stdio?.pid ?? undefined;
  return {
    pid,
    descendants: pid !== undefined && alive ? await listDescendants(pid) : [],
    ownGroup: created?.child?.ownGroup === true,
    runMarker: created?.child?.runMarker,
  };
}

/** Ends a server's tree: the pids known, then its group, then whatever still carries its run marker (a daemon in a session of its own). */
export async function endProcessTree(tree: ServerProcessTree): Promise<void> {
  const { pid, descendants } = tree;
  await terminateProcesses(pid !== undefined && isAlive(pid) ? [pid, ...descendants] : [...descendants]);
  if (pid !== undefined && tree.ownGroup) await terminateGroup(pid);
  if (tree.runMarker) await terminateProcesses(await markedProcesses(tree.runMarker));
}

/**
 * Stops a server: closing stdin is the polite way; the client library then waits 2 s before
 * SIGTERM and 2 s more before SIGKILL. A server that ignores both would hold the stop for 4 s:
 * after a short grace the host ends the tree itself, and the library's close settles with it.
 */
export async function closeThenEnd(closing: Promise<unknown> | undefined, tree: ServerProcessTree): Promise<void> {
  const closed = closing?.then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
  const first = await Promise.race([closed ?? Promise.resolve(undefined), grace]);
  if (first !== 'closed') await endProcessTree(tree);
  await closed;
  await endProcessTree(tree);
}

/** Lets a failed start's exit and last stderr chunks arrive (they may trail the failed handshake). */
export async function settleExit(exited: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
  clearTimeout(timer);
  await new Promise<void>((resolve) => setImmediate(resolve));
}
