import * as assert from 'node:assert/strict';
import { StartSlots } from '../../../src/core/connection/startSlots';
import { StartTurn } from '../../../src/core/connection/startTurn';
import { RecordingLog } from '../support/fixtures';

describe("StartTurn (one server's turn among the processes that start a few at a time)", () => {
  it("says why a start waits, goes at once when needed, and keeps a later start's wait when a stopped one ends", async () => {
    const slots = new StartSlots(1, 60_000);
    const held = await slots.take(new AbortController().signal);
    const log = new RecordingLog();
    const turn = new StartTurn(slots, true, log);
    // A start that is stopped while it waits, and the next start of the same server.
    const stopped = new AbortController();
    assert.equal(
      turn.begin(stopped.signal, false),
      'waiting for its turn to start: 1 servers start at once on this machine',
    );
    const stoppedTake = turn.take(stopped.signal, false);
    stopped.abort();
    const next = new AbortController();
    assert.ok(turn.begin(next.signal, false));
    const nextTake = turn.take(next.signal, false);
    assert.equal(await stoppedTake, undefined, 'the stopped start gets no slot');
    assert.equal(turn.waiting, true, 'the next start still waits: the stopped one does not clear its wait');
    turn.goNow();
    const slot = await nextTake;
    assert.ok(slot, 'needed now: it takes a slot though the one slot is held');
    assert.equal(turn.waiting, false);
    assert.deepEqual(
      log.lines.filter((l) => /turn/.test(l)),
      [
        'info Waiting for its turn to start: 1 server(s) go first (1 start at once on this machine).',
        'info Waiting for its turn to start: 1 server(s) go first (1 start at once on this machine).',
        'info Needed now: starting before its turn.',
      ],
    );
    turn.goNow(); // nothing waits: nothing happens
    assert.equal(log.lines.length, 3);
    slot.release();
    held!.release();
  });

  it('starts at once when someone waits for it, when a slot is free, and for a server without a process of its own', async () => {
    const slots = new StartSlots(1, 60_000);
    const signal = new AbortController().signal;
    const free = new StartTurn(slots, true, new RecordingLog());
    assert.equal(free.begin(signal, false), undefined);
    const first = await free.take(signal, false);
    assert.ok(first);
    const waitedFor = new StartTurn(slots, true, new RecordingLog());
    assert.equal(waitedFor.begin(signal, true), undefined, 'someone waits for it: no turn, though the slot is taken');
    const second = await waitedFor.take(signal, true);
    assert.ok(second);
    const remote = new StartTurn(slots, false, new RecordingLog());
    assert.equal(remote.begin(signal, false), undefined);
    assert.equal(await remote.take(signal, false), undefined, 'an HTTP server takes no slot');
    assert.equal(
      await new StartTurn(undefined, true, new RecordingLog()).take(signal, false),
      undefined,
      'no slots: no turns',
    );
    first.release();
    second.release();
    assert.equal(slots.ahead, 0);
  });
});
