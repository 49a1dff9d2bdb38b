import * as assert from 'node:assert/strict';
import { isModelAllowed, selectModel, tierOf, type ModelInfo } from '../../../src/core/sampling/modelSelection';
import { RequestRateLimiter } from '../../../src/core/requestRateLimiter';
import { SamplingRequestError, validateSamplingMessages } from '../../../src/core/sampling/samplingValidation';
import type { ModelPart } from '../../../src/core/models/modelMessages';
import {
  applySamplingEdits,
  SamplingAnswer,
  toSamplingConversation,
  withAnswerText,
} from '../../../src/core/sampling/samplingConversation';
import { samplingRequestView } from '../../../src/core/sampling/samplingView';

const model = (id: string, family = id, maxInputTokens = 128_000): ModelInfo => ({
  id,
  name: id,
  family,
  vendor: 'test',
  maxInputTokens,
});
const haiku = model('claude-haiku-4', 'claude-haiku');
const sonnet = model('claude-sonnet-4', 'claude-sonnet');
const flash = model('gemini-2.5-flash', 'gemini-flash', 1_000_000);
const pro = model('gemini-2.5-pro', 'gemini-pro', 1_000_000);
const plain = model('acme-chat', 'acme');
const all = [haiku, sonnet, flash, pro, plain];

describe('sampling: model selection from preferences', () => {
  it('classes models by name across vendors', () => {
    assert.deepEqual(all.map(tierOf), ['small', 'large', 'small', 'large', 'medium']);
    assert.deepEqual([model('gpt-4o-mini'), model('o4-mini'), model('gpt-5'), model('gemini-exp')].map(tierOf), [
      'small',
      'small',
      'large',
      'medium',
    ]);
  });

  it("takes the first hint that matches an id, family or name, in the server's order", () => {
    assert.equal(
      selectModel(all, { hints: [{ name: 'gpt-4o' }, { name: 'sonnet' }, { name: 'gemini' }] })!.model,
      sonnet,
    );
    assert.match(selectModel(all, { hints: [{ name: 'SONNET' }] })!.reason, /hint "SONNET"/);
  });

  it("among several models matching a hint, prefers the user's choice, then the priorities", () => {
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }] }, pro.id)!.model, pro);
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }], speedPriority: 1 })!.model, flash);
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }], intelligencePriority: 1 })!.model, pro);
  });

  it('scores priorities when no hint matches: speed and cost favour small models, intelligence large ones', () => {
    assert.equal(
      tierOf(selectModel(all, { speedPriority: 0.9, costPriority: 0.8, intelligencePriority: 0.1 })!.model),
      'small',
    );
    const smart = selectModel(all, { intelligencePriority: 1 })!;
    assert.equal(smart.model, pro, 'the larger context window breaks the tie between large models');
    assert.match(smart.reason, /priorities best \(intelligence 1\)/);
  });

  it("falls back to the user's choice, or the first model, without preferences", () => {
    assert.deepEqual(selectModel(all, undefined, plain.id), {
      model: plain,
      reason: 'The model you chose last time for this server.',
    });
    assert.deepEqual(selectModel(all, {}), { model: haiku, reason: 'The first model the editor offers.' });
    assert.equal(selectModel([], { hints: [{ name: 'x' }] }), undefined);
  });

  it('allows models by id or family from settings; an empty list allows every model', () => {
    assert.equal(isModelAllowed(sonnet, ['claude-sonnet']), true);
    assert.equal(isModelAllowed(sonnet, ['claude-sonnet-4']), true);
    assert.equal(isModelAllowed(haiku, ['claude-sonnet']), false);
    assert.equal(isModelAllowed(haiku, []), true);
  });
});

