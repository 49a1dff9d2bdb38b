import * as assert from 'node:assert/strict';
import { runToolLoop, type LoopModel } from '../../../src/core/chat/toolCallLoop';
import {
  contentTextOf,
  type ModelMessage,
  type ModelPart,
  type ModelTool,
} from '../../../src/core/models/modelMessages';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';
import { ToolInvoker } from '../../../src/core/tools/toolInvoker';
import { modelToolNames } from '../../../src/core/connection/toolNames';
import { resultText } from '../../../src/core/tools/toolResults';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

/** A model that follows a script: each turn answers with the parts the script gives for what it sees. */
class ScriptedModel implements LoopModel {
  readonly seen: { messages: ModelMessage[]; tools: string[] }[] = [];
  constructor(private readonly script: (turn: number, messages: readonly ModelMessage[]) => ModelPart[]) {}
  async *send(messages: readonly ModelMessage[], tools: readonly ModelTool[]): AsyncIterable<ModelPart> {
    this.seen.push({ messages: [...messages], tools: tools.map((t) => t.name) });
    for (const part of this.script(this.seen.length, messages)) yield part;
  }
}

const user = (text: string): ModelMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });

describe('the chat tool-call loop', () => {
  it('runs the tools a model asks for on a real server and gives it the results until it answers', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ autoApprove: ['add', 'fail'] }) }));
    const server = await running(host, 'fx');
    const invoker = new ToolInvoker(
      host,
      new ToolApprovals(
        { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
        (id) => host.toolPolicy(id),
      ),
      { confirm: async () => 'deny' },
    );
    const names = modelToolNames(server.tools.map((t) => ({ serverId: 'fx', toolName: t.name })));
    const tools: ModelTool[] = [...names.keys()].map((name) => ({ name, description: '', inputSchema: {} }));
    const model = new ScriptedModel((turn, messages) => {
      if (turn === 1)
        return [
          { kind: 'text', text: 'Let me add.' },
          { kind: 'toolCall', callId: 'c1', name: 'fx_add', input: { a: 20, b: 22 } },
          { kind: 'toolCall', callId: 'c2', name: 'fx_fail', input: {} },
        ];
      const results = messages.at(-1)!.parts.filter((p) => p.kind === 'toolResult');
      return [
        {
          kind: 'text',
          text: `Results: ${results.map((r) => (r.kind === 'toolResult' ? `${contentTextOf(r.content)}${r.isError ? ' (error)' : ''}` : '')).join('; ')}`,
        },
      ];
    });
    const text: string[] = [];
    const calls: string[] = [];
    const outcome = await runToolLoop(
      model,
      tools,
      [user('What is 20 + 22?')],
      {
        onText: (t) => text.push(t),
        onToolCall: (c) => calls.push(c.name),
        runTool: async (call) => {
          const target = names.get(call.name)!;
          const done = await invoker.invoke(target.serverId, target.toolName, call.input, { origin: 'model' });
          return { text: done.result ? resultText(done.result) : done.error!, isError: done.outcome !== 'ok' };
        },
      },
      new AbortController().signal,
    );
    assert.deepEqual(calls, ['fx_add', 'fx_fail']);
    assert.deepEqual(text, ['Let me add.', 'Results: 42; The fixture failed on purpose. (error)']);
    assert.deepEqual([outcome.rounds, outcome.stoppedAtLimit], [2, false]);
    assert.equal(model.seen[0].tools.length, server.tools.length);
    assert.deepEqual(
      outcome.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  it('stops after the round limit, offering no tools in the last round, without running more calls', async () => {
    let ran = 0;
    const model = new ScriptedModel((turn) => [{ kind: 'toolCall', callId: `c${turn}`, name: 'loop', input: {} }]);
    const outcome = await runToolLoop(
      model,
      [{ name: 'loop', description: '', inputSchema: {} }],
      [user('go')],
      {
        onText: () => undefined,
        onToolCall: () => undefined,
        runTool: async () => ({ text: String(++ran), isError: false }),
      },
      new AbortController().signal,
      3,
    );
    assert.deepEqual([outcome.rounds, outcome.stoppedAtLimit, ran], [3, true, 2]);
    assert.deepEqual(
      model.seen.map((s) => s.tools),
      [['loop'], ['loop'], []],
    );
  });

  it('ends at once when cancelled, without running the requested tool', async () => {
    const controller = new AbortController();
    let ran = 0;
    const model = new ScriptedModel(() => {
      controller.abort();
      return [{ kind: 'toolCall', callId: 'c', name: 'x', input: {} }];
    });
    const outcome = await runToolLoop(
      model,
      [],
      [user('go')],
      {
        onText: () => undefined,
        onToolCall: () => undefined,
        runTool: async () => ({ text: String(++ran), isError: false }),
      },
      controller.signal,
    );
    assert.deepEqual([outcome.rounds, ran], [1, 0]);
  });
});
