import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { pollInterval, pollTask } from '../../../src/core/tasks/taskPolling';
import { resumeTasksWhenRunning, serverTaskChannel } from '../../../src/core/host/serverTaskChannel';
import { createdTaskOf, TASKS_REQUIRED_CODE } from '../../../src/core/tasks/taskResults';
import { TaskTracker, type StoredTask } from '../../../src/core/tasks/taskTracker';
import { resultText } from '../../../src/core/tools/toolResults';
import { fixture, startHttpFixture, waitFor, type RunningProcess } from '../support/fixtures';
import { entries, harness, hosts, modern, node, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const taskServer = (pollMs = 150) =>
  modern({ args: [...modern().args, '--task-tools', '--task-poll-ms', String(pollMs)] });
function memoryStore(initial: StoredTask[] = []) {
  let saved: readonly StoredTask[] = initial;
  return {
    load: () => saved,
    save: (tasks: readonly StoredTask[]) => void (saved = tasks),
    get saved() {
      return saved;
    },
  };
}

async function hostWith(tracker?: TaskTracker, server = taskServer()) {
  const { host } = harness({ tasks: tracker });
  hosts.push(host);
  await host.applySettings(entries({ fx: server }));
  await running(host, 'fx');
  return host;
}

describe('tasks (2026-07-28 extension) against a real fixture server', function () {
  this.timeout(60_000);

  it('follows a task from working to its result, waiting the poll interval the server asks for and echoing each requestState', async () => {
    const host = await hostWith(undefined, taskServer(300));
    const result = await host.callTool('fx', 'task-sleep', { ms: 700 });
    // The fixture refuses a requestState it did not issue.
    assert.equal(resultText(result), 'slept 700 ms');
    const [view] = host.tasks.list();
    assert.deepEqual(
      [view.serverId, view.toolName, view.protocol, view.status, view.ttlSeconds],
      ['fx', 'task-sleep', '2026-07-28', 'completed', 600],
    );
    assert.ok(view.endedAt! >= view.startedAt);

    // The same task flow at the poll level: every wait is the server's pollIntervalMilliseconds.
    const waits: number[] = [];
    const real = serverTaskChannel(() => host.connection('fx'));
    // Each poll must echo the requestState of the answer before it (the fixture only checks it was issued).
    const echoed: [string | undefined, string | undefined][] = [];
    let latest: string | undefined;
    const channel = {
      ...real,
      get: async (taskId: string, requestState: string | undefined, signal: AbortSignal) => {
        echoed.push([requestState, latest]);
        const task = await real.get(taskId, requestState, signal);
        latest = task.requestState;
        return task;
      },
    };
    const created = createdTaskOf(
      await host
        .connection('fx')
        .request('tools/call', (client) => client.callTool({ name: 'task-sleep', arguments: { ms: 500 } })),
    );
    assert.equal(created?.status, 'working');
    latest = created!.requestState;
    const states: string[] = [];
    const polled = await pollTask(
      channel,
      created!,
      {
        onState: (t) => states.push(t.status),
        sleep: (ms) => new Promise((r) => setTimeout(r, waits.push(ms) && ms)),
      },
      new AbortController().signal,
    );
    assert.equal(resultText(polled), 'slept 500 ms');
    assert.ok(waits.length >= 1 && waits.every((ms) => ms === 300), waits.join(', '));
    assert.deepEqual([states[0], states.at(-1)], ['working', 'completed']);
    assert.ok(
      echoed.length >= 2 && echoed.every(([sent, expected]) => sent === expected && typeof sent === 'string'),
      JSON.stringify(echoed),
    );
  });

  it('waits the poll interval the server asks (within 100 ms and 30 s), doubling it after each failed poll', () => {
    const task = (ms?: number) => ({ taskId: 't', status: 'working', pollIntervalMilliseconds: ms });
    assert.deepEqual(
      [
        pollInterval(task(300), 0),
        pollInterval(task(300), 1),
        pollInterval(task(300), 2),
        pollInterval(task(5), 0),
        pollInterval(task(), 0),
        pollInterval(task(60_000), 0),
        pollInterval(task(300), 10),
      ],
      [300, 600, 1200, 100, 1000, 30_000, 30_000],
    );
  });

  it("reports a failed task with the server's error, and a task past its TTL as expired", async () => {
    const host = await hostWith();
    await assert.rejects(
      host.callTool('fx', 'task-fail', {}),
      /Task task-\S+ failed: The task failed on purpose\. \(-32603\)\./,
    );
    await assert.rejects(
      host.callTool('fx', 'task-expire', { ttlSeconds: 1 }),
      /outlived its time to live \(1 s\) without finishing/,
    );
    assert.deepEqual(
      host.tasks.list().map((t) => [t.toolName, t.status]),
      [
        ['task-expire', 'expired'],
        ['task-fail', 'failed'],
      ],
    );
  });

  it('answers input_required once per key through tasks/update, then gets the result', async () => {
    const host = await hostWith();
    const created = createdTaskOf(
      await host
        .connection('fx')
        .request('tools/call', (client) => client.callTool({ name: 'task-ask', arguments: {} })),
    );
    const real = serverTaskChannel(() => host.connection('fx'));
    const asked: unknown[] = [];
    const channel = {
      ...real,
      answer: async (method: string, params: unknown) => (
        asked.push({ method, params }),
        { action: 'accept', content: { name: 'Ada' } }
      ),
    };
    const result = await pollTask(channel, created!, { onState: () => undefined }, new AbortController().signal);
    assert.equal(resultText(result), 'Hello, Ada.');
    // Polled several times while input was outstanding, the request was answered once.
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0], {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Your name, for the task',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
        },
      },
    });
  });

  it('cancels a task from the tracker (tasks/cancel) and from the caller, and the call ends', async () => {
    const host = await hostWith();
    const call = host.callTool('fx', 'task-sleep', { ms: 60_000 });
    const view = await waitFor('the task listed', () => host.tasks.list().find((t) => t.status === 'working'));
    host.tasks.cancel(view.key);
    await assert.rejects(call, /Cancelled from the MCP Tasks view/);
    assert.equal(host.tasks.get(view.key)?.status, 'cancelled');

    const controller = new AbortController();
    const second = host.callTool('fx', 'task-sleep', { ms: 60_000 }, controller.signal);
    await waitFor('the second task', () => host.tasks.list().length === 2 && host.tasks.list()[0].status === 'working');
    controller.abort(new Error('stopped by the caller'));
    await assert.rejects(second, /stopped by the caller/);
    assert.equal(host.tasks.list()[0].status, 'cancelled');
  });

  it('a server that requires tasks answers -32021 to a client that did not declare the extension', async () => {
    const client = new Client({ name: 'bare', version: '0' }, { versionNegotiation: { mode: 'auto' } } as never);
    await client.connect(new StdioClientTransport({ command: node, args: [fixture('modernStdio'), '--task-tools'] }));
    try {
      await assert.rejects(
        client.callTool({ name: 'task-sleep', arguments: { ms: 10 } }),
        (error: { code?: number; message: string }) => {
          assert.equal(error.code, TASKS_REQUIRED_CODE);
          assert.match(error.message, /runs only as a task: declare the io\.modelcontextprotocol\/tasks extension/);
          return true;
        },
      );
    } finally {
      await client.close();
    }
  });

  describe('after a window reload', () => {
    let http: RunningProcess;
    before(async () => (http = await startHttpFixture(['--task-tools'])));
    after(() => http?.stop());

    /** A first window that starts a task of `ms` on the HTTP fixture and closes while it runs; what it stored. */
    async function windowLeavingATask(ms: number) {
      const store = memoryStore();
      const server = { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` };
      const first = await hostWith(new TaskTracker(store), server as never);
      const call = first.callTool('fx', 'task-sleep', { ms });
      const started = await waitFor('stored', () => store.saved.length === 1 && store.saved[0]);
      await first.dispose();
      await call.catch(() => undefined);
      return { store, server, started };
    }

    it('picks up an unfinished task within its TTL from storage, without a caller, and forgets it once done', async () => {
      const { store, server, started } = await windowLeavingATask(2_500);
      assert.deepEqual(
        [started.serverId, started.toolName, typeof started.requestState],
        ['fx', 'task-sleep', 'string'],
      );
      // The window closed: nothing cancelled, the task still stored.
      assert.equal(store.saved.length, 1);

      const tracker = new TaskTracker(store);
      const second = await hostWith(tracker, server as never);
      const resuming = resumeTasksWhenRunning(second);
      const done = await waitFor(
        'resumed and done',
        () => tracker.list().find((t) => t.status === 'completed'),
        20_000,
      );
      resuming.dispose();
      assert.deepEqual([done.taskId, done.resumed, resultText(done.result!)], [started.taskId, true, 'slept 2500 ms']);
      assert.equal(store.saved.length, 0);
    });

    it('starts a server that starts when needed for its unfinished tasks, and not for tasks past their TTL', async () => {
      const { store, server, started } = await windowLeavingATask(2_000);

      // The next window: the server now starts when needed, and only its task needs it.
      const tracker = new TaskTracker(store);
      const { host } = harness({ tasks: tracker });
      hosts.push(host);
      await host.applySettings(
        entries({
          fx: { ...server, autoStart: 'onDemand' } as never,
          idle: { ...server, autoStart: 'onDemand' } as never,
        }),
      );
      assert.equal(host.server('fx')!.startsWhenNeeded, true);
      const resuming = resumeTasksWhenRunning(host);
      const done = await waitFor(
        'started, resumed and done',
        () => tracker.list().find((t) => t.status === 'completed'),
        20_000,
      );
      resuming.dispose();
      assert.deepEqual([done.taskId, done.resumed, resultText(done.result!)], [started.taskId, true, 'slept 2000 ms']);
      assert.deepEqual(
        [host.server('fx')!.status, host.server('idle')!.status],
        ['running', 'stopped'],
        'a server without unfinished tasks still waits',
      );

      // A task past its TTL is no reason to start one.
      const expired = new TaskTracker(
        memoryStore([
          { serverId: 'fx', toolName: 'task-sleep', taskId: 'old', startedAt: Date.now() - 10_000, ttlSeconds: 5 },
        ]),
      );
      const later = harness({ tasks: expired });
      hosts.push(later.host);
      await later.host.applySettings(entries({ fx: { ...server, autoStart: 'onDemand' } as never }));
      const asked: unknown[] = [];
      const startOnDemand = later.host.startOnDemand.bind(later.host);
      later.host.startOnDemand = (ids, signal) => (asked.push(ids), startOnDemand(ids, signal));
      resumeTasksWhenRunning(later.host).dispose();
      assert.deepEqual([asked, later.host.server('fx')!.status], [[], 'stopped']);
    });

    it('drops a stored task whose TTL has passed instead of polling it', async () => {
      const store = memoryStore([
        { serverId: 'fx', toolName: 'task-sleep', taskId: 'old', startedAt: Date.now() - 10_000, ttlSeconds: 5 },
      ]);
      const tracker = new TaskTracker(store);
      const host = await hostWith(tracker, { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` } as never);
      resumeTasksWhenRunning(host).dispose();
      assert.deepEqual([store.saved.length, tracker.list().length], [0, 0]);
    });
  });
});