describe('sampling: message rules for tool use', () => {
  const use = (id: string) => ({ type: 'tool_use', id, name: 'weather', input: {} });
  const result = (id: string) => ({ type: 'tool_result', toolUseId: id, content: [] });
  const text = (t: string) => ({ type: 'text', text: t });
  const fails = (messages: { role: string; content: unknown }[], pattern: RegExp) =>
    assert.throws(
      () => validateSamplingMessages(messages as never),
      (e: unknown) => e instanceof SamplingRequestError && e.code === -32602 && pattern.test(e.message),
    );

  it('accepts a conversation where every tool use is answered by results alone', () => {
    validateSamplingMessages([
      { role: 'user', content: text('Weather in Paris and London?') },
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: [result('a'), result('b')] },
    ] as never);
  });

  it('rejects tool results mixed with other content', () => {
    fails(
      [{ role: 'user', content: [result('a'), text('and also')] }],
      /^Tool results mixed with other content \(message 1\)$/,
    );
  });

  it('rejects a tool use with no result in the next message', () => {
    fails(
      [
        { role: 'assistant', content: [use('a'), use('b')] },
        { role: 'user', content: [result('a')] },
      ],
      /^Tool result missing in request \(tool use "b" in message 1/,
    );
    fails(
      [
        { role: 'assistant', content: use('a') },
        { role: 'user', content: text('hm') },
      ],
      /^Tool result missing in request/,
    );
  });
});

describe('sampling: rate limit per server', () => {
  it('refuses requests beyond the limit in a sliding minute and says when the next is allowed', () => {
    let now = 0;
    const limiter = new RequestRateLimiter(() => now);
    assert.deepEqual(
      [1, 2, 3].map(() => limiter.tryAcquire('a', 2)),
      [true, true, false],
    );
    assert.equal(limiter.tryAcquire('b', 2), true, 'each server has its own budget');
    now = 30_000;
    assert.equal(limiter.retryAfterMs('a', 2), 30_000);
    now = 60_001;
    assert.equal(limiter.tryAcquire('a', 2), true);
    assert.equal(limiter.tryAcquire('a', undefined), true, 'no limit set');
  });
});

describe('sampling: request and answer mapping', () => {
  const png = Buffer.from([137, 80, 78, 71]).toString('base64');

  it('leads with the system prompt and maps text, images, audio and a tool round to model parts', () => {
    const conversation = toSamplingConversation({
      systemPrompt: 'Be brief.',
      maxTokens: 50,
      temperature: 0.2,
      stopSequences: ['END'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', mimeType: 'image/png', data: png },
            { type: 'audio', mimeType: 'audio/wav', data: png },
          ],
        },
        { role: 'assistant', content: { type: 'tool_use', id: 'u1', name: 'lookup', input: { q: 'x' } } },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'u1',
              content: [
                { type: 'text', text: 'found' },
                { type: 'resource_link', uri: 'file:///a', name: 'a' },
                { type: 'resource', resource: { uri: 'x://t', text: 'inline' } },
              ],
            },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'u2', content: [], structuredContent: { n: 1 }, isError: true }],
        },
      ],
      tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'required' },
    } as never);
    assert.deepEqual(
      conversation.messages.map((m) => [m.role, m.parts.map(describePart)]),
      [
        ['user', ['Be brief.']],
        ['user', ['Look:', 'data image/png 4', 'data audio/wav 4']],
        ['assistant', ['call u1 lookup {"q":"x"}']],
        ['user', ['result u1 [found|Resource: file:///a|inline]']],
        ['user', ['result u2 error [{"n":1}]']],
      ],
    );
    assert.deepEqual(
      [
        conversation.tools.map((t) => t.name),
        conversation.toolMode,
        conversation.maxTokens,
        conversation.temperature,
        conversation.stopSequences,
      ],
      [['lookup'], 'required', 50, 0.2, ['END']],
    );
    const none = toSamplingConversation({
      maxTokens: 5,
      messages: [],
      tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'none' },
    } as never);
    assert.deepEqual([none.tools, none.toolMode], [[], 'auto'], 'toolChoice "none" offers no tools');
  });

  it('builds one content block for requests without tools, noting what it had to leave out', () => {
    const answer = new SamplingAnswer();
    answer.add({ kind: 'text', text: 'Here: ' });
    answer.add({ kind: 'data', mimeType: 'image/png', data: new Uint8Array([1, 2]) });
    answer.add({ kind: 'data', mimeType: 'application/x-thing', data: new Uint8Array([1]) });
    const plain = answer.result('m', false);
    assert.deepEqual(plain.result, {
      role: 'assistant',
      model: 'm',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Here: ' },
    });
    assert.deepEqual(plain.dropped, [
      'application/x-thing data (1 bytes): sampling results carry only text, images and audio',
      'image content: a request without tools gets one content block',
    ]);
    const withTools = answer.result('m', true);
    assert.deepEqual(withTools.result.content, [
      { type: 'text', text: 'Here: ' },
      { type: 'image', mimeType: 'image/png', data: 'AQI=' },
    ]);
  });

  it('finds stop sequences that span streamed chunks and reads no further', () => {
    const answer = new SamplingAnswer(['<END>', 'zz']);
    assert.equal(answer.add({ kind: 'text', text: 'abc<E' }), true);
    assert.equal(answer.add({ kind: 'text', text: 'ND>def' }), false);
    assert.equal(answer.add({ kind: 'text', text: 'more' }), false);
    assert.deepEqual(answer.result('m', false).result, {
      role: 'assistant',
      model: 'm',
      stopReason: 'stopSequence',
      content: { type: 'text', text: 'abc' },
    });
  });

  it("applies the user's edits to the system prompt and text blocks only", () => {
    const params = {
      maxTokens: 5,
      systemPrompt: 'old',
      messages: [
        { role: 'user', content: { type: 'text', text: 'q1' } },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'q2' },
            { type: 'image', mimeType: 'image/png', data: png },
          ],
        },
      ],
    } as never;
    const edited = applySamplingEdits(params, {
      systemPrompt: 'new',
      texts: { '0/0': 'Q1', '1/0': 'Q2', '1/1': 'not an image' },
    });
    assert.deepEqual(edited, {
      maxTokens: 5,
      systemPrompt: 'new',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Q1' } },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Q2' },
            { type: 'image', mimeType: 'image/png', data: png },
          ],
        },
      ],
    });
    const answer = { role: 'assistant', model: 'm', content: { type: 'text', text: 'draft' } } as const;
    assert.deepEqual(withAnswerText(answer, 'final').content, { type: 'text', text: 'final' });
    const calls = {
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: '1', name: 'x', input: {} }],
    } as never;
    assert.equal(withAnswerText(calls, 'final'), calls, 'answers without exactly one text block stay as they are');
  });
});

