// Servers that crash, go mute or fail their lists, seen in a real VS Code (code-server).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isAlive, listDescendants } from '../../../src/core/process/processTree';
import type { McpServerInfo } from '../../../src/editor/publicApi';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const legacy = (...args: string[]) => ({
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), ...args],
  // A long first delay, so the view can be seen between the failure and the restart.
  restart: { enabled: true, maxRestarts: 3, windowMs: 60_000, initialDelayMs: 60_000, maxDelayMs: 60_000 },
});

const servers = {
  crashy: legacy('--spawn-helper', '--crash-after', '1'),
  mute: legacy('--close-stdout-after-ms', '15000'),
  warming: legacy('--fail-tools-list', '99'),
  // Lives on after its input ends and ignores SIGTERM: what a crashed window leaves behind.
  stubborn: { ...legacy('--ignore-sigterm', '--spawn-helper'), restart: { enabled: false } },
};

describe('Servers that crash, go mute or fail their lists, in a real VS Code', function () {
  this.timeout(180_000);
  const editor = scenarioEditor(servers);
  const server = async (id: string) =>
    (await editor().control<McpServerInfo[]>('listServers')).find((s) => s.id === id)!;

  it('ends the child of a server that crashed and shows the restart with the exit code', async () => {
    const pid = (await server('crashy')).pid!;
    const [helper] = await listDescendants(pid);
    assert.ok(helper && isAlive(helper), 'the fixture started a helper process');
    await editor()
      .control('callTool', { serverId: 'crashy', name: 'echo', args: { text: 'last words' } })
      .catch(() => undefined);
    // The row says why, where the user looks.
    const row = await editor().workbench.waitForServerDescription('crashy', /^restarting/, 15_000);
    assert.match(
      row,
      /^restarting: the process exited with code 3 \(last output: .*crashing after 1 calls\); restarting in 60s/,
    );
    await waitFor(`helper ${helper} to end`, () => !isAlive(helper), 10_000);
    await editor().workbench.screenshot('14-crash-restarting');
  });

  it('notices a server that closed its stdout but kept running', async () => {
    const pid = (await server('mute')).pid!;
    await editor().workbench.waitForServerDescription('mute', /^restarting/, 30_000);
    assert.match(
      (await server('mute')).reason ?? '',
      /^the server stopped answering: it closed its output \(stdout\) but kept running; MCP Host ended it/,
    );
    await waitFor(`process ${pid} to end`, () => !isAlive(pid), 10_000);
  });

  it('says which list failed instead of showing an empty server', async () => {
    assert.match(await editor().workbench.serverDescription('warming'), /^0 tools · 1 prompt · tools\/list failed$/);
    await editor().workbench.screenshot('15-list-failed');
  });

  it('ends, in the next extension host, the servers a crashed one left running', async function () {
    if (process.platform !== 'linux') this.skip();
    const pid = (await server('stubborn')).pid!;
    const [helper] = await waitFor(
      'the helper',
      async () => (await listDescendants(pid)).length > 0 && listDescendants(pid),
      10_000,
    );
    const { pid: extensionHost } = await editor().control<{ pid: number }>('activation');
    process.kill(extensionHost, 'SIGKILL');
    // The server ignores SIGTERM and the end of its input: nothing of the dead host can end it.
    // code-server starts a new extension host; MCP Host's activation there ends the process
    // groups its ledger says the dead one left (ended-but-unreaped processes count as ended).
    await waitFor(`server ${pid} and helper ${helper} to end`, () => !isAlive(pid) && !isAlive(helper), 90_000);
    const { pid: newHost } = await waitFor(
      'the new extension host',
      async () => {
        const activation = await editor()
          .control<{ pid: number }>('activation')
          .catch(() => undefined);
        return activation && activation.pid !== extensionHost && activation;
      },
      60_000,
    );
    assert.notEqual(newHost, extensionHost);
    const restarted = await waitFor(
      "the new extension host's server",
      async () => {
        const s = await server('stubborn').catch(() => undefined);
        return s?.status === 'running' && s;
      },
      90_000,
    );
    assert.notEqual(restarted.pid, pid);
    // This one ignores SIGTERM and the end of its input: stop it here, so the suite leaves nothing behind.
    const [restartedHelper] = await waitFor(
      'its helper',
      async () => (await listDescendants(restarted.pid!)).length > 0 && listDescendants(restarted.pid!),
      10_000,
    );
    await editor().control('executeCommand', { command: 'mcpHost.stopServer', args: ['stubborn'] });
    await waitFor(
      'the new server and its helper to end',
      () => !isAlive(restarted.pid!) && !isAlive(restartedHelper),
      15_000,
    );
  });
});
