import * as assert from 'node:assert/strict';
import type { Memento } from 'vscode';
import {
  MementoEraPinStore,
  MementoRunStore,
  STATE_WRITE_DELAY_MS,
  StateWrites,
} from '../../../src/editor/mementoStores';
import type { StoredRun } from '../../../src/core/host/lastRuns';

/** Global state as the editor keeps it: values go through JSON on each write, and writes are counted. */
function memento(): Memento & { writes: number } {
  const values = new Map<string, unknown>();
  return {
    writes: 0,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update(key: string, value: unknown) {
      this.writes++;
      values.set(key, JSON.parse(JSON.stringify(value)));
      return Promise.resolve();
    },
  } as Memento & { writes: number };
}

const run = (hash: string): StoredRun => ({
  hash,
  tools: [{ name: 't', inputSchema: { type: 'object' } }],
  prompts: [],
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('StateWrites: era pins and last runs in global state', () => {
  it('writes a run at once, the runs that come within the delay after it together, and what waits when flushed', async () => {
    const state = memento();
    const writes = new StateWrites();
    const store = new MementoRunStore(state, writes);
    store.set('s0', run('h0'));
    assert.equal(state.writes, 1, 'a run is written at once');
    for (let i = 1; i < 20; i++) store.set(`s${i}`, run(`h${i}`));
    store.set('s3', run('h3b'));
    assert.equal(state.writes, 1, 'the runs that come right after wait');
    assert.equal(store.get('s3')?.hash, 'h3b', 'a run waiting to be written reads back');
    await sleep(STATE_WRITE_DELAY_MS + 100);
    assert.equal(state.writes, 2, 'twenty more runs, one more write');
    const next = new MementoRunStore(state, new StateWrites());
    assert.deepEqual(
      [next.get('s0')?.hash, next.get('s3')?.hash, next.get('s19')?.hash],
      ['h0', 'h3b', 'h19'],
      'the next window reads them',
    );
    await sleep(STATE_WRITE_DELAY_MS + 100);
    store.set('s0', run('h0b'));
    assert.equal(state.writes, 3, 'once the delay has passed with nothing to write, a run is written at once again');
    store.set('s1', run('h1b'));
    await writes.flush();
    assert.equal(state.writes, 4, 'flushing writes what waits');
    assert.deepEqual(
      [
        new MementoRunStore(state, new StateWrites()).get('s0')?.hash,
        new MementoRunStore(state, new StateWrites()).get('s1')?.hash,
      ],
      ['h0b', 'h1b'],
    );
    await sleep(STATE_WRITE_DELAY_MS + 100);
    assert.equal(state.writes, 4, 'and leaves no write behind');
  });

  it('keeps the 100 servers written last, a server written again counting as new', async () => {
    const state = memento();
    const writes = new StateWrites();
    const store = new MementoRunStore(state, writes);
    for (let i = 0; i < 100; i++) store.set(`s${i}`, run('h'));
    await writes.flush();
    store.set('s0', run('again'));
    store.set('new', run('h'));
    await writes.flush();
    const after = new MementoRunStore(state, new StateWrites());
    assert.deepEqual(
      [after.get('s0')?.hash, after.get('new')?.hash, after.get('s1'), after.get('s2')?.hash],
      ['again', 'h', undefined, 'h'],
      's1 is now the oldest and goes',
    );
  });

  it("writes a start's pin with its run, the pins and runs of many starts together in one tick, and a pin alone after the delay", async () => {
    const state = memento();
    const writes = new StateWrites();
    const pins = new MementoEraPinStore(state, writes);
    const runs = new MementoRunStore(state, writes);
    pins.set('p0', { kind: 'legacy' });
    assert.equal(state.writes, 0, 'a pin waits for the run of its start');
    runs.set('s0', run('h0'));
    assert.equal(state.writes, 2, 'which writes both at once');
    const updates: number[] = [];
    /** How many updates the first of them saw in its tick. */
    let inOneTick = 0;
    const update = state.update.bind(state);
    state.update = (key: string, value: unknown) => {
      if (updates.length === 0) void Promise.resolve().then(() => (inOneTick = updates.length));
      updates.push(state.writes);
      return update(key, value);
    };
    for (let i = 1; i < 20; i++) {
      pins.set(`p${i}`, { kind: 'legacy' });
      runs.set(`s${i}`, run(`h${i}`));
    }
    pins.delete('p5');
    assert.equal(state.writes, 2, 'the starts right after wait');
    assert.equal(pins.get('p5'), undefined, 'a pin deleted while it waits reads back as gone');
    assert.deepEqual(pins.get('p6'), { kind: 'legacy' }, 'a pin waiting to be written reads back');
    await sleep(STATE_WRITE_DELAY_MS + 100);
    assert.deepEqual(updates, [2, 3], 'nineteen pins and nineteen runs: one update of each key, after the delay');
    assert.equal(inOneTick, 2, 'both in one tick, which the editor sends as one');
    const pinsAfter = new MementoEraPinStore(state, new StateWrites());
    assert.deepEqual(
      [pinsAfter.get('p0'), pinsAfter.get('p19'), pinsAfter.get('p5')],
      [{ kind: 'legacy' }, { kind: 'legacy' }, undefined],
    );
    assert.equal(new MementoRunStore(state, new StateWrites()).get('s19')?.hash, 'h19');

    await sleep(STATE_WRITE_DELAY_MS + 100);
    pins.set('alone', { kind: 'legacy' });
    runs.set('s1', run('h1b'));
    assert.equal(state.writes, 6, 'a run and a pin that come after the delay go at once, in one tick');
    pins.set('late', { kind: 'legacy' });
    await sleep(STATE_WRITE_DELAY_MS / 2);
    assert.equal(state.writes, 6, 'a pin with no run after it waits');
    await sleep(STATE_WRITE_DELAY_MS / 2 + 100);
    assert.equal(state.writes, 7, 'until the delay has passed');
    assert.deepEqual(new MementoEraPinStore(state, new StateWrites()).get('late'), { kind: 'legacy' });
  });
});
