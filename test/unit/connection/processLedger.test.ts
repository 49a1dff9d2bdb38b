import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ProcessLedger, startTimeOf } from '../../../src/core/process/processLedger';
import { isAlive } from '../../../src/core/process/processTree';
import { connect, disposeConnections } from '../support/connections';
import { fixture, stdioDefinition, waitFor, type RecordingLog } from '../support/fixtures';
import { tempDir } from '../../support/tempDir';
import { runningServer } from '../../../src/core/gateway/gatewayMirror';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

const helperPids = (log: RecordingLog) =>
  [...log.text().matchAll(/fixture: helper pid (\d+)/g)].map((m) => Number(m[1]));
/** A window whose extension host is gone: a process that already exited. */
function crashedWindow(): { pid: number; started: string } {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return { pid: pid!, started: 'a start time no process has' };
}
const noRestart = { enabled: false, maxRestarts: 0, windowMs: 60_000, initialDelayMs: 1_000, maxDelayMs: 1_000 };

describe('processes left by a window that crashed', function () {
  this.timeout(30_000);
  afterEach(disposeConnections);
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));
  before(function () {
    if (process.platform !== 'linux') this.skip(); // own process groups and /proc are Linux's
  });

  it('the next window ends a server that ignores SIGTERM, and its helper, that a crashed window left running', async () => {
    const dir = tempDir('mcp-ledger-');
    const crashed = new ProcessLedger(dir, crashedWindow());
    const { connection, log } = connect(
      stdioDefinition('stubborn', fixture('legacyStdio'), {
        args: ['--ignore-sigterm', '--spawn-helper'],
        restart: noRestart,
      }),
      { ledger: crashed },
    );
    await connection.start();
    const pid = connection.snapshot().pid!;
    const [helper] = await waitFor('the helper', () => helperPids(log).length > 0 && helperPids(log), 10_000);
    await crashed.flushed();
    const [file] = readdirSync(dir);
    const recorded = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    assert.deepEqual(recorded.processes, [{ pid, started: startTimeOf(pid), serverId: 'stubborn' }]);

    const ended = await new ProcessLedger(dir).endLeftovers();
    assert.deepEqual(ended, [{ serverId: 'stubborn', pid }]);
    await waitFor('the server and its helper to end', () => !isAlive(pid) && !isAlive(helper), 10_000);
    assert.equal(existsSync(path.join(dir, file)), false, "the crashed window's record is gone");
  });

  it('leaves alone the servers of a window that still runs, and forgets a server once it exits', async () => {
    const dir = tempDir('mcp-ledger-');
    const running = new ProcessLedger(dir, { pid: process.pid, started: startTimeOf(process.pid)! });
    const { connection } = connect(stdioDefinition('live', fixture('legacyStdio'), { restart: noRestart }), {
      ledger: running,
    });
    await connection.start();
    const pid = connection.snapshot().pid!;
    await running.flushed();
    const other = new ProcessLedger(dir, crashedWindow());
    assert.deepEqual(await other.endLeftovers(), []);
    assert.ok(isAlive(pid));
    await connection.stop();
    await running.flushed();
    assert.deepEqual(
      readdirSync(dir).filter((name) => name !== 'spawns.jsonl'),
      [],
      'nothing is recorded once the server exited',
    );
  });

  it('keeps a record of every spawn: when, which server, which program, by which window; never an argument', async () => {
    const dir = tempDir('mcp-ledger-');
    const ledger = new ProcessLedger(dir, { pid: process.pid, started: startTimeOf(process.pid)! });
    const { connection } = connect(
      stdioDefinition('audited', fixture('legacyStdio'), { args: ['--name', 'secret-value-42'], restart: noRestart }),
      { ledger },
    );
    await connection.start();
    const pid = connection.snapshot().pid!;
    await connection.stop();
    await ledger.spawns.flushed();
    const text = readFileSync(path.join(dir, 'spawns.jsonl'), 'utf8');
    assert.doesNotMatch(text, /secret-value-42/, 'arguments are kept as a digest only');
    const [entry] = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(entry.pid, pid);
    assert.equal(entry.server, 'audited');
    assert.equal(entry.window, process.pid);
    assert.equal(entry.command, process.execPath);
    assert.deepEqual((entry.args as { count: number }).count, 3);
    assert.equal(entry.sandboxed, false);
    assert.ok(!Number.isNaN(Date.parse(String(entry.time))));
  });

  it('records who asked for each start and how each process ended: stopped, crashed, restarted', async () => {
    const dir = tempDir('mcp-ledger-');
    const ledger = new ProcessLedger(dir, { pid: process.pid, started: startTimeOf(process.pid)! });
    const { connection } = connect(
      stdioDefinition('crashy', fixture('legacyStdio'), {
        args: ['--crash-after', '1'],
        restart: { ...noRestart, enabled: true, maxRestarts: 1, initialDelayMs: 100, maxDelayMs: 100 },
      }),
      { ledger },
    );
    await connection.start();
    const first = connection.snapshot().pid!;
    await connection
      .request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o))
      .catch(() => undefined);
    await waitFor(
      'the restart',
      () =>
        connection.snapshot().status === 'running' && connection.snapshot().pid !== first && connection.snapshot().pid,
    );
    const second = connection.snapshot().pid!;
    await connection.stop();
    const lines = (await ledger.spawns.read()).map((line) =>
      line.event === 'started' ? ['started', line.pid, line.askedBy] : ['ended', line.pid, line.ended],
    );
    assert.deepEqual(lines, [
      ['started', first, 'this window'],
      ['ended', first, 'exited with code 3'],
      ['started', second, 'a restart'],
      ['ended', second, 'stopped by MCP Host'],
    ]);
  });

  it("records starts asked by list learning, by the window's start and by VS Code's agents through the gateway", async () => {
    const dir = tempDir('mcp-ledger-');
    const ledger = new ProcessLedger(dir, { pid: process.pid, started: startTimeOf(process.pid)! });
    const { host } = harness({ ledger });
    hosts.push(host);
    await host.applySettings(
      entries({
        learned: legacy({ autoStart: 'onDemand' }),
        eager: legacy({ autoStart: 'startup' }),
        asked: legacy({ autoStart: 'onDemand' }),
      }),
    );
    await running(host, 'eager');
    await host.learnLists('learned');
    await runningServer(host, 'asked');
    const started = (await ledger.spawns.read()).flatMap((line) =>
      line.event === 'started' ? [[line.server, line.askedBy]] : [],
    );
    assert.deepEqual(started.sort(), [
      ['asked', "VS Code's agents"],
      ['eager', 'window start'],
      ['learned', 'list learning'],
    ]);
  });

  it('records what runs after many servers start and stop at once (changes coalesced into few writes)', async () => {
    const dir = tempDir('mcp-ledger-');
    const ledger = new ProcessLedger(dir, { pid: process.pid, started: startTimeOf(process.pid)! });
    const ids = Array.from({ length: 8 }, (_, i) => `s${i}`);
    const connections = ids.map(
      (id) => connect(stdioDefinition(id, fixture('legacyStdio'), { restart: noRestart }), { ledger }).connection,
    );
    await Promise.all(connections.map((c) => c.start()));
    await ledger.flushed();
    const recorded = () =>
      JSON.parse(readFileSync(path.join(dir, `server-processes-${process.pid}.json`), 'utf8')) as {
        processes: { pid: number; serverId: string }[];
      };
    assert.deepEqual(
      recorded()
        .processes.map((p) => p.serverId)
        .sort(),
      ids,
    );
    await Promise.all(connections.slice(0, 5).map((c) => c.stop()));
    await ledger.flushed();
    assert.deepEqual(
      recorded()
        .processes.map((p) => p.serverId)
        .sort(),
      ids.slice(5),
    );
    assert.deepEqual(
      recorded()
        .processes.map((p) => p.pid)
        .sort(),
      connections
        .slice(5)
        .map((c) => c.snapshot().pid)
        .sort(),
    );
    await Promise.all(connections.slice(5).map((c) => c.stop()));
    await ledger.flushed();
    assert.deepEqual(
      readdirSync(dir).filter((name) => name !== 'spawns.jsonl'),
      [],
      'nothing is recorded once every server exited',
    );
  });

  it('does not end a process that merely reuses a recorded pid', async () => {
    const dir = tempDir('mcp-ledger-');
    // What a crashed window left: a server whose pid this test process now has (another start time).
    const owner = crashedWindow();
    writeFileSync(
      path.join(dir, `server-processes-${owner.pid}.json`),
      JSON.stringify({ owner, processes: [{ pid: process.pid, started: 'an earlier start', serverId: 'old' }] }),
    );
    assert.deepEqual(await new ProcessLedger(dir).endLeftovers(), []);
    assert.deepEqual(readdirSync(dir), [], 'the stale record is forgotten');
  });
});
