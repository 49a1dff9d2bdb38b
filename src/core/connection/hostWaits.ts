import type { RequestOptions } from '@modelcontextprotocol/client';
import { getEventListeners } from 'node:events';
import { abortWith } from '../abortWith';
import { Emitter, type Disposable } from '../events';

/** Spare controllers kept per connection (enough for the requests one usually has in flight). */
const MAX_SPARE_CONTROLLERS = 16;

/**
 * AbortControllers to reuse: one goes back only when its signal never aborted and nothing
 * listens to it any more (the library removes its listener when the request settles), so a
 * reused signal carries nothing of its earlier request.
 */
export class SpareControllers {
  private readonly spare: AbortController[] = [];

  take(): AbortController {
    return this.spare.pop() ?? new AbortController();
  }

  giveBack(controller: AbortController): void {
    if (controller.signal.aborted || this.spare.length >= MAX_SPARE_CONTROLLERS || getEventListeners(controller.signal, 'abort').length > 0) return;
    this.spare.push(controller);
  }
}

/**
 * Whether a server is waiting for the host: a request of its own (sampling now, elicitation
 * later) is in front of the user or a model. While it is, the idle timeout of the host's requests
 * to that server stands still: the delay is ours, not the server's. The total cap still holds.
 */
export class HostWaits {
  private count = 0;
  private readonly changed = new Emitter<void>();
  /** Controllers for the idle deadlines of this connection's requests. */
  readonly spares = new SpareControllers();

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
  deadline(ms: number, signal?: AbortSignal): IdleDeadline {
    return new IdleDeadline(ms, this, signal);
  }

  onDidChange(listener: () => void): Disposable {
    return this.changed.event(listener);
  }
}

/**
 * One request's signal: aborted when its idle deadline passes, or when the caller's signal aborts.
 * Its controller comes from the connection's spares and goes back when the request settles
 * unaborted: a fresh AbortController for each request costs a few percent of a tool call.
 */
export class IdleDeadline implements Disposable {
  private readonly controller: AbortController;
  private timer?: NodeJS.Timeout;
  private readonly subscription: Disposable;
  private readonly following: Disposable;

  constructor(
    private readonly ms: number,
    private readonly waits: HostWaits,
    outer?: AbortSignal,
  ) {
    this.controller = waits.spares.take();
    this.subscription = waits.onDidChange(() => this.touch());
    this.following = abortWith(this.controller, outer);
    this.touch();
  }

  /** Aborts when the deadline passes or the caller's signal aborts. */
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
  requestOptions(maxTotalTimeoutMs: number, onProgress?: RequestOptions['onprogress']): RequestOptions {
    return {
      timeout: maxTotalTimeoutMs,
      maxTotalTimeout: maxTotalTimeoutMs,
      signal: this.signal,
      onprogress: onProgress && ((progress) => {
        this.touch();
        onProgress(progress);
      }),
    };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.following.dispose();
    this.waits.spares.giveBack(this.controller);
  }
}
