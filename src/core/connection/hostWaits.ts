import type { RequestOptions } from '@modelcontextprotocol/client';
import { Emitter, type Disposable } from '../events';

/**
 * Whether a server is waiting for the host: a request of its own (sampling now, elicitation
 * later) is in front of the user or a model. While it is, the idle timeout of the host's requests
 * to that server stands still: the delay is ours, not the server's. The total cap still holds.
 */
export class HostWaits {
  private count = 0;
  private readonly changed = new Emitter<void>();

  get waiting(): boolean {
    return this.count > 0;
  }

  /** Runs a server's request; the server counts as waiting until it settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    if (this.count === 1) this.changed.fire();
    try {
      return await work();
    } finally {
      this.count--;
      if (this.count === 0) this.changed.fire();
    }
  }

  /**
   * An idle deadline for one request: aborts its signal after `ms` without `touch()` (progress),
   * not counting time while the server waits for the host.
   */
  deadline(ms: number): IdleDeadline {
    return new IdleDeadline(ms, this);
  }

  onDidChange(listener: () => void): Disposable {
    return this.changed.event(listener);
  }
}

export class IdleDeadline implements Disposable {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private readonly subscription: Disposable;

  constructor(
    private readonly ms: number,
    private readonly waits: HostWaits,
  ) {
    this.subscription = waits.onDidChange(() => this.touch());
    this.touch();
  }

  /** Aborts when the deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the full idle period again (progress arrived, or the host stopped making the server wait). */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.controller.signal.aborted || this.waits.waiting) return;
    this.timer = setTimeout(() => this.controller.abort(new Error('idle timeout')), this.ms);
  }

  /**
   * The client library's options for the request this deadline guards: the library keeps the
   * total cap, the idle deadline is ours. Progress is asked for only when someone listens, and
   * each report restarts the idle period.
   */
  requestOptions(maxTotalTimeoutMs: number, signal?: AbortSignal, onProgress?: RequestOptions['onprogress']): RequestOptions {
    return {
      timeout: maxTotalTimeoutMs,
      maxTotalTimeout: maxTotalTimeoutMs,
      signal: signal ? AbortSignal.any([signal, this.signal]) : this.signal,
      onprogress: onProgress && ((progress) => {
        this.touch();
        onProgress(progress);
      }),
    };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
  }
}
