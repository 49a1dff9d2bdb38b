import { availableParallelism } from 'node:os';

/** The longest a start keeps its slot: a server slower than this (a download, a container) lets the next one go. */
export const START_SLOT_HOLD_MS = 1_000;

/** A start's turn; `release` is safe to call more than once. */
export interface StartSlot {
  release(): void;
}

/**
 * How many server processes start at once on this machine, of those no one waits for (the servers
 * that start with the window, restarts after a crash). Twenty Node servers started together on two
 * cores are all ready only at the end, each boot sharing the cores with nineteen others; started a
 * few at a time, the first is ready about ten times sooner and the last no later. A start holds
 * its slot from before its spawn until it has its lists or has failed, and at most
 * {@link START_SLOT_HOLD_MS}; turns are first come, first served. A start someone waits for (a
 * tool call, the user) takes a slot at once, full or not, and the others wait for it too; so does
 * a waiting start as soon as someone comes to wait for it ({@link StartSlots.goNow}).
 */
export class StartSlots {
  private busy = 0;
  /** Starts waiting for their turn, in order, by the signal each was taken with. */
  private readonly waiters: { readonly signal: AbortSignal; readonly grant: (slot: StartSlot) => void }[] = [];

  constructor(
    /** Starts under way at once (at least 1). */
    readonly size: number,
    private readonly holdMs = START_SLOT_HOLD_MS,
  ) {
    if (!(size >= 1)) throw new RangeError(`start slots: size must be at least 1 (got ${size})`);
  }

  /**
   * One slot per core and one more: a start is not busy all along (its handshake waits on pipes),
   * and with one slot a core the last of five servers was ready later than with all at once.
   */
  static forThisMachine(): StartSlots {
    return new StartSlots(availableParallelism() + 1);
  }

  /** Starts that go before one that waits for its turn now (those under way and those waiting). */
  get ahead(): number {
    return this.busy + this.waiters.length;
  }

  /** Whether a start asking now has to wait. */
  get full(): boolean {
    return this.busy >= this.size;
  }

  /**
   * A slot once one is free (at once when one is); `undefined` when `signal` aborts first.
   * `waitedFor`: someone waits for this start, so it takes a slot at once even when all are taken.
   */
  take(signal: AbortSignal, waitedFor = false): Promise<StartSlot | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    if (waitedFor || !this.full) return Promise.resolve(this.hold());
    return new Promise((resolve) => {
      const waiter = {
        signal,
        grant: (slot: StartSlot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        this.leaveQueue(waiter);
        resolve(undefined);
      };
      this.waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Someone now waits for a start that waits for its turn (taken with `signal`): it takes a slot at
   * once, full or not, as if it had been waited for from the start. Nothing happens for a start
   * that is not waiting.
   */
  goNow(signal: AbortSignal): void {
    const waiter = this.waiters.find((w) => w.signal === signal);
    if (waiter && this.leaveQueue(waiter)) waiter.grant(this.hold());
  }

  private leaveQueue(waiter: (typeof this.waiters)[number]): boolean {
    const at = this.waiters.indexOf(waiter);
    if (at >= 0) this.waiters.splice(at, 1);
    return at >= 0;
  }

  private hold(): StartSlot {
    this.busy++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.busy--;
      // A start someone waited for may have taken more than the slots: the next waits until one is free.
      if (!this.full) this.waiters.shift()?.grant(this.hold());
    };
    const timer = setTimeout(release, this.holdMs);
    timer.unref?.();
    return { release };
  }
}
