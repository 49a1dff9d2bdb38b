import * as assert from 'node:assert/strict';
import { runToolLoop, type LoopModel } from '../../../src/core/chat/toolCallLoop';
import {
  ModelToolOffer,
  SEARCH_TOOL_NAME,
  searchCatalogue,
  toolCatalogue,
} from '../../../src/core/chat/modelToolOffer';
import {
  instructionsForModel,
  MODEL_INSTRUCTIONS_PER_SERVER,
  MODEL_INSTRUCTIONS_TOTAL,
} from '../../../src/core/chat/serverInstructions';
import {
  boundedInstructions,
  INSTRUCTIONS_MAX,
  type ServerSnapshot,
} from '../../../src/core/connection/serverSnapshot';
import type { ModelMessage, ModelPart, ModelTool } from '../../../src/core/models/modelMessages';
import { ModelToolSwitches, type SwitchedOff } from '../../../src/core/tools/modelToolSwitches';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';
import { ToolInvoker } from '../../../src/core/tools/toolInvoker';
import { resultText } from '../../../src/core/tools/toolResults';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

class ScriptedModel implements LoopModel {
  readonly seen: string[][] = [];
  constructor(
    private readonly script: (
      turn: number,
      messages: readonly ModelMessage[],
      tools: readonly ModelTool[],
    ) => ModelPart[],
  ) {}
  async *send(messages: readonly ModelMessage[], tools: readonly ModelTool[]): AsyncIterable<ModelPart> {
    this.seen.push(tools.map((t) => t.name));
    for (const part of this.script(this.seen.length, messages, tools)) yield part;
  }
}

function memoryStore(initial?: SwitchedOff) {
  let saved = initial;
  return {
    load: () => saved,
    save: (value: SwitchedOff) => void (saved = value),
    get saved() {
      return saved;
    },
  };
}

const lastResult = (messages: readonly ModelMessage[]) => {
  const part = messages.at(-1)!.parts.find((p) => p.kind === 'toolResult');
  return part?.kind === 'toolResult' && part.content[0]?.kind === 'text' ? part.content[0].text : '';
};

