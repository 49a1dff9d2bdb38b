import type { Disposable } from '../events';
import { whenIdle, type IdleClock, type IdleRule } from './windowIdle';

/** What learning needs of the host: one of its doors. */
export interface LearningHost {
  unlearnedServers(): string[];
  learnLists(id: string): Promise<void>;
}

/**
 * Learns the lists of the servers that start when needed but have not run with their definition
 * (see McpHost.learnLists): once the window is idle, one server at a time, each after the window
 * is quiet again, so that the views and models know their tools before anyone needs them.
 */
export class ListLearning implements Disposable {
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly host: LearningHost,
    private readonly clock: IdleClock,
    private readonly rule: IdleRule,
    /** Whether learning is on (the setting, read before each server). */
    private readonly enabled: () => boolean = () => true,
  ) {}

  /** Settings applied: learn what is new, after the window is idle (once a round under way ends, if one is). */
  schedule(): void {
    if (this.stopping.signal.aborted || !this.enabled()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.learn().finally(() => {
      this.running = undefined;
      // Settings applied as the round ended: another round for them.
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    });
  }

  /** Settles when nothing is being learned (for tests and the window's close). */
  whenDone(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async learn(): Promise<void> {
    const signal = this.stopping.signal;
    try {
      await whenIdle(this.clock, this.rule, signal);
      do {
        this.again = false;
        for (const id of this.host.unlearnedServers()) {
          await whenIdle(this.clock, { ...this.rule, settleMs: 0 }, signal);
          if (!this.enabled()) return;
          await this.host.learnLists(id);
        }
      } while (this.again && !signal.aborted);
    } catch {
      // Stopped: the window is going.
    }
  }

  dispose(): void {
    this.stopping.abort();
  }
}
