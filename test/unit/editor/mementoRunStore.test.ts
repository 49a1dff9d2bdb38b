import * as assert from 'node:assert/strict';
import type { Memento } from 'vscode';
import { LAST_RUNS_WRITE_DELAY_MS, MementoRunStore } from '../../../src/editor/mementoStores';
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

const run = (hash: string): StoredRun => ({ hash, tools: [{ name: 't', inputSchema: { type: 'object' } }], prompts: [] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MementoRunStore', () => {
  it('writes a run at once, the runs that come within the delay after it together, and what waits when flushed', async () => {
    const state = memento();
    const store = new MementoRunStore(state);
    store.set('s0', run('h0'));
    assert.equal(state.writes, 1, 'a run is written at once');
    for (let i = 1; i < 20; i++) store.set(`s${i}`, run(`h${i}`));
    store.set('s3', run('h3b'));
    assert.equal(state.writes, 1, 'the runs that come right after wait');
    assert.equal(store.get('s3')?.hash, 'h3b', 'a run waiting to be written reads back');
    await sleep(LAST_RUNS_WRITE_DELAY_MS + 100);
    assert.equal(state.writes, 2, 'twenty more runs, one more write');
    const next = new MementoRunStore(state);
    assert.deepEqual([next.get('s0')?.hash, next.get('s3')?.hash, next.get('s19')?.hash], ['h0', 'h3b', 'h19'], 'the next window reads them');
    await sleep(LAST_RUNS_WRITE_DELAY_MS + 100);
    store.set('s0', run('h0b'));
    assert.equal(state.writes, 3, 'once the delay has passed with nothing to write, a run is written at once again');
    store.set('s1', run('h1b'));
    await store.flush();
    assert.equal(state.writes, 4, 'flushing writes what waits');
    assert.deepEqual([new MementoRunStore(state).get('s0')?.hash, new MementoRunStore(state).get('s1')?.hash], ['h0b', 'h1b']);
    await sleep(LAST_RUNS_WRITE_DELAY_MS + 100);
    assert.equal(state.writes, 4, 'and leaves no write behind');
  });

  it('keeps the 100 servers written last, a server written again counting as new', async () => {
    const state = memento();
    const store = new MementoRunStore(state);
    for (let i = 0; i < 100; i++) store.set(`s${i}`, run('h'));
    await store.flush();
    store.set('s0', run('again'));
    store.set('new', run('h'));
    await store.flush();
    const after = new MementoRunStore(state);
    assert.deepEqual([after.get('s0')?.hash, after.get('new')?.hash, after.get('s1'), after.get('s2')?.hash], ['again', 'h', undefined, 'h'], 's1 is now the oldest and goes');
  });
});
