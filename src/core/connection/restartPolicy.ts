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
    if (!this.settings.enabled) return { restart: false, reason: 'automatic restart is off ("restart.enabled": false)' };
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
