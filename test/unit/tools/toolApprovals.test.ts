import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolPolicySettings } from '../../../src/core/config/serverDefinition';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';

const tool = (extra: Partial<Tool> = {}): Tool => ({
  name: 'search',
  description: 'Searches.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

function approvals(policies: Record<string, ToolPolicySettings> = {}) {
  const stores = {
    session: new MemoryApprovalStore(),
    workspace: new MemoryApprovalStore(),
    always: new MemoryApprovalStore(),
  };
  return { stores, approvals: new ToolApprovals(stores, (id) => policies[id] ?? { autoApprove: [], trusted: false }) };
}

describe('tool approvals', () => {
  it('asks for a tool nobody approved', () => {
    assert.deepEqual(approvals().approvals.decide('a', tool()), { kind: 'ask', changes: [] });
  });

  it('remembers an approval per server, tool and scope', async () => {
    const { approvals: a } = approvals();
    await a.approve('a', tool(), 'workspace');
    assert.deepEqual(a.decide('a', tool()), { kind: 'allowed', because: 'workspace' });
    assert.equal(a.decide('b', tool()).kind, 'ask');
    assert.equal(a.decide('a', tool({ name: 'other' })).kind, 'ask');
  });

  it('asks again and names what changed when the description, schema or annotations change', async () => {
    const { approvals: a } = approvals();
    await a.approve('a', tool(), 'always');
    const changed = tool({ description: 'Searches and deletes.', annotations: { destructiveHint: true } });
    const decision = a.decide('a', changed);
    assert.equal(decision.kind, 'ask');
    assert.deepEqual(decision.kind === 'ask' && decision.changes.map((c) => [c.field, c.before, c.after]), [
      ['description', 'Searches.', 'Searches and deletes.'],
      ['annotations', '(none)', '{\n  "destructiveHint": true\n}'],
    ]);
    const schemaChange = a.decide(
      'a',
      tool({ inputSchema: { type: 'object', properties: { q: { type: 'number' } } } }),
    );
    assert.deepEqual(schemaChange.kind === 'ask' && schemaChange.changes.map((c) => c.field), ['input schema']);
  });

  it('treats key order in schemas as no change', async () => {
    const { approvals: a } = approvals();
    await a.approve(
      'a',
      tool({ inputSchema: { type: 'object', properties: { q: { type: 'string', minLength: 1 } } } }),
      'session',
    );
    assert.equal(
      a.decide('a', tool({ inputSchema: { properties: { q: { minLength: 1, type: 'string' } }, type: 'object' } }))
        .kind,
      'allowed',
    );
  });

  it('a new approval replaces older ones in other scopes', async () => {
    const { approvals: a, stores } = approvals();
    await a.approve('a', tool(), 'always');
    await a.approve('a', tool({ description: 'New.' }), 'session');
    assert.equal(stores.always.get('a\u0000search'), undefined);
    assert.deepEqual(a.decide('a', tool({ description: 'New.' })), { kind: 'allowed', because: 'session' });
  });

  it('honours autoApprove from settings by name or "*"', () => {
    const { approvals: a } = approvals({
      named: { autoApprove: ['search'], trusted: false },
      all: { autoApprove: ['*'], trusted: false },
    });
    assert.deepEqual(a.decide('named', tool()), { kind: 'allowed', because: 'autoApprove' });
    assert.equal(a.decide('named', tool({ name: 'delete' })).kind, 'ask');
    assert.equal(a.decide('all', tool({ name: 'delete' })).kind, 'allowed');
  });

  it('honours readOnlyHint only for servers marked trusted, and never with destructiveHint', () => {
    const { approvals: a } = approvals({ trusted: { autoApprove: [], trusted: true } });
    const readOnly = tool({ annotations: { readOnlyHint: true } });
    assert.equal(a.decide('untrusted', readOnly).kind, 'ask');
    assert.deepEqual(a.decide('trusted', readOnly), { kind: 'allowed', because: 'trusted read-only' });
    assert.equal(a.decide('trusted', tool({ annotations: { readOnlyHint: true, destructiveHint: true } })).kind, 'ask');
  });
});

describe('tool approvals across servers that share an id', () => {
  it('keeps an approval to the server it was given for (its command line or URL)', async () => {
    const { approvals: a } = approvals();
    await a.approve('everything\u0001npx -y @modelcontextprotocol/server-everything', tool(), 'always');
    assert.equal(
      a.decide('everything', tool(), 'everything\u0001npx -y @modelcontextprotocol/server-everything').kind,
      'allowed',
    );
    assert.equal(a.decide('everything', tool(), 'everything\u0001node ./evil.js').kind, 'ask');
  });
});
