import type { ServerLog } from './serverLog';
import type { StartSlot, StartSlots } from './startSlots';

/**
 * One server's place among the processes that start a few at a time ({@link StartSlots}): whether
 * its start waits for a turn and why, its slot, and going at once when someone comes to need it.
 * HTTP servers start no process and take no turn.
 */
export class StartTurn {
  /** The signal of the start that waits for its turn now, if one does. */
  private waitingWith?: AbortSignal;

  constructor(
    private readonly slots: StartSlots | undefined,
    private readonly localProcess: boolean,
    private readonly log: ServerLog,
  ) {}

  get waiting(): boolean {
    return this.waitingWith !== undefined;
  }

  /**
   * Begins a start (`signal` is its own): why it must wait for its turn, for its row to say from
   * its first change, or undefined when it starts at once (someone waits for it, or a slot is
   * free). {@link take} follows in the same tick.
   */
  begin(signal: AbortSignal, waitedFor: boolean): string | undefined {
    const slots = this.slots;
    this.waitingWith = slots && this.localProcess && !waitedFor && slots.full ? signal : undefined;
    return this.waitingWith && `waiting for its turn to start: ${slots!.size} servers start at once on this machine`;
  }

  /**
   * The start's slot: at once, unless {@link begin} said it waits, then once its turn comes or
   * someone needs it; undefined without slots, or when `signal` aborts first.
   */
  async take(signal: AbortSignal, waitedFor: boolean): Promise<StartSlot | undefined> {
    const slots = this.slots;
    if (!slots || !this.localProcess) return undefined;
    if (this.waitingWith !== signal) return slots.take(signal, waitedFor);
    this.log.info(
      `Waiting for its turn to start: ${slots.ahead} server(s) go first (${slots.size} start at once on this machine).`,
    );
    try {
      return await slots.take(signal, waitedFor);
    } finally {
      // A later start may have begun meanwhile (this one was stopped): its wait is its own.
      if (this.waitingWith === signal) this.waitingWith = undefined;
    }
  }

  /** Someone now needs the server: a start waiting for its turn goes at once. */
  goNow(): void {
    if (!this.waitingWith || !this.slots) return;
    this.log.info('Needed now: starting before its turn.');
    this.slots.goNow(this.waitingWith);
  }
}
