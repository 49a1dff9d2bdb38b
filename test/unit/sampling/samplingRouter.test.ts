import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ModelPart } from '../../../src/core/models/modelMessages';
import type { ModelInfo } from '../../../src/core/sampling/modelSelection';
import type { SamplingConversation, SamplingResult } from '../../../src/core/sampling/samplingConversation';
import {
  SamplingRouter,
  type SamplingDecision,
  type SamplingPolicy,
  type SamplingReview,
  type SamplingReviewRequest,
} from '../../../src/core/sampling/samplingRouter';
import { EVERYTHING, fixture, waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const fixtureModel: ModelInfo = {
  id: 'fixture-model',
  name: 'Fixture Model',
  family: 'fixture',
  vendor: 'test',
  maxInputTokens: 100_000,
};
const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');

/** A scripted model: answers "<id> answers: <every text part>" in two chunks, or what the script says. */
function scriptedModel(script?: (conversation: SamplingConversation) => ModelPart[], models = [fixtureModel]) {
  const seen: SamplingConversation[] = [];
  return {
    seen,
    backend: {
      models: async () => models,
      async *stream(
        model: ModelInfo,
        conversation: SamplingConversation,
        signal: AbortSignal,
      ): AsyncIterable<ModelPart> {
        seen.push(conversation);
        const texts = conversation.messages.flatMap((m) => m.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])));
        const parts = script?.(conversation) ?? [
          { kind: 'text', text: `${model.id} answers: ` },
          { kind: 'text', text: texts.join(' | ') },
        ];
        for (const part of parts) {
          if (signal.aborted) return;
          yield part;
        }
      },
    },
  };
}

/** A scripted user: decides on each request and on each answer, and records what was shown. */
function scriptedUser(
  decide: (request: SamplingReviewRequest) => SamplingDecision | Promise<SamplingDecision>,
  review: (result: SamplingResult) => SamplingResult | undefined = (r) => r,
) {
  const shown: {
    request: SamplingReviewRequest;
    streamed: string[];
    closed?: string | null;
    signal: AbortSignal;
    cancel: AbortController;
  }[] = [];
  return {
    shown,
    port: {
      open(request: SamplingReviewRequest, signal: AbortSignal): SamplingReview {
        const entry: (typeof shown)[number] = { request, streamed: [], signal, cancel: new AbortController() };
        shown.push(entry);
        return {
          userCancel: entry.cancel.signal,
          decide: async () => decide(request),
          streaming: (t) => entry.streamed.push(t),
          reviewAnswer: async (result) => review(result),
          close: (failure) => (entry.closed = failure ?? null),
        };
      },
    },
  };
}

async function setup(
  policy: Partial<SamplingPolicy>,
  user: ReturnType<typeof scriptedUser>,
  model = scriptedModel(),
  server: Record<string, unknown> = { command: process.execPath, args: [EVERYTHING, 'stdio'] },
) {
  const notified: string[] = [];
  const router = new SamplingRouter({
    backend: model.backend,
    approval: user.port,
    policyFor: () => ({ mode: 'ask', models: [], reviewResponse: true, ...policy }),
    notify: (m) => notified.push(m),
  });
  const { host } = harness({ sampling: router });
  hosts.push(host);
  await host.applySettings(entries({ ev: server }));
  await running(host, 'ev');
  return { host, router, model, notified };
}

const approve = (request: SamplingReviewRequest): SamplingDecision => ({
  approved: true,
  params: request.params,
  model: fixtureModel,
});

