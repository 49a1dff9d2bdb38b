import * as assert from 'node:assert/strict';
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { boundedInstructions, INSTRUCTIONS_MAX } from '../../../src/core/connection/serverSnapshot';
import { LastRuns, MAX_KEPT_RUN_CHARS, type StoredRun } from '../../../src/core/host/lastRuns';

const tool = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });
const prompt = (name: string, ...args: string[]): Prompt => ({
  name,
  arguments: args.map((arg) => ({ name: arg, required: true })),
});

function storeOf(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(Object.entries(initial));
  const writes: string[] = [];
  return {
    values,
    writes,
    get: (id: string) => values.get(id),
    set: (id: string, value: StoredRun) => void (writes.push(id), values.set(id, value)),
  };
}

describe('LastRuns', () => {
  it('gives a server its last tools, prompts and instructions only for the same definition, and keeps them once', () => {
    const store = storeOf();
    const runs = new LastRuns(store);
    const tools = [tool('a'), tool('b')];
    const prompts = [prompt('greet', 'name')];
    runs.remember('s', 'h1', { tools, prompts, instructions: 'Use a first.' });
    runs.remember('s', 'h1', { tools, prompts, instructions: 'Use a first.' });
    assert.deepEqual(store.writes, ['s'], 'the same run again writes nothing');
    const next = new LastRuns(store).lastRunOf('s', 'h1');
    assert.deepEqual(
      [next?.tools.map((t) => t.name), next?.prompts, next?.instructions],
      [['a', 'b'], prompts, 'Use a first.'],
      'read back in the next window',
    );
    runs.remember('s', 'h1', { tools, prompts, instructions: 'Use b first.' });
    assert.deepEqual(
      [store.writes, new LastRuns(store).lastRunOf('s', 'h1')?.instructions],
      [['s', 's'], 'Use b first.'],
      'new instructions are kept',
    );
    runs.remember('s', 'h1', { tools, prompts: [...prompts, prompt('bye')], instructions: 'Use b first.' });
    assert.deepEqual(
      [store.writes, new LastRuns(store).lastRunOf('s', 'h1')?.prompts.map((p) => p.name)],
      [
        ['s', 's', 's'],
        ['greet', 'bye'],
      ],
      'new prompts are kept',
    );
    assert.equal(new LastRuns(store).lastRunOf('s', 'h2'), undefined, 'another definition');
    assert.equal(new LastRuns(store).lastRunOf('other', 'h1'), undefined);
  });

  it('writes nothing when a server starts again with what its last window kept, and writes what differs', () => {
    const store = storeOf();
    const tools = [tool('a', 'first')];
    new LastRuns(store).remember('s', 'h1', { tools, prompts: [], instructions: 'Use a.' });
    new LastRuns(store).remember('big', 'h1', { tools: [tool('huge', 'x'.repeat(MAX_KEPT_RUN_CHARS))], prompts: [] });
    assert.deepEqual(store.writes, ['s', 'big']);
    // The next window: its own copies of the same lists, as a new session loads them.
    const next = new LastRuns(store);
    next.remember('s', 'h1', { tools: structuredClone(tools), prompts: [], instructions: 'Use a.' });
    next.remember('big', 'h1', { tools: [tool('huge', 'x'.repeat(MAX_KEPT_RUN_CHARS))], prompts: [] });
    assert.deepEqual(
      store.writes,
      ['s', 'big'],
      'the same lists, instructions and definition write nothing (a run too long to keep included)',
    );
    next.remember('s', 'h1', { tools: [tool('a', 'changed')], prompts: [], instructions: 'Use a.' });
    assert.equal(new LastRuns(store).lastRunOf('s', 'h1')?.tools[0].description, 'changed');
    const third = new LastRuns(store);
    third.remember('s', 'h2', { tools: [tool('a', 'changed')], prompts: [], instructions: 'Use a.' });
    third.remember('other', 'h1', { tools, prompts: [], instructions: 'Use a.' });
    assert.deepEqual(
      store.writes,
      ['s', 'big', 's', 's', 'other'],
      'changed lists, another definition and a server not kept before are written',
    );
    assert.deepEqual(
      new LastRuns(store).lastRunOf('s', 'h2')?.tools.map((t) => t.name),
      ['a'],
    );
  });

  it('keeps a server that has prompts and no tools, and not one that has neither', () => {
    const store = storeOf();
    const runs = new LastRuns(store);
    runs.remember('promptsOnly', 'h', { tools: [], prompts: [prompt('p')] });
    runs.remember('nothing', 'h', { tools: [], prompts: [] });
    assert.deepEqual(new LastRuns(store).lastRunOf('promptsOnly', 'h'), { tools: [], prompts: [prompt('p')] });
    assert.equal(new LastRuns(store).lastRunOf('nothing', 'h'), undefined);
  });

  it('keeps whether a server offered resources: a run with resources only is known, and resources coming or going are written', () => {
    const store = storeOf({
      older: { hash: 'h', tools: [tool('a')] },
      odd: { hash: 'h', tools: [], prompts: [], resources: 'yes' },
    });
    const runs = new LastRuns(store);
    runs.remember('resourcesOnly', 'h', { tools: [], prompts: [], resources: true });
    assert.deepEqual(new LastRuns(store).lastRunOf('resourcesOnly', 'h'), { tools: [], prompts: [], resources: true });
    // A running server's snapshot gives the same lists until they change.
    const tools = [tool('a')];
    const prompts: Prompt[] = [];
    runs.remember('both', 'h', { tools, prompts });
    assert.deepEqual(store.values.get('both'), { hash: 'h', tools, prompts: [] }, 'no resources: kept as before');
    runs.remember('both', 'h', { tools, prompts, resources: true });
    runs.remember('both', 'h', { tools, prompts, resources: true });
    assert.deepEqual(new LastRuns(store).lastRunOf('both', 'h'), { tools, prompts, resources: true });
    runs.remember('both', 'h', { tools, prompts });
    assert.deepEqual(store.writes, ['resourcesOnly', 'both', 'both', 'both'], 'the same again writes nothing');
    assert.equal(new LastRuns(store).lastRunOf('both', 'h')?.resources, undefined);
    assert.deepEqual(
      runs.lastRunOf('older', 'h'),
      { tools: [tool('a')], prompts: [] },
      'what earlier versions kept: no resources known',
    );
    assert.equal(runs.lastRunOf('odd', 'h'), undefined, 'a flag that is not `true` is not one');
  });

  it('forgets a run too long to keep, and reads damaged, foreign or older data as nothing or less', () => {
    const store = storeOf({
      junk: 'not a list',
      noHash: { tools: [tool('a')] },
      mixed: {
        hash: 'h',
        tools: [
          tool('ok'),
          { name: 5, inputSchema: {} },
          { name: 'noSchema' },
          { name: 'arraySchema', inputSchema: [] },
          { name: 'oddTitle', title: {}, inputSchema: {} },
          null,
        ],
      },
      oddPrompts: {
        hash: 'h',
        tools: [],
        prompts: [
          prompt('ok', 'x'),
          { name: 'badArgs', arguments: [{ name: 1 }] },
          { name: 'argsNotList', arguments: 'x' },
          { name: 'oddDescription', description: 3 },
          'p',
          null,
        ],
      },
      promptsNotList: { hash: 'h', tools: [tool('a')], prompts: { name: 'p' } },
      empty: { hash: 'h', tools: [] },
      firstVersion: { hash: 'h', tools: [tool('a')] },
      oddInstructions: { hash: 'h', tools: [tool('a')], instructions: 42 },
      longInstructions: { hash: 'h', tools: [tool('a')], instructions: `  ${'z'.repeat(INSTRUCTIONS_MAX + 10)}` },
    });
    const runs = new LastRuns(store);
    assert.deepEqual(
      ['junk', 'noHash', 'empty'].map((id) => runs.lastRunOf(id, 'h')),
      [undefined, undefined, undefined],
    );
    assert.deepEqual(
      runs.lastRunOf('mixed', 'h')?.tools.map((t) => t.name),
      ['ok'],
    );
    assert.deepEqual(runs.lastRunOf('oddPrompts', 'h'), { tools: [], prompts: [prompt('ok', 'x')] });
    assert.deepEqual(runs.lastRunOf('promptsNotList', 'h'), { tools: [tool('a')], prompts: [] });
    assert.deepEqual(
      runs.lastRunOf('firstVersion', 'h'),
      { tools: [tool('a')], prompts: [] },
      'what the first version kept (tools only) still reads',
    );
    assert.deepEqual(runs.lastRunOf('oddInstructions', 'h'), { tools: [tool('a')], prompts: [] });
    assert.equal(
      runs.lastRunOf('longInstructions', 'h')?.instructions,
      boundedInstructions('z'.repeat(INSTRUCTIONS_MAX + 10)),
      "cut as a server's own are",
    );
    runs.remember('big', 'h', {
      tools: [tool('small')],
      prompts: [prompt('huge', 'x'.repeat(MAX_KEPT_RUN_CHARS - 100))],
      instructions: 'y'.repeat(200),
    });
    assert.deepEqual(store.values.get('big'), { hash: 'h', tools: [], prompts: [] });
    assert.equal(new LastRuns(store).lastRunOf('big', 'h'), undefined);
  });
});