function describePart(part: ModelPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'data':
      return `data ${part.mimeType} ${part.data.byteLength}`;
    case 'toolCall':
      return `call ${part.callId} ${part.name} ${JSON.stringify(part.input)}`;
    case 'toolResult':
      return `result ${part.callId}${part.isError ? ' error' : ''} [${part.content.map(describePart).join('|')}]`;
  }
}

describe('sampling: what the approval panel shows', () => {
  it('shows every block, the preferences, the tools, and says up front that context is not added', () => {
    const fixture: ModelInfo = model('fixture-model', 'fixture');
    const view = samplingRequestView(
      {
        serverId: 'srv',
        askFirst: true,
        reviewResponse: true,
        models: [fixture],
        choice: { model: fixture, reason: 'The first model the editor offers.' },
        params: {
          maxTokens: 9,
          includeContext: 'allServers',
          modelPreferences: { hints: [{ name: 'claude' }, {}], speedPriority: 0.8 },
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'hi' },
                { type: 'audio', mimeType: 'audio/wav', data: 'AA==' },
              ],
            },
            { role: 'assistant', content: { type: 'tool_use', id: 't', name: 'calc', input: { x: 1 } } },
            {
              role: 'user',
              content: { type: 'tool_result', toolUseId: 't', content: [{ type: 'text', text: '2' }], isError: true },
            },
          ],
          tools: [{ name: 'calc', description: 'Adds.', inputSchema: { type: 'object' } }],
          toolChoice: { mode: 'auto' },
        } as never,
      },
      (id) => `${id} label`,
    );
    assert.deepEqual(view.messages, [
      {
        role: 'user',
        blocks: [
          { kind: 'text', key: '0/0', text: 'hi' },
          { kind: 'audio', mimeType: 'audio/wav', data: 'AA==' },
        ],
      },
      { role: 'assistant', blocks: [{ kind: 'toolUse', id: 't', name: 'calc', input: '{\n  "x": 1\n}' }] },
      { role: 'user', blocks: [{ kind: 'toolResult', toolUseId: 't', text: '2', isError: true }] },
    ]);
    assert.deepEqual(view.preferences, ['hint: claude', 'speed priority: 0.8']);
    assert.deepEqual(
      [view.tools.map((t) => t.name), view.toolChoice, view.models, view.modelId],
      [['calc'], 'auto', [{ id: 'fixture-model', label: 'fixture-model label' }], 'fixture-model'],
    );
    assert.equal(view.notes.length, 1);
    assert.match(view.notes[0], /include context from "allServers"; this host does not add context/);
  });
});