describe('SamplingRouter with server-everything over stdio (2025 era)', function () {
  this.timeout(30_000);

  it('declares sampling, asks the user, streams the answer to them, and returns it to the server', async () => {
    const user = scriptedUser(approve);
    const { host, router } = await setup({}, user);
    assert.ok(
      host.server('ev')!.tools.some((t) => t.name === 'trigger-sampling-request'),
      'the server offers its sampling tool once the client declares sampling',
    );
    const result = await host.callTool('ev', 'trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 });
    assert.match(
      text(result),
      /fixture-model answers: You are a helpful test server\. \| Resource trigger-sampling-request context: Say hi/,
    );
    assert.equal(user.shown.length, 1);
    const [{ request, streamed, closed }] = user.shown;
    assert.equal(request.params.systemPrompt, 'You are a helpful test server.');
    assert.equal(request.params.maxTokens, 20);
    assert.deepEqual(
      [request.askFirst, request.reviewResponse, request.choice.model.id],
      [true, true, 'fixture-model'],
    );
    assert.deepEqual(streamed, [
      'fixture-model answers: ',
      'fixture-model answers: You are a helpful test server. | Resource trigger-sampling-request context: Say hi',
    ]);
    assert.equal(closed, null, 'the panel is closed with no failure');
    assert.deepEqual(
      router.history().map((r) => [r.serverId, r.outcome, r.model, r.summary, r.detail]),
      [['ev', 'answered', 'fixture-model', 'Resource trigger-sampling-request context: Say hi', 'endTurn']],
    );
  });

  it('sends the request as the user edited it, and the answer as they edited it', async () => {
    const user = scriptedUser(
      (request) => ({
        approved: true,
        model: fixtureModel,
        params: {
          ...request.params,
          systemPrompt: 'Be brief.',
          messages: [{ role: 'user', content: { type: 'text', text: 'Edited question' } }],
        },
      }),
      (result) => ({ ...result, content: { type: 'text', text: 'Edited answer' } }) as SamplingResult,
    );
    const { host, model } = await setup({}, user);
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'Original' })), /Edited answer/);
    assert.deepEqual(
      model.seen[0].messages.map((m) => m.parts.map((p) => (p.kind === 'text' ? p.text : p.kind))),
      [['Be brief.'], ['Edited question']],
    );
  });

  it('answers -1 "User rejected sampling request" when the user denies, and when they discard the answer', async () => {
    const denied = await setup(
      {},
      scriptedUser(() => ({ approved: false })),
    );
    assert.match(
      text(await denied.host.callTool('ev', 'trigger-sampling-request', { prompt: 'Say hi' })),
      /User rejected sampling request/,
    );
    assert.equal(denied.router.history()[0].outcome, 'rejected');
    assert.equal(denied.model.seen.length, 0, 'nothing reached the model');
    await denied.host.dispose();
    const discarded = await setup(
      {},
      scriptedUser(approve, () => undefined),
    );
    assert.match(
      text(await discarded.host.callTool('ev', 'trigger-sampling-request', { prompt: 'Say hi' })),
      /User rejected sampling request \(the model's answer was discarded\)/,
    );
    assert.deepEqual(
      discarded.router.history().map((r) => [r.outcome, r.detail]),
      [['rejected', 'answer discarded']],
    );
  });

  it('never shows a request when the policy allows always (unless answers are reviewed), and refuses when it denies', async () => {
    const always = await setup(
      { mode: 'allowAlways', reviewResponse: false },
      scriptedUser(() => assert.fail('the user must not be asked')),
    );
    assert.match(
      text(await always.host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })),
      /fixture-model answers/,
    );
    await always.host.dispose();
    const reviewed = scriptedUser(() => assert.fail('the request itself is not asked about'));
    const alwaysReviewed = await setup({ mode: 'allowAlways', reviewResponse: true }, reviewed);
    assert.match(
      text(await alwaysReviewed.host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })),
      /fixture-model answers/,
    );
    assert.equal(reviewed.shown[0].request.askFirst, false);
    await alwaysReviewed.host.dispose();
    const denied = await setup(
      { mode: 'deny' },
      scriptedUser(() => assert.fail('the user must not be asked')),
    );
    assert.match(
      text(await denied.host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })),
      /Sampling is turned off for MCP server "ev"/,
    );
  });

  it('refuses requests over the rate limit with a message that says when to retry', async () => {
    const { host } = await setup(
      { mode: 'allowAlways', reviewResponse: false, maxRequestsPerMinute: 1 },
      scriptedUser(() => assert.fail('not asked')),
    );
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'one' })), /answers/);
    assert.match(
      text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'two' })),
      /rate limit reached for MCP server "ev": at most 1 per minute \(next in \d+ s\)/,
    );
  });

  it('says so to the server and to the user when no allowed model is available', async () => {
    const { host, notified } = await setup(
      { mode: 'allowAlways', models: ['gpt-4o'] },
      scriptedUser(() => assert.fail('not asked')),
    );
    assert.match(
      text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })),
      /No allowed language model is available for MCP server "ev" \(sampling.models: gpt-4o\)/,
    );
    assert.equal(notified.length, 1);
    assert.match(
      notified[0],
      /MCP server "ev" asked for a completion\. .* change the server's sampling\.models setting, then retry\./,
    );
  });

  it('offers the model the user picked last time for the server first', async () => {
    const other: ModelInfo = { ...fixtureModel, id: 'other-model', name: 'Other Model', family: 'other' };
    const user = scriptedUser((request) => ({ approved: true, params: request.params, model: other }));
    const { host } = await setup({}, user, scriptedModel(undefined, [fixtureModel, other]));
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'one' })), /other-model answers/);
    await host.callTool('ev', 'trigger-sampling-request', { prompt: 'two' });
    assert.deepEqual(
      user.shown.map((s) => [s.request.choice.model.id, s.request.choice.reason]),
      [
        ['fixture-model', 'The first model the editor offers.'],
        ['other-model', 'The model you chose last time for this server.'],
      ],
    );
  });

  it('cuts the answer at the first stop sequence and says so in stopReason', async () => {
    const model = scriptedModel(() => [
      { kind: 'text', text: 'one two ST' },
      { kind: 'text', text: 'OP three' },
      { kind: 'text', text: 'never read' },
    ]);
    const user = scriptedUser((request) => ({
      approved: true,
      model: fixtureModel,
      params: { ...request.params, stopSequences: ['STOP'] },
    }));
    const { router } = await setup({}, user, model);
    const result = await router.handle(
      'ev',
      { messages: [{ role: 'user', content: { type: 'text', text: 'count' } }], maxTokens: 10 },
      new AbortController().signal,
    );
    assert.deepEqual([result.stopReason, result.content], ['stopSequence', { type: 'text', text: 'one two ' }]);
  });

  it('closes the panel and cancels the model when the server cancels', async () => {
    let release!: () => void;
    const waiting = new Promise<void>((r) => (release = r));
    const user = scriptedUser(async (request) => {
      await waiting;
      return approve(request);
    });
    const { router } = await setup({}, user);
    const abort = new AbortController();
    const pending = router.handle(
      'ev',
      { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
      abort.signal,
    );
    await new Promise((r) => setTimeout(r, 20));
    abort.abort(new Error('Cancelled by the server'));
    await assert.rejects(pending, /Cancelled by the server/);
    release();
    assert.equal(user.shown[0].closed, null);
    assert.equal(router.history()[0].outcome, 'cancelled');
  });

  it('stops the model and tells the server the user rejected the request when the user cancels mid-answer', async () => {
    let stopped = false;
    const user = scriptedUser(approve);
    const model = {
      seen: [],
      backend: {
        models: async () => [fixtureModel],
        async *stream(
          _model: ModelInfo,
          _conversation: SamplingConversation,
          signal: AbortSignal,
        ): AsyncIterable<ModelPart> {
          yield { kind: 'text', text: 'Once upon a time' };
          user.shown[0].cancel.abort(); // the user presses Cancel while the model writes
          await new Promise((r) => setTimeout(r, 10));
          stopped = signal.aborted;
          if (!signal.aborted) yield { kind: 'text', text: ' and on and on' };
        },
      },
    };
    const { host, router } = await setup({}, user, model as never);
    assert.match(
      text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'A long story' })),
      /User rejected sampling request \(cancelled while the model was answering\)/,
    );
    assert.equal(stopped, true, 'the model request was cancelled');
    assert.deepEqual(
      router.history().map((r) => [r.outcome, r.detail]),
      [['rejected', 'cancelled while the model answered']],
    );
  });

  it('refuses content it cannot pass to a model, before anyone sees it', async () => {
    const user = scriptedUser(() => assert.fail('not asked'));
    const { router } = await setup({}, user);
    await assert.rejects(
      router.handle(
        'ev',
        {
          messages: [{ role: 'user', content: { type: 'resource_link', uri: 'x://y', name: 'y' } as never }],
          maxTokens: 10,
        },
        new AbortController().signal,
      ),
      (e: Error & { code?: number }) =>
        e.code === -32602 && /Unsupported content type "resource_link" in message 1/.test(e.message),
    );
  });
});

