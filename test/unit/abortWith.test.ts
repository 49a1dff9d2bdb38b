import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { abortWith, untilAborted } from '../../src/core/abortWith';

describe('Following an abort signal without leaving listeners on it', () => {
  it('abortWith aborts the controller with the outer reason until disposed, and then leaves nothing on the outer signal', () => {
    const outer = new AbortController();
    const inner = new AbortController();
    const following = abortWith(inner, outer.signal);
    assert.equal(getEventListeners(outer.signal, 'abort').length, 1);
    following.dispose();
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    const again = new AbortController();
    abortWith(again, outer.signal);
    outer.abort('stopped');
    assert.equal(again.signal.reason, 'stopped');
  });

  it('untilAborted settles with the work, and rejects with the reason as soon as the signal aborts, leaving no listener either way', async () => {
    const signal = new AbortController().signal;
    let settle!: (value: string) => void;
    const work = new Promise<string>((resolve) => (settle = resolve));
    const waiting = untilAborted(work, signal);
    assert.equal(getEventListeners(signal, 'abort').length, 1);
    settle('done');
    assert.equal(await waiting, 'done');
    assert.equal(getEventListeners(signal, 'abort').length, 0, 'the listener goes with the work');

    const caller = new AbortController();
    let done = false;
    const abandoned = untilAborted(new Promise(() => undefined), caller.signal).finally(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false, 'it waits for the work');
    caller.abort(new Error('stopped'));
    await assert.rejects(abandoned, /stopped/);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    await assert.rejects(
      untilAborted(new Promise(() => undefined), caller.signal),
      /stopped/,
      'an aborted signal: at once',
    );
    await assert.rejects(
      untilAborted(Promise.reject(new Error('failed')), undefined),
      /failed/,
      'without a signal it is the work itself',
    );
    await assert.rejects(
      untilAborted(Promise.reject(new Error('failed')), new AbortController().signal),
      /failed/,
      'a failure of the work is its own',
    );
  });
});
