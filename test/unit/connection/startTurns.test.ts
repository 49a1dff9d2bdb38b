import * as assert from 'node:assert/strict';
import { isAlive } from '../../../src/core/process/processTree';
import { StartSlots } from '../../../src/core/connection/startSlots';
import {
  fixture,
  httpDefinition,
  spawnLog,
  startHttpFixture,
  stdioDefinition,
  waitFor,
  type RunningProcess,
} from '../support/fixtures';
import { connect, disposeConnections } from '../support/connections';

const WAITING = 'waiting for its turn to start: 1 servers start at once on this machine';

afterEach(disposeConnections);

describe('Servers no one waits for take turns to start their processes (StartSlots), against real servers', () => {
  let http: RunningProcess;
  before(async () => {
    http = await startHttpFixture();
  });
  after(() => http.stop());

  it('starts a second stdio server once the first has its lists, saying meanwhile why it waits; an HTTP server does not wait', async () => {
    const slots = new StartSlots(1, 60_000);
    // The silent server never answers: it keeps the one slot until it is stopped.
    const silent = connect(stdioDefinition('silent', fixture('silentStdio'), { startTimeoutMs: 60_000 }), {
      startSlots: slots,
    }).connection;
    const spawns = spawnLog();
    const { connection: second, log } = connect(
      stdioDefinition('second', fixture('legacyStdio'), { env: { FIXTURE_SPAWN_LOG: spawns.file } }),
      { startSlots: slots },
    );
    const remote = connect(httpDefinition('remote', `http://127.0.0.1:${http.port}/mcp`), {
      startSlots: slots,
    }).connection;
    const silentStarted = silent.start(false);
    const changes: [string, boolean | undefined, string | undefined][] = [];
    second.onDidChange((snapshot) => changes.push([snapshot.status, snapshot.waitingForTurn, snapshot.reason]));
    const secondStarted = second.start(false);
    assert.deepEqual(
      changes,
      [['starting', true, WAITING]],
      'its first change already says it waits (one change to draw, not two)',
    );
    await remote.start();
    assert.equal(remote.snapshot().status, 'running', 'an HTTP server starts no process and takes no turn');
    const waiting = second.snapshot();
    assert.deepEqual([waiting.status, waiting.waitingForTurn, waiting.reason], ['starting', true, WAITING]);
    assert.equal(spawns.count(), 0, 'nothing is spawned before its turn');
    assert.ok(
      log.lines.includes('info Waiting for its turn to start: 1 server(s) go first (1 start at once on this machine).'),
      log.text(),
    );
    await silent.stop();
    await silentStarted;
    await secondStarted;
    const running = second.snapshot();
    assert.equal(running.status, 'running', running.reason);
    assert.deepEqual([running.reason, running.waitingForTurn], [undefined, undefined], 'the wait is over');
    assert.deepEqual(
      changes.slice(0, 2),
      [
        ['starting', true, WAITING],
        ['starting', undefined, undefined],
      ],
      'its turn came: starting, without the reason',
    );
    assert.ok(running.pid && isAlive(running.pid));
    assert.equal(spawns.count(), 1);
    assert.equal(slots.ahead, 0, 'the slot is free again once the start has its lists');
  });

  it('lets the next server start when one keeps its turn past the hold limit', async () => {
    const slots = new StartSlots(1, 300);
    const silent = connect(stdioDefinition('silent', fixture('silentStdio'), { startTimeoutMs: 60_000 }), {
      startSlots: slots,
    }).connection;
    const second = connect(stdioDefinition('second', fixture('legacyStdio')), { startSlots: slots }).connection;
    void silent.start(false);
    await second.start(false);
    assert.equal(second.snapshot().status, 'running', second.snapshot().reason);
    assert.equal(silent.snapshot().status, 'starting', 'the silent server is still starting: it only lost its turn');
  });

  it('a server stopped while it waits for its turn starts nothing, and gives its turn to the next', async () => {
    const slots = new StartSlots(1, 60_000);
    const silent = connect(stdioDefinition('silent', fixture('silentStdio'), { startTimeoutMs: 60_000 }), {
      startSlots: slots,
    }).connection;
    const spawns = spawnLog();
    const stopped = connect(
      stdioDefinition('stopped', fixture('legacyStdio'), { env: { FIXTURE_SPAWN_LOG: spawns.file } }),
      { startSlots: slots },
    ).connection;
    const next = connect(stdioDefinition('next', fixture('legacyStdio')), { startSlots: slots }).connection;
    void silent.start(false);
    const stoppedStart = stopped.start(false);
    const nextStart = next.start(false);
    await waitFor(
      'both wait for their turn',
      () => stopped.snapshot().waitingForTurn && next.snapshot().waitingForTurn,
    );
    const stoppedSnapshots: unknown[] = [];
    stopped.onDidChange((snapshot) => stoppedSnapshots.push([snapshot.status, snapshot.waitingForTurn]));
    await stopped.stop();
    await stoppedStart;
    assert.deepEqual(
      stoppedSnapshots,
      [
        ['stopping', undefined],
        ['stopped', undefined],
      ],
      'a stopping server is not shown as waiting to start',
    );
    assert.equal(slots.ahead, 2, 'the silent start and the next one; the stopped one left the queue');
    await silent.stop();
    await nextStart;
    assert.equal(next.snapshot().status, 'running', next.snapshot().reason);
    assert.equal(stopped.snapshot().status, 'stopped', 'the stopped server did not start when the turn came');
    assert.equal(spawns.count(), 0, 'it never spawned its process');
  });
});
