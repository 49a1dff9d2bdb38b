import * as assert from 'node:assert/strict';
import type { Progress } from '@modelcontextprotocol/client';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';
import { ToolInvoker } from '../../../src/core/tools/toolInvoker';
import type { ConfirmationAnswer, ToolConfirmationRequest } from '../../../src/core/tools/toolConfirmation';
import { resultItems, resultText } from '../../../src/core/tools/toolResults';
import { EVERYTHING, waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

async function setup(answers: ConfirmationAnswer[] = [], servers: Record<string, unknown> = { fx: legacy() }) {
  const { host } = harness();
  hosts.push(host);
  await host.applySettings(entries(servers));
  for (const id of Object.keys(servers)) await running(host, id);
  const asked: ToolConfirmationRequest[] = [];
  const stores = {
    session: new MemoryApprovalStore(),
    workspace: new MemoryApprovalStore(),
    always: new MemoryApprovalStore(),
  };
  const approvals = new ToolApprovals(stores, (id) => host.toolPolicy(id));
  const invoker = new ToolInvoker(host, approvals, {
    confirm: async (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
  });
  return { host, invoker, asked };
}

describe('ToolInvoker against a real fixture server', () => {
  it('confirms, runs and times a call, and remembers "for this session"', async () => {
    const { invoker, asked } = await setup(['session']);
    const first = await invoker.invoke('fx', 'add', { a: 2, b: 3 }, { origin: 'user' });
    assert.equal(first.outcome, 'ok');
    assert.equal(resultText(first.result!), '5');
    assert.ok(first.durationMs > 0);
    assert.deepEqual(
      asked.map((r) => [r.serverId, r.tool.name, r.args, r.origin]),
      [['fx', 'add', { a: 2, b: 3 }, 'user']],
    );
    const second = await invoker.invoke('fx', 'add', { a: 1, b: 1 }, { origin: 'model' });
    assert.equal(resultText(second.result!), '2');
    assert.equal(asked.length, 1, 'the session approval covers the second call');
  });

  it('"once" approves one call only, and a denial never reaches the server', async () => {
    const { invoker, asked } = await setup(['once', 'deny']);
    assert.equal((await invoker.invoke('fx', 'echo', { text: 'hi' }, { origin: 'user' })).outcome, 'ok');
    const denied = await invoker.invoke('fx', 'echo', { text: 'again' }, { origin: 'model' });
    assert.deepEqual(
      [denied.outcome, denied.error, denied.result],
      ['denied', 'The user declined to run "echo" on MCP server "fx".', undefined],
    );
    assert.equal(asked.length, 2);
  });

  it('skips confirmation for tools listed in autoApprove', async () => {
    const { invoker, asked } = await setup([], { fx: legacy({ autoApprove: ['echo'] }) });
    assert.equal((await invoker.invoke('fx', 'echo', { text: 'hi' }, { origin: 'model' })).outcome, 'ok');
    assert.equal(asked.length, 0);
  });

  it('sorts tool errors, protocol errors and invalid structured output apart', async () => {
    const { invoker } = await setup([], { fx: legacy({ autoApprove: ['*'] }) });
    const failed = await invoker.invoke('fx', 'fail', {}, { origin: 'user' });
    assert.deepEqual([failed.outcome, resultText(failed.result!)], ['toolError', 'The fixture failed on purpose.']);
    const bad = await invoker.invoke('fx', 'add', { a: 'x' }, { origin: 'user' });
    // Invalid arguments are a tool execution error (the model can correct them), not a protocol error.
    assert.equal(bad.outcome, 'toolError');
    assert.match(resultText(bad.result!), /number/i);
    const invalid = await invoker.invoke('fx', 'report', { valid: false }, { origin: 'user' });
    assert.equal(invalid.outcome, 'invalidOutput');
    assert.match(invalid.error!, /does not match the tool's output schema/);
    const valid = await invoker.invoke('fx', 'report', { valid: true }, { origin: 'user' });
    assert.deepEqual(resultItems(valid.result!).at(-1), {
      kind: 'structured',
      json: '{\n  "total": 42,\n  "currency": "EUR"\n}',
    });
    const hung = await invoker.invoke('fx', 'hang', {}, { origin: 'user', signal: AbortSignal.timeout(200) });
    assert.equal(hung.outcome, 'protocolError');
    assert.match(hung.error!, /cancel/i);
  });

  it('reports progress from the server while the call runs', async () => {
    const { invoker } = await setup([], { fx: modern({ autoApprove: ['slow'] }) });
    const seen: Progress[] = [];
    const result = await invoker.invoke('fx', 'slow', { ms: 350 }, { origin: 'user', onProgress: (p) => seen.push(p) });
    assert.equal(resultText(result.result!), 'waited 350 ms');
    assert.ok(seen.length >= 2, `saw ${seen.length} progress notifications`);
    assert.equal(seen[0].total, 350);
  });

  it('maps every content kind of a result for the panel and for a model', async () => {
    const { invoker } = await setup([], { fx: legacy({ autoApprove: ['gallery'] }) });
    const { result } = await invoker.invoke('fx', 'gallery', {}, { origin: 'user' });
    assert.deepEqual(
      resultItems(result!).map((i) => i.kind),
      ['text', 'image', 'resourceLink', 'resource'],
    );
    assert.equal((resultItems(result!)[0] as { markdown: boolean }).markdown, true);
    assert.equal(
      resultText(result!),
      '# Gallery\n\nA **bold** claim and a `code` span.\n[image image/png, 70 bytes]\n[resource link fixture://readme "readme"]\nResource fixture://note:\nAn embedded note.',
    );
  });

  it('names the server and its tools when a tool is not there', async () => {
    const { invoker } = await setup();
    await assert.rejects(
      invoker.invoke('fx', 'nope', {}, { origin: 'user' }),
      /MCP server "fx" has no tool "nope" \(it offers echo, add, /,
    );
    await assert.rejects(invoker.invoke('ghost', 'x', {}, { origin: 'user' }), /There is no MCP server "ghost"/);
  });
});

describe('tools that require tasks (server-everything, 2025-11-25)', function () {
  this.timeout(60_000);
  const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'], autoApprove: ['*'] };

  it('runs a taskSupport "required" tool as a task, reporting its status as progress', async () => {
    const { invoker, host } = await setup([], { ev: everything });
    const seen: string[] = [];
    const done = await invoker.invoke(
      'ev',
      'simulate-research-query',
      { topic: 'tides' },
      { origin: 'user', onProgress: (p) => seen.push(p.message ?? '') },
    );
    assert.equal(done.outcome, 'ok', done.error);
    assert.match(resultText(done.result!), /# Research Report: tides/);
    assert.ok(seen.includes('Gathering sources...'), seen.join(' | '));
    // Listed with the 2026-07-28 tasks, for the MCP Tasks view.
    const [task] = host.tasks.list();
    assert.deepEqual(
      [task.serverId, task.toolName, task.protocol, task.status, resultText(task.result!) === resultText(done.result!)],
      ['ev', 'simulate-research-query', '2025-11-25', 'completed', true],
    );
  });

  it('cancels the task on the server when the user cancels', async () => {
    const { invoker, host } = await setup([], { ev: everything });
    const controller = new AbortController();
    const started = Date.now();
    const done = await invoker.invoke(
      'ev',
      'simulate-research-query',
      { topic: 'tides' },
      { origin: 'user', signal: controller.signal, onProgress: () => controller.abort() },
    );
    assert.equal(done.outcome, 'protocolError');
    assert.match(done.error!, /cancel/i);
    assert.ok(Date.now() - started < 3_000, 'ends without waiting for the task');
    assert.equal(host.tasks.list()[0].status, 'cancelled');
    // The server still answers, so the cancellation left the session usable.
    assert.match(resultText(await host.callTool('ev', 'get-sum', { a: 1, b: 2 })), /3/);
  });
});

describe('confirmations of the same tool waiting at once (an app polling a tool)', () => {
  /** A dialog the test answers: each shown one waits until answered, or closes when its signal aborts. */
  function dialogs() {
    const shown: { request: ToolConfirmationRequest; answer: (a: ConfirmationAnswer) => void; closed: boolean }[] = [];
    const port = {
      confirm: (request: ToolConfirmationRequest, signal: AbortSignal) =>
        new Promise<ConfirmationAnswer>((resolve, reject) => {
          const dialog = { request, answer: resolve, closed: false };
          shown.push(dialog);
          signal.addEventListener(
            'abort',
            () => {
              dialog.closed = true;
              reject(signal.reason);
            },
            { once: true },
          );
        }),
    };
    return { shown, port };
  }

  async function setupWith(port: ConstructorParameters<typeof ToolInvoker>[2]) {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    await running(host, 'fx');
    const approvals = new ToolApprovals(
      { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
      (id) => host.toolPolicy(id),
    );
    return new ToolInvoker(host, approvals, port);
  }

  it('asks once for five identical calls, and the one answer runs them all', async () => {
    const { shown, port } = dialogs();
    const invoker = await setupWith(port);
    const calls = Array.from({ length: 5 }, () => invoker.invoke('fx', 'echo', { text: 'poll' }, { origin: 'app' }));
    await waitFor('the dialog', () => shown.length > 0);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(shown.length, 1, 'one dialog for five identical calls');
    shown[0].answer('once');
    const done = await Promise.all(calls);
    assert.deepEqual(
      done.map((d) => [d.outcome, resultText(d.result!)]),
      Array(5).fill(['ok', 'poll']),
    );
  });

  /** Two calls of echo from an app with different arguments, once the first one's dialog shows. */
  async function twoCalls() {
    const { shown, port } = dialogs();
    const invoker = await setupWith(port);
    const first = invoker.invoke('fx', 'echo', { text: 'one' }, { origin: 'app' });
    const second = invoker.invoke('fx', 'echo', { text: 'two' }, { origin: 'app' });
    await waitFor('the first dialog', () => shown.length === 1);
    return { shown, first, second };
  }

  it('shows one dialog of a tool at a time, and a call the first answer allowed for the session runs without one', async () => {
    const { shown, first, second } = await twoCalls();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(shown.length, 1, 'the second waits behind the first instead of queueing a dialog');
    shown[0].answer('session');
    assert.deepEqual(
      (await Promise.all([first, second])).map((d) => resultText(d.result!)),
      ['one', 'two'],
    );
    assert.equal(shown.length, 1, 'the session approval answered the second call: no dialog was left to answer');
  });

  it('asks for the next call of a tool once the first answer was for that call only', async () => {
    const { shown, first, second } = await twoCalls();
    shown[0].answer('once');
    assert.equal((await first).outcome, 'ok');
    await waitFor('the second dialog', () => shown.length === 2);
    assert.deepEqual(shown[1].request.args, { text: 'two' });
    shown[1].answer('deny');
    assert.equal((await second).outcome, 'denied');
  });
});
