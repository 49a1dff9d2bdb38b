import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { boundedInstructions, INSTRUCTIONS_MAX } from '../../../src/core/connection/serverSnapshot';
import { LastToolLists, MAX_KEPT_TOOL_LIST_CHARS, type StoredToolList } from '../../../src/core/host/lastToolLists';

const tool = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });

function storeOf(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(Object.entries(initial));
  const writes: string[] = [];
  return { values, writes, get: (id: string) => values.get(id), set: (id: string, value: StoredToolList) => void (writes.push(id), values.set(id, value)) };
}

describe('LastToolLists', () => {
  it('gives a server its last tools and instructions only for the same definition, and keeps them once', () => {
    const store = storeOf();
    const lists = new LastToolLists(store);
    const tools = [tool('a'), tool('b')];
    lists.remember('s', 'h1', { tools, instructions: 'Use a first.' });
    lists.remember('s', 'h1', { tools, instructions: 'Use a first.' });
    assert.deepEqual(store.writes, ['s'], 'the same list again writes nothing');
    const next = new LastToolLists(store).lastRunOf('s', 'h1');
    assert.deepEqual([next?.tools.map((t) => t.name), next?.instructions], [['a', 'b'], 'Use a first.'], 'read back in the next window');
    lists.remember('s', 'h1', { tools, instructions: 'Use b first.' });
    assert.deepEqual([store.writes, new LastToolLists(store).lastRunOf('s', 'h1')?.instructions], [['s', 's'], 'Use b first.'], 'new instructions are kept');
    assert.equal(new LastToolLists(store).lastRunOf('s', 'h2'), undefined, 'another definition');
    assert.equal(new LastToolLists(store).lastRunOf('other', 'h1'), undefined);
  });

  it('forgets a list too long to keep, and reads damaged or foreign data as nothing or less', () => {
    const store = storeOf({
      junk: 'not a list',
      noHash: { tools: [tool('a')] },
      mixed: { hash: 'h', tools: [tool('ok'), { name: 5, inputSchema: {} }, { name: 'noSchema' }, { name: 'arraySchema', inputSchema: [] }, null] },
      empty: { hash: 'h', tools: [] },
      oddInstructions: { hash: 'h', tools: [tool('a')], instructions: 42 },
      longInstructions: { hash: 'h', tools: [tool('a')], instructions: `  ${'z'.repeat(INSTRUCTIONS_MAX + 10)}` },
    });
    const lists = new LastToolLists(store);
    assert.deepEqual(['junk', 'noHash', 'empty'].map((id) => lists.lastRunOf(id, 'h')), [undefined, undefined, undefined]);
    assert.deepEqual(lists.lastRunOf('mixed', 'h')?.tools.map((t) => t.name), ['ok']);
    assert.deepEqual(lists.lastRunOf('oddInstructions', 'h'), { tools: [tool('a')] });
    assert.equal(lists.lastRunOf('longInstructions', 'h')?.instructions, boundedInstructions('z'.repeat(INSTRUCTIONS_MAX + 10)), 'cut as a server\'s own are');
    lists.remember('big', 'h', { tools: [tool('huge', 'x'.repeat(MAX_KEPT_TOOL_LIST_CHARS - 100))], instructions: 'y'.repeat(200) });
    assert.deepEqual(store.values.get('big'), { hash: 'h', tools: [] });
    assert.equal(new LastToolLists(store).lastRunOf('big', 'h'), undefined);
  });
});
