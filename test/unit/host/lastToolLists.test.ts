import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { LastToolLists, MAX_KEPT_TOOL_LIST_CHARS, type StoredToolList } from '../../../src/core/host/lastToolLists';

const tool = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });

function storeOf(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(Object.entries(initial));
  const writes: string[] = [];
  return { values, writes, get: (id: string) => values.get(id), set: (id: string, value: StoredToolList) => void (writes.push(id), values.set(id, value)) };
}

describe('LastToolLists', () => {
  it('gives a server its last tools only for the same definition, and keeps a list once', () => {
    const store = storeOf();
    const lists = new LastToolLists(store);
    const tools = [tool('a'), tool('b')];
    lists.remember('s', 'h1', tools);
    lists.remember('s', 'h1', tools);
    assert.deepEqual(store.writes, ['s'], 'the same list again writes nothing');
    assert.deepEqual(new LastToolLists(store).toolsOf('s', 'h1')?.map((t) => t.name), ['a', 'b'], 'read back in the next window');
    assert.equal(new LastToolLists(store).toolsOf('s', 'h2'), undefined, 'another definition');
    assert.equal(new LastToolLists(store).toolsOf('other', 'h1'), undefined);
  });

  it('forgets a list too long to keep, and reads damaged or foreign data as nothing or less', () => {
    const store = storeOf({
      junk: 'not a list',
      noHash: { tools: [tool('a')] },
      mixed: { hash: 'h', tools: [tool('ok'), { name: 5, inputSchema: {} }, { name: 'noSchema' }, { name: 'arraySchema', inputSchema: [] }, null] },
      empty: { hash: 'h', tools: [] },
    });
    const lists = new LastToolLists(store);
    assert.deepEqual(['junk', 'noHash', 'empty'].map((id) => lists.toolsOf(id, 'h')), [undefined, undefined, undefined]);
    assert.deepEqual(lists.toolsOf('mixed', 'h')?.map((t) => t.name), ['ok']);
    lists.remember('big', 'h', [tool('huge', 'x'.repeat(MAX_KEPT_TOOL_LIST_CHARS))]);
    assert.deepEqual(store.values.get('big'), { hash: 'h', tools: [] });
    assert.equal(new LastToolLists(store).toolsOf('big', 'h'), undefined);
  });
});