describe('SamplingRouter with our fixture servers', function () {
  this.timeout(30_000);

  it('passes tools to the model and returns its tool call as tool_use with stopReason "toolUse" (2025 era, stdio)', async () => {
    const model = scriptedModel((c) => [
      { kind: 'text', text: `tools: ${c.tools.map((t) => t.name).join(',')} mode: ${c.toolMode}` },
      { kind: 'toolCall', callId: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const { host } = await setup(
      { mode: 'allowAlways', reviewResponse: false },
      scriptedUser(() => assert.fail('not asked')),
      model,
      legacy({ args: [fixture('legacyStdio'), '--sampling-tools'] }),
    );
    const result = JSON.parse(
      text(await host.callTool('ev', 'sample', { prompt: 'Weather in Paris?', tools: true, toolChoice: 'required' })),
    );
    assert.equal(result.stopReason, 'toolUse');
    assert.deepEqual(result.content, [
      { type: 'text', text: 'tools: get_weather mode: required' },
      { type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it("maps a finished tool round into the model's call and result parts", async () => {
    const model = scriptedModel((c) => [
      {
        kind: 'text',
        text: JSON.stringify(
          c.messages.map((m) => [
            m.role,
            m.parts.map((p) =>
              p.kind === 'toolResult'
                ? `result ${p.callId}: ${p.content.map((x) => (x.kind === 'text' ? x.text : '')).join('')}`
                : p.kind === 'toolCall'
                  ? `call ${p.name} ${JSON.stringify(p.input)}`
                  : p.kind === 'text'
                    ? p.text
                    : p.kind,
            ),
          ]),
        ),
      },
    ]);
    const { host } = await setup(
      { mode: 'allowAlways', reviewResponse: false },
      scriptedUser(() => assert.fail('not asked')),
      model,
      legacy({ args: [fixture('legacyStdio'), '--sampling-tools'] }),
    );
    const result = JSON.parse(
      text(await host.callTool('ev', 'sample', { prompt: 'Weather in Paris?', tools: true, history: true })),
    );
    assert.deepEqual(JSON.parse(result.content[0].text), [
      ['user', ['Weather in Paris?']],
      ['assistant', ['call get_weather {"city":"Paris"}']],
      ['user', ['result w1: 18 °C, sunny']],
    ]);
  });

  it('closes the request in front of the user when the server gives up (notifications/cancelled)', async () => {
    const user = scriptedUser(() => new Promise<never>(() => undefined));
    const { host, router } = await setup(
      {},
      user,
      scriptedModel(),
      legacy({ args: [fixture('legacyStdio'), '--sampling-tools'] }),
    );
    const result = await host.callTool('ev', 'sample', { prompt: 'Anyone there?', cancelAfterMs: 300 });
    assert.match(text(result), /sampling failed: .*timed out/i);
    await waitFor('the panel to close', () => user.shown[0]?.closed === null);
    assert.equal(user.shown[0].signal.aborted, true);
    assert.equal(router.history()[0].outcome, 'cancelled');
  });

  it('does not time the server out while its request waits for the user (the idle timeout stands still)', async () => {
    const user = scriptedUser(async (request) => {
      await new Promise((r) => setTimeout(r, 1800)); // longer than the 1 s request timeout
      return approve(request);
    });
    const { host } = await setup(
      {},
      user,
      scriptedModel(),
      legacy({ args: [fixture('legacyStdio'), '--sampling-tools'], requestTimeoutMs: 1000 }),
    );
    const result = JSON.parse(text(await host.callTool('ev', 'sample', { prompt: 'take your time' })));
    assert.equal(result.content.text, 'fixture-model answers: take your time');
    await assert.rejects(
      host.callTool('ev', 'slow', { ms: 2500 }, undefined, () => undefined).then(() => host.callTool('ev', 'hang', {})),
      /did not answer tools\/call "hang" within 1 s/,
    );
  });

  it('answers sampling asked through input_required (2026-07-28 over stdio)', async () => {
    const user = scriptedUser(approve);
    const { host } = await setup(
      {},
      user,
      scriptedModel(),
      modern({ args: [fixture('modernStdio'), '--sampling-tools'] }),
    );
    assert.equal(host.server('ev')!.protocolVersion, '2026-07-28');
    const result = JSON.parse(text(await host.callTool('ev', 'sample', { prompt: 'Hello from the modern era' })));
    assert.deepEqual(result.content, { type: 'text', text: 'fixture-model answers: Hello from the modern era' });
    assert.equal(user.shown.length, 1);
  });
});
