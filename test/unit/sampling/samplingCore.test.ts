import * as assert from 'node:assert/strict';
import { isModelAllowed, selectModel, tierOf, type ModelInfo } from '../../../src/core/sampling/modelSelection';
import { SamplingRateLimiter } from '../../../src/core/sampling/samplingRateLimiter';
import { SamplingRequestError, validateSamplingMessages } from '../../../src/core/sampling/samplingValidation';

const model = (id: string, family = id, maxInputTokens = 128_000): ModelInfo => ({ id, name: id, family, vendor: 'test', maxInputTokens });
const haiku = model('claude-haiku-4', 'claude-haiku');
const sonnet = model('claude-sonnet-4', 'claude-sonnet');
const flash = model('gemini-2.5-flash', 'gemini-flash', 1_000_000);
const pro = model('gemini-2.5-pro', 'gemini-pro', 1_000_000);
const plain = model('acme-chat', 'acme');
const all = [haiku, sonnet, flash, pro, plain];

describe('sampling: model selection from preferences', () => {
  it('classes models by name across vendors', () => {
    assert.deepEqual(all.map(tierOf), ['small', 'large', 'small', 'large', 'medium']);
    assert.deepEqual([model('gpt-4o-mini'), model('o4-mini'), model('gpt-5'), model('gemini-exp')].map(tierOf), ['small', 'small', 'large', 'medium']);
  });

  it('takes the first hint that matches an id, family or name, in the server\'s order', () => {
    assert.equal(selectModel(all, { hints: [{ name: 'gpt-4o' }, { name: 'sonnet' }, { name: 'gemini' }] })!.model, sonnet);
    assert.match(selectModel(all, { hints: [{ name: 'SONNET' }] })!.reason, /hint "SONNET"/);
  });

  it('among several models matching a hint, prefers the user\'s choice, then the priorities', () => {
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }] }, pro.id)!.model, pro);
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }], speedPriority: 1 })!.model, flash);
    assert.equal(selectModel(all, { hints: [{ name: 'gemini' }], intelligencePriority: 1 })!.model, pro);
  });

  it('scores priorities when no hint matches: speed and cost favour small models, intelligence large ones', () => {
    assert.equal(tierOf(selectModel(all, { speedPriority: 0.9, costPriority: 0.8, intelligencePriority: 0.1 })!.model), 'small');
    const smart = selectModel(all, { intelligencePriority: 1 })!;
    assert.equal(smart.model, pro, 'the larger context window breaks the tie between large models');
    assert.match(smart.reason, /priorities \(intelligence 1\)/);
  });

  it('falls back to the user\'s choice, or the first model, without preferences', () => {
    assert.deepEqual(selectModel(all, undefined, plain.id), { model: plain, reason: 'your choice' });
    assert.deepEqual(selectModel(all, {}), { model: haiku, reason: 'the first available model' });
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
    assert.throws(() => validateSamplingMessages(messages as never), (e: unknown) => e instanceof SamplingRequestError && e.code === -32602 && pattern.test(e.message));

  it('accepts a conversation where every tool use is answered by results alone', () => {
    validateSamplingMessages([
      { role: 'user', content: text('Weather in Paris and London?') },
      { role: 'assistant', content: [use('a'), use('b')] },
      { role: 'user', content: [result('a'), result('b')] },
    ] as never);
  });

  it('rejects tool results mixed with other content', () => {
    fails([{ role: 'user', content: [result('a'), text('and also')] }], /^Tool results mixed with other content \(message 1\)$/);
  });

  it('rejects a tool use with no result in the next message', () => {
    fails(
      [
        { role: 'assistant', content: [use('a'), use('b')] },
        { role: 'user', content: [result('a')] },
      ],
      /^Tool result missing in request \(tool use "b" in message 1/,
    );
    fails([{ role: 'assistant', content: use('a') }, { role: 'user', content: text('hm') }], /^Tool result missing in request/);
  });
});

describe('sampling: rate limit per server', () => {
  it('refuses requests beyond the limit in a sliding minute and says when the next is allowed', () => {
    let now = 0;
    const limiter = new SamplingRateLimiter(() => now);
    assert.deepEqual([1, 2, 3].map(() => limiter.tryAcquire('a', 2)), [true, true, false]);
    assert.equal(limiter.tryAcquire('b', 2), true, 'each server has its own budget');
    now = 30_000;
    assert.equal(limiter.retryAfterMs('a', 2), 30_000);
    now = 60_001;
    assert.equal(limiter.tryAcquire('a', 2), true);
    assert.equal(limiter.tryAcquire('a', undefined), true, 'no limit set');
  });
});
