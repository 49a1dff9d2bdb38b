import { availableParallelism } from 'node:os';

/** The longest a start keeps its slot: a server slower than this (a download, a container) lets the next one go. */
export const START_SLOT_HOLD_MS = 1_000;

/** A start's turn; `release` is safe to call more than once. */
export interface StartSlot {
  release(): void;
}

interface Waiter {
  /** Someone waits for this start (a tool call, the user): it goes before starts no one waits for. */
  readonly first: boolean;
  grant(slot: StartSlot): void;
}

/**
 * How many server processes start at once on this machine. Twenty Node servers started together
 * on two cores are all ready only at the end, each boot sharing the cores with nineteen others;
 * started a few at a time, the first is ready about ten times sooner and the last no later. A
 * start holds its slot from before its spawn until it has its lists or has failed, and at most
 * {@link START_SLOT_HOLD_MS}. Turns are first come, first served, except that a start someone
 * waits for goes before those no one does (the servers that start with the window).
 */
export class StartSlots {
  private busy = 0;
  private readonly waiters: Waiter[] = [];

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

  /** Starts that would go before one asking now (those under way and those waiting that go first). */
  ahead(first = false): number {
    return this.busy + (first ? this.waiters.filter((w) => w.first).length : this.waiters.length);
  }

  /** Whether a start asking now has to wait. */
  get full(): boolean {
    return this.busy >= this.size;
  }

  /**
   * A slot once one is free (at once when one is); `undefined` when `signal` aborts first. `first`:
   * someone waits for this start, so it waits only behind other such starts.
   */
  take(signal: AbortSignal, first = false): Promise<StartSlot | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    if (!this.full) return Promise.resolve(this.hold());
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(undefined);
      };
      const waiter: Waiter = {
        first,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const behind = first ? this.waiters.findIndex((w) => !w.first) : -1;
      this.waiters.splice(behind < 0 ? this.waiters.length : behind, 0, waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private hold(): StartSlot {
    this.busy++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.busy--;
      const next = this.waiters.shift();
      if (next) next.grant(this.hold());
    };
    const timer = setTimeout(release, this.holdMs);
    timer.unref?.();
    return { release };
  }
}