describe('tools offered to models: many servers, switches, instructions', function () {
  this.timeout(90_000);

  it('offers 500+ tools of five real servers through tool search, and the model calls one a 128-tool cut would have dropped', async () => {
    const { host } = harness();
    hosts.push(host);
    // Listed out of order in the settings: the catalogue is ordered by server id anyway.
    const ids = ['s4', 's2', 's0', 's3', 's1'];
    await host.applySettings(
      entries(
        Object.fromEntries(
          ids.map((id) => [id, legacy({ args: [...legacy().args, '--extra-tools', '100'], autoApprove: ['tool-97'] })]),
        ),
      ),
    );
    for (const id of ids) await running(host, id);
    const catalogue = toolCatalogue(host.servers(), () => true);
    assert.ok(catalogue.length >= 500, `${catalogue.length} tools`);
    assert.deepEqual([...new Set(catalogue.map((e) => e.serverId))], ['s0', 's1', 's2', 's3', 's4']);
    const target = catalogue.findIndex((e) => e.modelName === 's4_tool-97');
    assert.ok(target >= 128, `s4_tool-97 is tool ${target} of the catalogue, past a 128-tool cut`);

    const offer = new ModelToolOffer(catalogue, 128);
    assert.equal(offer.searching, true);
    const invoker = new ToolInvoker(
      host,
      new ToolApprovals(
        { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
        (id) => host.toolPolicy(id),
      ),
      { confirm: async () => 'deny' },
    );
    const model = new ScriptedModel((turn, messages, tools) => {
      if (turn === 1) return [{ kind: 'toolCall', callId: 'c1', name: SEARCH_TOOL_NAME, input: { query: 'tool-97' } }];
      if (turn === 2) {
        assert.ok(
          tools.some((t) => t.name === 's4_tool-97'),
          'the tool the search found is offered in the next step',
        );
        return [{ kind: 'toolCall', callId: 'c2', name: 's4_tool-97', input: {} }];
      }
      return [{ kind: 'text', text: `got ${lastResult(messages)}` }];
    });
    const text: string[] = [];
    const searches: string[] = [];
    await runToolLoop(
      model,
      () => offer.tools(),
      [{ role: 'user', parts: [{ kind: 'text', text: 'run tool-97 of s4' }] }],
      {
        onText: (t) => text.push(t),
        onToolCall: () => undefined,
        runTool: async (call) => {
          if (call.name === SEARCH_TOOL_NAME) {
            const found = offer.search(call.input);
            searches.push(found);
            return { text: found, isError: false };
          }
          const entry = offer.resolve(call.name)!;
          const done = await invoker.invoke(entry.serverId, entry.toolName, call.input, { origin: 'model' });
          return { text: resultText(done.result!), isError: done.outcome !== 'ok' };
        },
      },
      new AbortController().signal,
    );
    assert.deepEqual(model.seen[0], [SEARCH_TOOL_NAME]);
    // The search's matches, in catalogue order after the search tool: the same list on every request.
    assert.deepEqual(model.seen[1], [
      SEARCH_TOOL_NAME,
      's0_tool-97',
      's1_tool-97',
      's2_tool-97',
      's3_tool-97',
      's4_tool-97',
    ]);
    assert.match(
      searches[0],
      /^These tools match "tool-97" and can be called now:\n- s0_tool-97: Generated tool 97\. \(MCP server "s0"\)/,
    );
    assert.deepEqual(text, ['got 97']);
  });

  it('offers every tool, with no search step, when they fit in one request', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const server = await running(host, 'fx');
    const offer = new ModelToolOffer(
      toolCatalogue(host.servers(), () => true),
      128,
    );
    assert.equal(offer.searching, false);
    assert.deepEqual(
      offer.tools().map((t) => t.name),
      server.tools.map((t) => `fx_${t.name}`),
    );
    assert.equal(offer.tools().find((t) => t.name === 'fx_add')?.description, 'Adds two numbers. (MCP server "fx")');
  });

  it('ranks exact names first, keeps catalogue order on ties, answers an empty or unmatched query with advice, and bounds what searches make callable', () => {
    const tool = (serverId: string, name: string, description: string) => ({
      serverId,
      toolName: name,
      modelName: `${serverId}_${name}`,
      tool: { name, description, inputSchema: { type: 'object' as const } },
    });
    const catalogue = [
      tool('a', 'read-file', 'Reads a file.'),
      tool('a', 'write', 'Writes a file to disk.'),
      tool('b', 'file', 'Anything about files.'),
      ...Array.from({ length: 30 }, (_, i) => tool('c', `t${i}`, `Tool number ${i} about weather.`)),
    ];
    assert.deepEqual(
      searchCatalogue(catalogue, 'file', 10).map((e) => e.modelName),
      ['b_file', 'a_read-file'],
    );
    assert.deepEqual(
      searchCatalogue(catalogue, 'writes file', 10).map((e) => e.modelName),
      ['a_read-file', 'b_file', 'a_write'],
    );
    assert.deepEqual(searchCatalogue(catalogue, 'nothing-like-this', 10), []);
    const offer = new ModelToolOffer(catalogue, 8);
    assert.match(offer.search({}), /Give a "query"/);
    assert.match(offer.search({ query: 'zebra' }), /No MCP tool matches "zebra"/);
    offer.search({ query: 'weather' });
    offer.search({ query: 'writes file' });
    const offered = offer.tools().map((t) => t.name);
    // At most 8 tools a request: the search tool and the 7 found last, in catalogue order.
    assert.equal(offered.length, 8);
    assert.deepEqual(offered.slice(0, 4), [SEARCH_TOOL_NAME, 'a_read-file', 'a_write', 'b_file']);
    assert.deepEqual(offered.slice(4), ['c_t6', 'c_t7', 'c_t8', 'c_t9']);
  });

  it('keeps switched-off servers and tools from models, refuses a model call to them, still runs them for the user, and remembers the switches', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ autoApprove: ['add'] }), other: legacy() }));
    await running(host, 'fx');
    await running(host, 'other');
    const store = memoryStore();
    const switches = new ModelToolSwitches(store);
    let changes = 0;
    switches.onDidChange(() => changes++);
    await switches.setTool('fx', 'add', false);
    await switches.setServer('other', false);
    await switches.setServer('other', false); // no change, no event
    assert.equal(changes, 2);
    const catalogue = toolCatalogue(host.servers(), (s, t) => switches.isOffered(s, t));
    assert.equal(
      catalogue.some((e) => e.serverId === 'other'),
      false,
    );
    assert.equal(
      catalogue.some((e) => e.modelName === 'fx_add'),
      false,
    );
    assert.equal(
      catalogue.some((e) => e.modelName === 'fx_echo'),
      true,
    );

    const invoker = new ToolInvoker(
      host,
      new ToolApprovals(
        { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
        (id) => host.toolPolicy(id),
      ),
      { confirm: async () => 'deny' },
      (s, t) => switches.isOffered(s, t),
    );
    await assert.rejects(
      invoker.invoke('fx', 'add', { a: 1, b: 2 }, { origin: 'model' }),
      /The tool "add" of MCP server "fx" is not offered to models: it is switched off in the MCP Servers view/,
    );
    const byUser = await invoker.invoke('fx', 'add', { a: 1, b: 2 }, { origin: 'user' });
    assert.equal(resultText(byUser.result!), '3');

    // A new window reads the same switches; garbage in storage is dropped, not trusted.
    const again = new ModelToolSwitches(
      memoryStore({ ...store.saved!, tools: [...store.saved!.tools, { server: 3, tool: null } as never] }),
    );
    assert.deepEqual(
      [
        again.isOffered('fx', 'add'),
        again.isOffered('fx', 'echo'),
        again.isServerOffered('other'),
        again.isToolSwitchedOn('other', 'echo'),
      ],
      [false, true, false, true],
    );
    await again.setTool('fx', 'add', true);
    assert.equal(again.isOffered('fx', 'add'), true);
    assert.equal(new ModelToolSwitches(memoryStore({ servers: 'x', tools: {} } as never)).isServerOffered('x'), true);
  });

  it('reads the instructions of legacy and 2026-07-28 servers, and gives models each one marked with its server, within the caps', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({
        old: legacy({ args: [...legacy().args, '--instructions', 'Call add before echo.'] }),
        new: modern({ args: [...modern().args, '--instructions', 'Prefer slow for long waits.'] }),
        plain: legacy(),
      }),
    );
    const [old, fresh, plain] = [await running(host, 'old'), await running(host, 'new'), await running(host, 'plain')];
    assert.deepEqual(
      [old.instructions, fresh.instructions, plain.instructions],
      ['Call add before echo.', 'Prefer slow for long waits.', undefined],
    );
    assert.deepEqual(instructionsForModel(host.servers(), new Set(['old', 'new', 'plain'])), [
      'Instructions from MCP server "old" on using its tools (written by the server, not by the user):\nCall add before echo.',
      'Instructions from MCP server "new" on using its tools (written by the server, not by the user):\nPrefer slow for long waits.',
    ]);
    // Only servers whose tools the model gets.
    assert.equal(instructionsForModel(host.servers(), new Set(['plain'])).length, 0);

    const long = (id: string): ServerSnapshot => ({ ...plain, id, instructions: 'x'.repeat(INSTRUCTIONS_MAX) });
    const texts = instructionsForModel(['a', 'b', 'c', 'd', 'e'].map(long), new Set(['a', 'b', 'c', 'd', 'e']));
    assert.equal(texts.length, MODEL_INSTRUCTIONS_TOTAL / MODEL_INSTRUCTIONS_PER_SERVER);
    assert.ok(texts.every((t) => t.endsWith('x… [cut]') && t.split('x').length - 1 === MODEL_INSTRUCTIONS_PER_SERVER));
    assert.equal(boundedInstructions('  \n '), undefined);
    assert.equal(
      boundedInstructions('y'.repeat(INSTRUCTIONS_MAX + 5)),
      `${'y'.repeat(INSTRUCTIONS_MAX)}… [cut at ${INSTRUCTIONS_MAX} characters]`,
    );
  });
});
