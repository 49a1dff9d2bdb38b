import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ModelInfo } from '../../../src/core/sampling/modelSelection';
import { SamplingRouter, type SamplingDecision, type SamplingParams, type SamplingPolicy } from '../../../src/core/sampling/samplingRouter';
import { EVERYTHING } from '../support/fixtures';
import { entries, harness, hosts, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const fixtureModel: ModelInfo = { id: 'fixture-model', name: 'Fixture Model', family: 'fixture', vendor: 'test', maxInputTokens: 100_000 };
const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');

/** A host with server-everything whose sampling goes to a scripted model and a scripted user. */
async function setup(policy: Partial<SamplingPolicy>, decide: (params: SamplingParams) => SamplingDecision) {
  const reviewed: SamplingParams[] = [];
  const router = new SamplingRouter(
    {
      models: async () => [fixtureModel],
      complete: async (model, params) => {
        const prompt = params.messages.map((m) => ('text' in m.content ? m.content.text : '')).join(' ');
        return { role: 'assistant', model: model.id, stopReason: 'endTurn', content: { type: 'text', text: `${model.id} answers: ${prompt}` } };
      },
    },
    { review: async ({ params }) => (reviewed.push(params), decide(params)) },
    () => ({ mode: 'ask', models: [], ...policy }),
  );
  const { host } = harness({ sampling: router });
  hosts.push(host);
  await host.applySettings(entries({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }));
  await running(host, 'ev');
  return { host, router, reviewed };
}

describe('SamplingRouter with server-everything over stdio (2025 era)', function () {
  this.timeout(30_000);

  it('declares sampling, asks the user, and returns the model\'s answer to the server', async () => {
    const { host, router, reviewed } = await setup({}, (params) => ({ approved: true, params, model: fixtureModel }));
    assert.ok(host.server('ev')!.tools.some((t) => t.name === 'trigger-sampling-request'), 'the server offers its sampling tool once the client declares sampling');
    const result = await host.callTool('ev', 'trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 });
    assert.match(text(result), /fixture-model answers: Resource trigger-sampling-request context: Say hi/);
    assert.equal(reviewed.length, 1);
    assert.equal(reviewed[0].systemPrompt, 'You are a helpful test server.');
    assert.deepEqual(router.history().map((r) => [r.serverId, r.outcome, r.model]), [['ev', 'answered', 'fixture-model']]);
  });

  it('answers -1 "User rejected sampling request" when the user denies', async () => {
    const { host, router } = await setup({}, () => ({ approved: false }));
    const result = await host.callTool('ev', 'trigger-sampling-request', { prompt: 'Say hi' });
    assert.match(text(result), /User rejected sampling request/);
    assert.equal(router.history()[0].outcome, 'rejected');
  });

  it('never asks the user when the policy allows always, and refuses when it denies', async () => {
    const always = await setup({ mode: 'allowAlways' }, () => assert.fail('the user must not be asked'));
    assert.match(text(await always.host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })), /fixture-model answers/);
    await always.host.dispose();
    const denied = await setup({ mode: 'deny' }, () => assert.fail('the user must not be asked'));
    assert.match(text(await denied.host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })), /Sampling is turned off for MCP server "ev"/);
  });

  it('refuses requests over the rate limit with a message that says when to retry', async () => {
    const { host } = await setup({ mode: 'allowAlways', maxRequestsPerMinute: 1 }, () => assert.fail('not asked'));
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'one' })), /answers/);
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'two' })), /rate limit reached for MCP server "ev": at most 1 per minute \(next in \d+ s\)/);
  });

  it('says so when no allowed model is available', async () => {
    const { host } = await setup({ mode: 'allowAlways', models: ['gpt-4o'] }, () => assert.fail('not asked'));
    assert.match(text(await host.callTool('ev', 'trigger-sampling-request', { prompt: 'x' })), /No allowed language model is available for MCP server "ev" \(sampling.models: gpt-4o\)/);
  });
});
