import * as assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { StartSlots, type StartSlot } from '../../../src/core/connection/startSlots';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new AbortController().signal;

/** Takes a slot and records, in `order`, `name` once it is granted. */
function taking(
  slots: StartSlots,
  order: string[],
  name: string,
  first = false,
  signal = never(),
): Promise<StartSlot | undefined> {
  return slots.take(signal, first).then((slot) => {
    if (slot) order.push(name);
    return slot;
  });
}

describe('StartSlots (how many server processes start at once)', () => {
  it('grants as many slots as it has at once; the next start waits for a release, first come first served', async () => {
    const slots = new StartSlots(2, 60_000);
    const order: string[] = [];
    const a = await taking(slots, order, 'a');
    const b = await taking(slots, order, 'b');
    assert.equal(slots.full, true);
    const c = taking(slots, order, 'c');
    const d = taking(slots, order, 'd');
    assert.equal(slots.ahead, 4);
    await sleep(20);
    assert.deepEqual(order, ['a', 'b'], 'c and d wait while both slots are taken');
    a!.release();
    await c;
    assert.deepEqual(order, ['a', 'b', 'c']);
    a!.release(); // a second release of the same slot frees nothing more
    await sleep(20);
    assert.deepEqual(order, ['a', 'b', 'c'], 'd still waits');
    b!.release();
    (await d)!.release();
    (await c)!.release();
    assert.equal(slots.full, false);
    assert.equal(slots.ahead, 0);
  });

  it('gives a start someone waits for a slot at once even when all are taken, and the starts waiting wait for it too', async () => {
    const slots = new StartSlots(1, 60_000);
    const order: string[] = [];
    const window1 = await taking(slots, order, 'window-1');
    const window2 = taking(slots, order, 'window-2');
    const toolCall = await taking(slots, order, 'tool-call', true);
    assert.deepEqual(order, ['window-1', 'tool-call'], "the tool call's start did not wait behind window-2");
    assert.equal(slots.ahead, 3);
    window1!.release();
    await sleep(20);
    assert.deepEqual(
      order,
      ['window-1', 'tool-call'],
      "window-2 still waits: the tool call's start holds the one slot",
    );
    toolCall!.release();
    (await window2)!.release();
    assert.deepEqual(order, ['window-1', 'tool-call', 'window-2']);
    assert.equal(slots.ahead, 0);
  });

  it('lets a waiting start go at once when someone comes to wait for it, ahead of those before it; the others keep their order', async () => {
    const slots = new StartSlots(1, 60_000);
    const order: string[] = [];
    const first = await taking(slots, order, 'first');
    const second = taking(slots, order, 'second');
    const hurriedSignal = new AbortController().signal;
    const hurried = taking(slots, order, 'hurried', false, hurriedSignal);
    await sleep(20);
    slots.goNow(new AbortController().signal); // a start that is not waiting: nothing happens
    assert.deepEqual(order, ['first']);
    slots.goNow(hurriedSignal);
    await hurried;
    assert.deepEqual(order, ['first', 'hurried'], 'it went past second, over the one slot');
    assert.equal(slots.ahead, 3);
    slots.goNow(hurriedSignal);
    assert.equal(slots.ahead, 3, 'a start already going takes no second slot');
    first!.release();
    await sleep(20);
    assert.deepEqual(
      order,
      ['first', 'hurried'],
      'second waits until a slot is free: the hurried start holds the one slot',
    );
    (await hurried)!.release();
    (await second)!.release();
    assert.deepEqual(order, ['first', 'hurried', 'second']);
    assert.equal(slots.ahead, 0);
  });

  it('frees a slot its start keeps longer than the hold limit, so a slow server does not hold the others up', async () => {
    const slots = new StartSlots(1, 80);
    const order: string[] = [];
    const slow = await taking(slots, order, 'slow');
    const next = await taking(slots, order, 'next'); // granted only once the slow start's hold ran out
    assert.deepEqual(order, ['slow', 'next']);
    slow!.release(); // the slow one finishing late frees nothing that is not its own
    const third = taking(slots, order, 'third');
    await sleep(30);
    assert.deepEqual(order, ['slow', 'next'], 'the third waits for next, which holds the one slot');
    next!.release();
    (await third)!.release();
  });

  it('drops a waiting start whose signal aborts (a stop): it gets no slot and takes no turn', async () => {
    const slots = new StartSlots(1, 60_000);
    const order: string[] = [];
    const running = await taking(slots, order, 'running');
    const stopping = new AbortController();
    const stopped = taking(slots, order, 'stopped', false, stopping.signal);
    const after = taking(slots, order, 'after');
    stopping.abort();
    assert.equal(await stopped, undefined);
    assert.equal(slots.ahead, 2, 'the running start and the one after it');
    running!.release();
    (await after)!.release();
    assert.deepEqual(order, ['running', 'after']);
    assert.equal(await slots.take(AbortSignal.abort()), undefined, 'a signal aborted before asking gets nothing');
    assert.equal(slots.ahead, 0);
  });

  it('has one slot per core and one more on this machine, and refuses fewer than one', () => {
    assert.equal(StartSlots.forThisMachine().size, availableParallelism() + 1);
    assert.throws(() => new StartSlots(0), /size must be at least 1 \(got 0\)/);
    assert.throws(() => new StartSlots(Number.NaN), /at least 1/);
  });
});
