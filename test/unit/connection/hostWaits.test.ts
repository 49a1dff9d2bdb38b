import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { HostWaits } from '../../../src/core/connection/hostWaits';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `signal` aborts; the idle deadlines under test abort within a few periods. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );

describe('HostWaits (idle deadlines of a connection’s requests)', () => {
  it('aborts only the request whose idle period passed, with "idle timeout", and keeps the others', async () => {
    const waits = new HostWaits();
    const idle = waits.deadline(60);
    const busy = waits.deadline(60);
    const later = waits.deadline(10_000);
    // Progress on `busy` restarts its period again and again while `idle` runs out.
    const touching = setInterval(() => busy.touch(), 10);
    try {
      await aborted(idle.signal);
      assert.equal((idle.signal.reason as Error).message, 'idle timeout');
      await sleep(100);
      assert.equal(busy.signal.aborted, false, 'a request with progress stays alive');
      assert.equal(later.signal.aborted, false, 'a request with a longer period stays alive');
    } finally {
      clearInterval(touching);
    }
    await aborted(busy.signal);
    for (const d of [idle, busy, later]) d.dispose();
  });

  it('stands still while the server waits for the host, then gives every request its full period again', async () => {
    const waits = new HostWaits();
    const request = waits.deadline(80);
    let requestAbortedDuringWait = false;
    await waits.during(async () => {
      const created = waits.deadline(80); // a request sent while the server waits
      await sleep(250);
      requestAbortedDuringWait = request.signal.aborted || created.signal.aborted;
      created.dispose();
    });
    assert.equal(requestAbortedDuringWait, false);
    assert.equal(request.signal.aborted, false, 'the period starts again when the wait ends');
    await aborted(request.signal);
    request.dispose();
  });

  it('follows the caller’s signal, and leaves no listener on it once the request settles', async () => {
    const waits = new HostWaits();
    const caller = new AbortController();
    const request = waits.deadline(10_000, caller.signal);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 1);
    request.dispose();
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    const cancelled = waits.deadline(10_000, caller.signal);
    caller.abort(new Error('user cancelled'));
    assert.equal((cancelled.signal.reason as Error).message, 'user cancelled');
    cancelled.dispose();
  });

  it('reuses a settled request’s controller only when it never aborted', async () => {
    const waits = new HostWaits();
    const first = waits.deadline(10_000);
    const signal = first.signal;
    first.dispose();
    const second = waits.deadline(40);
    assert.equal(second.signal, signal, 'the spare controller is taken again');
    await aborted(second.signal);
    second.dispose();
    const third = waits.deadline(10_000);
    assert.notEqual(third.signal, signal, 'an aborted controller is not reused');
    assert.equal(third.signal.aborted, false);
    third.dispose();
  });

  it('keeps one timer for all the requests in flight, set once for requests one after another, and nothing alive', async () => {
    const armed: number[] = [];
    const setTimeoutBefore = global.setTimeout;
    global.setTimeout = ((fn: () => void, ms?: number) => {
      armed.push(ms ?? 0);
      return setTimeoutBefore(fn, ms);
    }) as typeof setTimeout;
    const timers = () =>
      (process as unknown as { getActiveResourcesInfo(): string[] })
        .getActiveResourcesInfo()
        .filter((r) => r === 'Timeout').length;
    const before = timers();
    try {
      const waits = new HostWaits();
      const requests = Array.from({ length: 1000 }, () => waits.deadline(60_000));
      for (const r of requests) r.dispose();
      for (let i = 0; i < 1000; i++) waits.deadline(60_000).dispose();
      assert.equal(armed.length, 1, 'one timer for 2,000 requests');
      assert.equal(timers(), before, 'the timer keeps nothing alive');
      // A shorter period than the armed one sets the timer for it.
      const short = waits.deadline(30);
      assert.equal(armed.length, 2);
      await aborted(short.signal);
      short.dispose();
    } finally {
      global.setTimeout = setTimeoutBefore;
    }
  });
});
