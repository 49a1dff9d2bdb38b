import { setTimeout as sleep } from 'node:timers/promises';

/** What telling whether the window is idle reads: the CPU its process used so far, and time. */
export interface IdleClock {
  /** CPU time this process has used so far, in ms (user and system). */
  cpuMs(): number;
  now(): number;
  /** Settles after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export interface IdleRule {
  /** Nothing is judged before this long after the wait begins: the window's own start comes first. */
  readonly settleMs: number;
  /** A stretch this long in which the process used at most `quietShare` of a core is idle. */
  readonly quietMs: number;
  readonly quietShare: number;
  /** A window never that quiet is taken as idle after this long anyway. */
  readonly maxWaitMs: number;
}

/** Ten seconds to settle, then two quiet seconds (under a tenth of a core); two minutes at most. */
export const WINDOW_IDLE: IdleRule = { settleMs: 10_000, quietMs: 2_000, quietShare: 0.1, maxWaitMs: 120_000 };

/**
 * Settles once the process has been quiet for a stretch (see {@link IdleRule}): the time to do
 * what can wait without taking CPU from the window's start or the user's work. Rejects when
 * `signal` aborts.
 */
export async function whenIdle(clock: IdleClock, rule: IdleRule, signal: AbortSignal): Promise<void> {
  const began = clock.now();
  await clock.sleep(rule.settleMs, signal);
  while (clock.now() - began < rule.maxWaitMs) {
    const cpuBefore = clock.cpuMs();
    const before = clock.now();
    await clock.sleep(rule.quietMs, signal);
    const elapsed = clock.now() - before;
    if (elapsed > 0 && (clock.cpuMs() - cpuBefore) / elapsed <= rule.quietShare) return;
  }
}

/** The clock of this process. */
export const processIdleClock: IdleClock = {
  cpuMs() {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
};
