import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAlive, listDescendants } from '../../../src/core/process/processTree';
import { tempDir } from '../../support/tempDir';
import { connect, disposeConnections } from '../support/connections';
import { fixture, RecordingLog, spawnLog, stdioDefinition, waitFor } from '../support/fixtures';

/** The pids the fixture's helpers announced on stderr ("fixture: helper pid N"). */
function helperPids(log: RecordingLog): number[] {
  return [...log.text().matchAll(/fixture: helper pid (\d+)/g)].map((m) => Number(m[1]));
}

const slowRestart = { enabled: true, maxRestarts: 5, windowMs: 60_000, initialDelayMs: 30_000, maxDelayMs: 30_000 };

describe('processes the host starts, and servers that stop answering', function () {
  this.timeout(30_000);
  afterEach(disposeConnections);

  it('ends the children of a server that crashed, though they were re-parented', async () => {
    const { connection, log } = connect(
      stdioDefinition('crashy', fixture('legacyStdio'), {
        args: ['--spawn-helper', '--crash-after', '1'],
        restart: slowRestart,
      }),
    );
    await connection.start();
    const [helper] = await waitFor('the helper', () => helperPids(log).length > 0 && helperPids(log));
    assert.ok(isAlive(helper));
    await connection
      .request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o))
      .catch(() => undefined);
    await waitFor('the restart to be scheduled', () => connection.snapshot().status === 'restarting');
    assert.match(
      connection.snapshot().reason ?? '',
      /^the process exited with code 3 \(last output: .*fixture: crashing after 1 calls\); restarting in 30s/,
    );
    await waitFor(`helper ${helper} to end`, () => !isAlive(helper), 5_000);
  });

  it('notices a server that closed its stdout but keeps running, and ends it with its children', async () => {
    const { connection, log } = connect(
      stdioDefinition('mute', fixture('legacyStdio'), {
        args: ['--spawn-helper', '--close-stdout-after-ms', '300'],
        restart: slowRestart,
      }),
    );
    await connection.start();
    const pid = connection.snapshot().pid!;
    const [helper] = helperPids(log);
    await waitFor('the restart to be scheduled', () => connection.snapshot().status === 'restarting', 5_000);
    assert.match(
      connection.snapshot().reason ?? '',
      /^the server stopped answering: it closed its output \(stdout\) but kept running; MCP Host ended it/,
    );
    await waitFor(`process ${pid} and helper ${helper} to end`, () => !isAlive(pid) && !isAlive(helper), 5_000);
  });

  it('notices a server that exited while a process it started holds its stdout, and ends that process', async () => {
    const { connection, log } = connect(
      stdioDefinition('holder', fixture('legacyStdio'), {
        args: ['--exit-leaving-holder-after-ms', '300'],
        restart: slowRestart,
      }),
    );
    await connection.start();
    const [holder] = await waitFor('the holder', () => helperPids(log).length > 0 && helperPids(log), 5_000);
    await waitFor('the restart to be scheduled', () => connection.snapshot().status === 'restarting', 5_000);
    assert.match(
      connection.snapshot().reason ?? '',
      /^the server stopped answering: it exited, but a process it started kept its output open; MCP Host ended it/,
    );
    await waitFor(`holder ${holder} to end`, () => !isAlive(holder), 5_000);
  });

  it("a stop while a crashed server's tree is still ending waits for it, and nothing restarts after it", async () => {
    const quickRestart = { enabled: true, maxRestarts: 5, windowMs: 60_000, initialDelayMs: 100, maxDelayMs: 100 };
    const { connection, log } = connect(
      stdioDefinition('crash-then-stop', fixture('legacyStdio'), {
        args: ['--stubborn-helper', '--crash-after', '1'],
        restart: quickRestart,
      }),
    );
    await connection.start();
    const [helper] = await waitFor('the helper', () => helperPids(log).length > 0 && helperPids(log));
    await connection
      .request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o))
      .catch(() => undefined);
    // The helper ignores SIGTERM: ending its group takes the host a second (SIGTERM, then SIGKILL).
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(isAlive(helper), 'the helper is still being ended');
    await connection.stop();
    assert.equal(isAlive(helper), false, 'stop returned only once the helper was gone');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(connection.snapshot().status, 'stopped');
    assert.equal(log.lines.filter((l) => l.startsWith('info Starting:')).length, 1, log.text());
  });

  it('ends and restarts a server that hangs while alive, when its health-check ping goes unanswered', async () => {
    const { connection } = connect(
      stdioDefinition('frozen', fixture('legacyStdio'), {
        args: ['--freeze-after-ms', '300'],
        healthCheck: { intervalSeconds: 1, timeoutSeconds: 1 },
        restart: slowRestart,
      }),
    );
    await connection.start();
    const pid = connection.snapshot().pid!;
    await waitFor('the restart to be scheduled', () => connection.snapshot().status === 'restarting', 10_000);
    assert.match(
      connection.snapshot().reason ?? '',
      /^the server stopped answering: it did not answer a health-check ping within 1 s; MCP Host ended it/,
    );
    await waitFor(`process ${pid} to end`, () => !isAlive(pid), 5_000);
  });

  it('leaves a server that answers its health-check pings alone', async () => {
    const log = new RecordingLog('trace');
    const { connection } = connect(
      stdioDefinition('pinged', fixture('legacyStdio'), { healthCheck: { intervalSeconds: 1, timeoutSeconds: 1 } }),
      { log },
    );
    await connection.start();
    const pid = connection.snapshot().pid!;
    await waitFor(
      'three pings',
      () => log.lines.filter((l) => l.startsWith('trace → ') && l.includes('"method":"ping"')).length >= 3,
      10_000,
    );
    assert.equal(connection.snapshot().status, 'running');
    assert.equal(connection.snapshot().pid, pid);
  });

  it('ends the whole group on stop, even a child that left the tree', async () => {
    const { connection, log } = connect(
      stdioDefinition('family', fixture('legacyStdio'), { args: ['--spawn-helper'] }),
    );
    await connection.start();
    const [helper] = await waitFor('the helper', () => helperPids(log).length > 0 && helperPids(log));
    await connection.stop();
    await waitFor(`helper ${helper} to end`, () => !isAlive(helper), 5_000);
    assert.equal(connection.snapshot().status, 'stopped');
  });

  it('ends a daemon the server started in a session of its own (setsid), which left its tree and group', async () => {
    const pidFile = path.join(tempDir('mcp-daemon-'), 'pid');
    const { connection } = connect(
      stdioDefinition('daemonizer', fixture('legacyStdio'), { args: ['--setsid-daemon', pidFile] }),
    );
    await connection.start();
    const daemon = await waitFor('the daemon', () => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')));
    assert.ok(isAlive(daemon));
    const server = connection.snapshot().pid!;
    assert.ok(!(await listDescendants(server)).includes(daemon), 'the daemon left the tree');
    await connection.stop();
    await waitFor(`daemon ${daemon} to end`, () => !isAlive(daemon), 5_000);
  });

  it('ends a server that ignores the end of stdin and SIGTERM', async () => {
    const { connection } = connect(stdioDefinition('stubborn', fixture('legacyStdio'), { args: ['--ignore-sigterm'] }));
    await connection.start();
    const pid = connection.snapshot().pid!;
    await connection.stop();
    assert.equal(isAlive(pid), false);
    assert.equal(connection.snapshot().status, 'stopped');
  });
});

describe('one process per start', function () {
  this.timeout(30_000);
  afterEach(disposeConnections);

  it('starts a 2025 server once: the era probe runs on it, and its answer keeps it running', async () => {
    const spawned = spawnLog();
    const { connection } = connect(
      stdioDefinition('legacy-once', fixture('legacyStdio'), { env: { FIXTURE_SPAWN_LOG: spawned.file } }),
    );
    await connection.start();
    assert.equal(connection.snapshot().status, 'running');
    assert.equal(connection.snapshot().era, 'legacy');
    assert.equal(spawned.count(), 1);
  });

  it('starts again, for the 2025 handshake, a server that exits on the probe', async () => {
    const { connection, log } = connect(
      stdioDefinition('fragile', fixture('legacyStdio'), { args: ['--exit-on-unknown-before-initialize'] }),
    );
    await connection.start();
    assert.equal(connection.snapshot().status, 'running');
    assert.equal(connection.snapshot().era, 'legacy');
    assert.match(
      log.text(),
      /The server ended during the 2026-07-28 probe \(some 2025 servers exit on it\); starting it again for the 2025 initialize handshake\./,
    );
  });
});
