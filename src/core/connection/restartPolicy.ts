import type { RestartSettings } from '../config/serverDefinition';

export type RestartDecision =
  | { readonly restart: true; readonly delayMs: number; readonly attempt: number }
  | { readonly restart: false; readonly reason: string };

/** Exponential backoff with a cap, and a limit on restarts within a sliding window. */
export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly settings: RestartSettings,
    private readonly now: () => number = Date.now,
  ) {}

  onUnexpectedExit(): RestartDecision {
    if (!this.settings.enabled)
      return { restart: false, reason: 'automatic restart is off ("restart.enabled": false)' };
    const now = this.now();
    this.crashes = this.crashes.filter((t) => now - t < this.settings.windowMs);
    this.crashes.push(now);
    const attempt = this.crashes.length;
    if (attempt > this.settings.maxRestarts) {
      const minutes = Math.round(this.settings.windowMs / 60_000);
      return {
        restart: false,
        reason: `stopped ${attempt} times within ${minutes >= 1 ? `${minutes} min` : `${this.settings.windowMs} ms`}; not restarting again`,
      };
    }
    const delayMs = Math.min(this.settings.initialDelayMs * 2 ** (attempt - 1), this.settings.maxDelayMs);
    return { restart: true, delayMs, attempt };
  }

  /** A start the user asked for wipes the slate. */
  reset(): void {
    this.crashes = [];
  }
}

/** What a server shows after it ended on its own: an error that stays, or a restart on its way. */
export interface RestartOutcome {
  readonly status: 'error' | 'restarting';
  /** The server's reason, for the view. */
  readonly reason: string;
  /** The line for the server's log. */
  readonly logLine: string;
}

/**
 * Restarts a server that ended on its own, on the policy's schedule: one timer at a time, which a
 * start or stop the user asks for cancels. `active` holds from the end until a restart connects,
 * the policy gives up, or the user takes over; a restart that fails to start is one more end.
 */
export class AutomaticRestarts {
  private readonly policy: RestartPolicy;
  private timer?: NodeJS.Timeout;
  private restarting = false;

  constructor(private readonly settings: RestartSettings) {
    this.policy = new RestartPolicy(settings);
  }

  /** Whether the server is being restarted after it ended on its own. */
  get active(): boolean {
    return this.restarting;
  }

  /** A start the user asked for wipes the slate, and takes over from a restart. */
  reset(): void {
    this.policy.reset();
    this.cancel();
  }

  /** A start or stop took over: no restart is due, and a restart under way has ended (well or not). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.restarting = false;
  }

  /** The server ended (`why`): schedules `relaunch` after the backoff, or says why not. */
  schedule(why: string, relaunch: () => void): RestartOutcome {
    const decision = this.policy.onUnexpectedExit();
    if (!decision.restart) {
      this.restarting = false;
      return {
        status: 'error',
        reason: `${why}; ${decision.reason}. Use Restart to try again.`,
        logLine: `${why}; ${decision.reason}.`,
      };
    }
    this.restarting = true;
    const seconds = Math.max(1, Math.round(decision.delayMs / 1000));
    const reason = `${why}; restarting in ${seconds}s (attempt ${decision.attempt} of ${this.settings.maxRestarts})`;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      relaunch();
    }, decision.delayMs);
    return { status: 'restarting', reason, logLine: reason };
  }
}
