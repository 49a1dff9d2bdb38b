import type { RequestOptions } from '@modelcontextprotocol/client';
import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { abortWith } from '../abortWith';
import type { Disposable } from '../events';

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
    if (
      controller.signal.aborted ||
      this.spare.length >= MAX_SPARE_CONTROLLERS ||
      getEventListeners(controller.signal, 'abort').length > 0
    )
      return;
    this.spare.push(controller);
  }
}

/**
 * Whether a server is waiting for the host: a request of its own (sampling, elicitation) is in
 * front of the user or a model. While it is, the idle timeout of the host's requests to that
 * server stands still: the delay is ours, not the server's. The total cap still holds.
 *
 * It also keeps the idle deadlines of the connection's requests on one timer, set for the
 * earliest of them: a request in flight costs no timer and no listener of its own. The timer is
 * left to run out when the requests settle (requests one after another then set no timer at
 * all), and keeps nothing alive: the requests' own transport does.
 */
export class HostWaits {
  private count = 0;
  private readonly deadlines = new Set<IdleDeadline>();
  private timer?: NodeJS.Timeout;
  /** When the timer fires (performance.now()), or Infinity when none is set. */
  private timerAt = Infinity;
  /** Controllers for the idle deadlines of this connection's requests. */
  readonly spares = new SpareControllers();

  get waiting(): boolean {
    return this.count > 0;
  }

  /** Runs a server's request; the server counts as waiting until it settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    if (++this.count === 1) this.stopTimer();
    try {
      return await work();
    } finally {
      // The wait is over: every request gets its full idle period again.
      if (--this.count === 0) this.restartAll();
    }
  }

  /**
   * An idle deadline for one request: aborts its signal after `ms` without `touch()` (progress),
   * not counting time while the server waits for the host.
   */
  deadline(ms: number, signal?: AbortSignal): IdleDeadline {
    const deadline = new IdleDeadline(ms, this, signal);
    this.deadlines.add(deadline);
    this.armFor(deadline.dueAt);
    return deadline;
  }

  /** A deadline that settled or expired. */
  forget(deadline: IdleDeadline): void {
    this.deadlines.delete(deadline);
  }

  /** Sets the timer for `at` unless it fires sooner (a deadline that moved later is found when it fires). */
  private armFor(at: number): void {
    if (this.count > 0 || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expireDue(), Math.max(0, at - performance.now())).unref();
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Aborts the requests whose idle period has passed, and sets the timer for the next. */
  private expireDue(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    // Timers run on a millisecond clock: what is due within the next one counts as due.
    const now = performance.now() + 1;
    let next = Infinity;
    for (const deadline of [...this.deadlines]) {
      if (deadline.dueAt <= now) deadline.expire();
      else next = Math.min(next, deadline.dueAt);
    }
    if (next < Infinity) this.armFor(next);
  }

  private restartAll(): void {
    const now = performance.now();
    let next = Infinity;
    for (const deadline of this.deadlines) next = Math.min(next, deadline.restart(now));
    if (next < Infinity) this.armFor(next);
  }
}

/**
 * One request's signal: aborted when its idle deadline passes, or when the caller's signal aborts.
 * Its controller comes from the connection's spares and goes back when the request settles
 * unaborted: a fresh AbortController for each request costs a few percent of a tool call.
 */
export class IdleDeadline implements Disposable {
  private readonly controller: AbortController;
  private readonly following: Disposable;
  /** When the idle period ends (performance.now()). */
  private due = 0;

  constructor(
    private readonly ms: number,
    private readonly waits: HostWaits,
    outer?: AbortSignal,
  ) {
    this.controller = waits.spares.take();
    this.following = abortWith(this.controller, outer);
    this.restart(performance.now());
  }

  /** Aborts when the deadline passes or the caller's signal aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get dueAt(): number {
    return this.due;
  }

  /** Starts the full idle period again (progress arrived). */
  touch(): void {
    this.restart(performance.now());
  }

  /** Starts the full idle period from `now`; returns when it ends. */
  restart(now: number): number {
    return (this.due = now + this.ms);
  }

  /** The idle period passed: the request is aborted. */
  expire(): void {
    this.waits.forget(this);
    this.controller.abort(new Error('idle timeout'));
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
      onprogress:
        onProgress &&
        ((progress) => {
          this.touch();
          onProgress(progress);
        }),
    };
  }

  dispose(): void {
    this.waits.forget(this);
    this.following.dispose();
    this.waits.spares.giveBack(this.controller);
  }
}
