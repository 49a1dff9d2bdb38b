// A server whose lists answer after requestTimeoutMs, on a machine kept busy: the late answers are
// used, the row says the list is late (naming the setting) while it waits, never "0 tools" for good.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { LATE_LIST_FACTOR } from '../../../src/core/connection/serverLists';
import { startHttpFixture, waitFor, type RunningProcess } from '../support/fixtures';
import { startFrontProxy, type FrontProxy } from '../support/frontProxy';
import { entries, harness, hosts } from '../support/hostHarness';

describe('lists that answer later than requestTimeoutMs', function () {
  this.timeout(60_000);
  let backend: RunningProcess;
  let front: FrontProxy;
  /** How long the front holds each tools/list before the server sees it. */
  let listDelayMs = 0;
  const busy: ChildProcess[] = [];
  before(async () => {
    backend = await startHttpFixture();
    front = await startFrontProxy(backend.port, '/legacy', (body) =>
      body.includes('"tools/list"') && listDelayMs > 0 ? { delayMs: listDelayMs } : undefined,
    );
    // Two CPU-bound processes, as on a loaded machine.
    for (let i = 0; i < 2; i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  });
  after(async () => {
    for (const child of busy) child.kill('SIGKILL');
    await front.close();
    await backend.stop();
  });
  afterEach(async () => {
    listDelayMs = 0;
    await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  });

  it('says a list is late, naming requestTimeoutMs and its value, then uses the late answer', async () => {
    listDelayMs = 2_500;
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ slow: { url: `http://127.0.0.1:${front.port}/legacy`, requestTimeoutMs: 1_000 } }),
    );
    const late = await waitFor('the late list on its row', () => {
      const server = host.server('slow');
      return server?.status === 'running' && server.lateLists?.includes('tools/list') ? server : undefined;
    });
    assert.equal(
      late.listProblems?.['tools/list'],
      `tools/list has taken longer than "requestTimeoutMs" (1000 ms); its answer is still awaited, up to ${1_000 * LATE_LIST_FACTOR} ms`,
    );
    const listed = await waitFor(
      'the late answer used',
      () => {
        const server = host.server('slow');
        return server && server.tools.length > 0 ? server : undefined;
      },
      30_000,
    );
    assert.equal(listed.status, 'running');
    // The tools' list only: with a 1 s timeout on a machine this busy, another list may be late too.
    assert.equal(
      listed.listProblems?.['tools/list'],
      undefined,
      'the list is not shown as failed once its answer came',
    );
    assert.equal(listed.lateLists?.includes('tools/list') ?? false, false);
  });

  it('asks again when the answer never comes within its bound, saying how long it waited and the setting', async () => {
    listDelayMs = 1_000 * LATE_LIST_FACTOR + 3_000;
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ silent: { url: `http://127.0.0.1:${front.port}/legacy`, requestTimeoutMs: 1_000 } }),
    );
    const failed = await waitFor(
      'the list given up on',
      () => {
        const server = host.server('silent');
        const problem = server?.listProblems?.['tools/list'];
        return problem && !server.lateLists?.includes('tools/list') ? problem : undefined;
      },
      30_000,
    );
    assert.equal(
      failed,
      `tools/list took longer than ${LATE_LIST_FACTOR} × "requestTimeoutMs" (${1_000 * LATE_LIST_FACTOR} ms)`,
    );
    // Its next attempt, with the server quick again, lists the tools.
    listDelayMs = 0;
    await waitFor('the retry to list the tools', () => (host.server('silent')?.tools.length ?? 0) > 0, 30_000);
    // The tools' list only: with a 1 s timeout on a machine this busy, another list may be late too.
    assert.equal(host.server('silent')?.listProblems?.['tools/list'], undefined);
  });
});
