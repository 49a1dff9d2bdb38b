import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as path from 'node:path';
import { InMemoryEraPinStore } from '../../../src/core/connection/eraPins';
import { isAlive } from '../../../src/core/process/processTree';
import { DEFAULT_RESTART } from '../../../src/core/config/serverDefinition';
import {
  fixture,
  httpDefinition,
  spawnLog,
  RecordingLog,
  startEverythingSse,
  startHttpFixture,
  stdioDefinition,
  waitFor,
  type RunningProcess,
} from '../support/fixtures';
import { connect, disposeConnections } from '../support/connections';
import { tempDir } from '../../support/tempDir';

function text(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

afterEach(disposeConnections);

describe('ServerConnection against real fixture servers', () => {
  it('connects to a legacy stdio server, negotiates a 2025 revision and lists its tools', async () => {
    const { connection } = connect(stdioDefinition('legacy', fixture('legacyStdio')));
    await connection.start();
    const snap = connection.snapshot();
    assert.equal(snap.status, 'running', snap.reason);
    assert.equal(snap.era, 'legacy');
    assert.equal(snap.protocolVersion, '2025-11-25');
    assert.equal(snap.serverName, 'fixture-legacy');
    assert.deepEqual(snap.tools.map((t) => t.name).sort(), [
      'add',
      'add-tool',
      'book-room',
      'echo',
      'fail',
      'gallery',
      'hang',
      'log',
      'mutate-shifty',
      'payload',
      'pid',
      'report',
      'roots',
      'shifty',
      'slow',
      'storm',
    ]);
    assert.deepEqual(
      snap.prompts.map((p) => p.name),
      ['greet'],
    );
    assert.deepEqual(
      snap.resources.map((r) => r.uri),
      ['fixture://readme'],
    );
    assert.ok(snap.pid && isAlive(snap.pid));
    const result = await connection.request('tools/call', (c, o) =>
      c.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, o),
    );
    assert.equal(text(result as { content: unknown[] }), '5');
  });

  it('connects to a modern stdio server in the 2026-07-28 era and answers roots through input requests', async () => {
    const { connection } = connect(stdioDefinition('modern', fixture('modernStdio')));
    await connection.start();
    const snap = connection.snapshot();
    assert.equal(snap.status, 'running', snap.reason);
    assert.equal(snap.era, 'modern');
    assert.equal(snap.protocolVersion, '2026-07-28');
    const result = await connection.request('tools/call', (c, o) => c.callTool({ name: 'roots' }, o));
    assert.deepEqual(JSON.parse(text(result as { content: unknown[] })), [
      { uri: 'file:///work/project', name: 'project' },
    ]);
  });

  it('probes the era on the server’s own process (one spawn per start), and pins it per definition', async () => {
    const spawned = spawnLog();
    const def = stdioDefinition('pinned', fixture('modernStdio'), { env: { FIXTURE_SPAWN_LOG: spawned.file } });
    const pins = new InMemoryEraPinStore();
    const spawns = () => spawned.count();

    const first = connect(def, { pins }).connection;
    await first.start();
    assert.equal(first.snapshot().era, 'modern');
    const probed = spawns();
    assert.equal(probed, 1, 'the auto probe runs on the server itself, not on a second copy');
    assert.equal(pins.get(first.hash)?.kind, 'modern');
    await first.stop();

    const second = connect(def, { pins }).connection;
    await second.start();
    assert.equal(second.snapshot().status, 'running');
    assert.equal(second.snapshot().era, 'modern');
    assert.equal(spawns() - probed, 1, 'a pinned start spawns the server once');
  });

  it('forgets a stale pin and probes again when the pinned era no longer works', async () => {
    const def = stdioDefinition('repinned', fixture('legacyStdio'));
    const pins = new InMemoryEraPinStore();
    const { connection, log } = connect(def, { pins });
    pins.set(connection.hash, {
      kind: 'modern',
      discover: { supportedVersions: ['2026-07-28'], capabilities: {} } as never,
    });
    await connection.start();
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    assert.equal(connection.snapshot().era, 'legacy');
    assert.equal(pins.get(connection.hash)?.kind, 'legacy');
    assert.match(log.text(), /remembered modern protocol era failed/);
  });

  it('skips non-JSON lines a server writes to stdout and keeps working', async () => {
    const { connection, log } = connect(stdioDefinition('noisy', fixture('legacyStdio'), { args: ['--noise'] }));
    await connection.start();
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    const result = await connection.request('tools/call', (c, o) =>
      c.callTool({ name: 'echo', arguments: { text: 'still fine' } }, o),
    );
    assert.equal(text(result as { content: unknown[] }), 'still fine');
    assert.equal(log.lines.filter((l) => l.startsWith('error')).length, 0);
  });

  it('reports a server that never answers initialize as an error once the start timeout passes', async () => {
    const { connection } = connect(stdioDefinition('silent', fixture('silentStdio'), { startTimeoutMs: 1_000 }));
    await connection.start();
    const snap = connection.snapshot();
    assert.equal(snap.status, 'error');
    assert.match(snap.reason ?? '', /time/i);
    assert.equal(snap.pid, undefined);
  });

  it('holds a start the server never answers to "startTimeoutMs" in all: the era probe and the 2025 handshake share it', async () => {
    // Before, the probe had its own timeout and the handshake after it the whole of startTimeoutMs.
    // The library's timer for the handshake is due after the start's own end, so what ends the
    // start is the start's deadline, whatever the machine's load.
    const log = new RecordingLog('trace');
    const { connection } = connect(
      stdioDefinition('silent-budget', fixture('silentStdio'), { startTimeoutMs: 2_000 }),
      {
        log,
      },
    );
    await connection.start();
    const snap = connection.snapshot();
    assert.equal(snap.status, 'error');
    assert.match(snap.reason ?? '', /did not answer the handshake within 2 s \("startTimeoutMs"\)/);
    const sent = log.lines
      .filter((l) => l.startsWith('trace → '))
      .map((l) => (JSON.parse(l.slice(8)) as { method?: string }).method);
    assert.deepEqual(sent, ['server/discover', 'initialize'], 'the probe left time for the 2025 handshake');
    assert.ok(
      log.lines.some((l) => l.includes('within "startTimeoutMs" (2000 ms), the era probe included')),
      `the start's deadline ended it, not the library's timeout after it:\n${log.lines.join('\n')}`,
    );
  });

  it('ends a start at once when stopped during the era probe (the probe does not wait out its timeout)', async () => {
    for (const delayMs of [0, 50]) {
      const { connection } = connect(
        stdioDefinition(`silent-${delayMs}`, fixture('silentStdio'), { startTimeoutMs: 60_000 }),
      );
      let settled = false;
      const started = connection.start().finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await connection.stop();
      // stop() waits for the start it overtook (for at most 5 s): the start has settled with it.
      assert.equal(
        settled,
        true,
        `stopped ${delayMs} ms after its start, the start was still under way when stop() returned`,
      );
      await started;
      assert.equal(connection.snapshot().status, 'stopped');
    }
  });

  it('names the missing command and the PATH it searched instead of a bare ENOENT', async () => {
    const { connection } = connect(stdioDefinition('missing', 'x', { command: 'definitely-not-installed-mcp' }));
    await connection.start();
    const snap = connection.snapshot();
    assert.equal(snap.status, 'error');
    assert.match(snap.reason ?? '', /command `definitely-not-installed-mcp` not found \(searched PATH: .+\)/);
    assert.doesNotMatch(snap.reason ?? '', /ENOENT/);
    // The row's few words: its long PATH would push what to do out of the side bar.
    assert.equal(snap.cause, 'definitely-not-installed-mcp not found on PATH');
  });

  it('fails requests in flight at once, naming the server, when it crashes, then restarts it with backoff', async () => {
    const { connection, log } = connect(
      stdioDefinition('crashy', fixture('legacyStdio'), { args: ['--crash-after', '2'] }),
    );
    await connection.start();
    const firstPid = connection.snapshot().pid;
    const pending = connection.request('tools/call', (c, o) => c.callTool({ name: 'hang' }, o));
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'a' } }, o));
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'b' } }, o));
    await assert.rejects(pending, /MCP server "crashy" stopped before answering tools\/call/);
    await waitFor(
      'the restarting state',
      () => connection.snapshot().status === 'restarting' || connection.snapshot().status === 'starting',
    );
    await waitFor('the restart', () => connection.snapshot().status === 'running');
    assert.notEqual(connection.snapshot().pid, firstPid);
    assert.ok(firstPid && !isAlive(firstPid));
    assert.match(
      log.text(),
      /the process exited with code 3 \(last output: fixture: crashing after 2 calls\); restarting in 1s \(attempt 1 of 5\)/,
    );
  });

  it('names the cause line of a crash mid-session while it restarts, and forgets it once it runs again', async () => {
    const { connection } = connect(
      stdioDefinition('crashy', fixture('legacyStdio'), {
        args: ['--crash-after', '1', '--crash-cause', 'Error: lost the database connection'],
        restart: { ...DEFAULT_RESTART, initialDelayMs: 60_000, maxDelayMs: 60_000 },
      }),
    );
    await connection.start();
    assert.equal(connection.snapshot().cause, undefined);
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'a' } }, o));
    const restarting = await waitFor(
      'the restart to be scheduled',
      () => connection.snapshot().status === 'restarting' && connection.snapshot(),
    );
    assert.equal(restarting.cause, 'lost the database connection');
    assert.match(
      restarting.reason ?? '',
      /^the process exited with code 3 \(last output: fixture: crashing after 1 calls ⏎ Error: lost the database connection\); restarting in 60s/,
    );
    await connection.start();
    assert.equal(connection.snapshot().status, 'running');
    assert.equal(connection.snapshot().cause, undefined);
  });

  it('tells requests in flight why a restart ended them (a dev-mode change), then runs again', async () => {
    const { connection } = connect(stdioDefinition('dev', fixture('legacyStdio')));
    await connection.start();
    const firstPid = connection.snapshot().pid;
    const pending = connection.request('tools/call', (c, o) => c.callTool({ name: 'hang' }, o));
    const failed = assert.rejects(pending, {
      message: 'MCP server "dev" stopped before answering tools/call: restarting for a change in src/tools.ts.',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await connection.restart('restarting for a change in src/tools.ts');
    await failed;
    assert.equal(connection.snapshot().status, 'running');
    assert.notEqual(connection.snapshot().pid, firstPid);
  });

  it('starts a Node server with its inspector on loopback in dev mode with debug, and says where it listens', async () => {
    const addresses: string[] = [];
    const { connection } = connect(
      stdioDefinition('debuggable', fixture('legacyStdio'), { dev: { watch: [], debounceMs: 500, debug: true } }),
      { onDebuggerListening: (a) => addresses.push(a) },
    );
    await connection.start();
    assert.equal(connection.snapshot().status, 'running');
    await waitFor('the inspector address', () => addresses.length === 1);
    const [, port] = /^ws:\/\/127\.0\.0\.1:(\d+)\/[\w-]+$/.exec(addresses[0]) ?? [];
    assert.ok(port, addresses[0]);
    // What a debugger asks first: the inspector lists this very process as its target.
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    assert.deepEqual(
      targets.map((t) => t.webSocketDebuggerUrl),
      [addresses[0]],
    );
    // Without debug, no inspector.
    const plain: string[] = [];
    const { connection: other } = connect(stdioDefinition('plain', fixture('legacyStdio')), {
      onDebuggerListening: (a) => plain.push(a),
    });
    await other.start();
    await connection.restart('restarting for a change in a.ts');
    await waitFor('a new inspector after the restart', () => addresses.length === 2);
    assert.notEqual(addresses[1], addresses[0]);
    assert.deepEqual(plain, []);
  });

  it('gives up after the restart limit and shows the error state', async () => {
    const def = stdioDefinition('crashloop', fixture('legacyStdio'), {
      args: ['--crash-after', '1'],
      restart: { enabled: true, maxRestarts: 2, windowMs: 60_000, initialDelayMs: 50, maxDelayMs: 100 },
    });
    const { connection } = connect(def);
    for (let round = 0; round < 3; round++) {
      await waitFor(`running (round ${round})`, async () => {
        if (connection.snapshot().status === 'stopped') await connection.start();
        return connection.snapshot().status === 'running';
      });
      await connection
        .request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o))
        .catch(() => undefined);
      await waitFor('the crash', () => connection.snapshot().status !== 'running');
    }
    await waitFor('the error state', () => connection.snapshot().status === 'error');
    assert.match(
      connection.snapshot().reason ?? '',
      /stopped 3 times within 1 min; not restarting again\. Use Restart to try again\./,
    );
  });

  it('keeps restarting with backoff when a restart fails to start, and gives up at the limit', async () => {
    const mark = path.join(tempDir('mcp-restart-'), 'ran');
    // Runs once; every later start exits at once, as a server whose binary went away would.
    const once = `if [ -e '${mark}' ]; then echo 'gone for good' >&2; exit 7; fi; touch '${mark}'; exec '${process.execPath}' '${fixture('legacyStdio')}' --crash-after 1`;
    const def = stdioDefinition('once', '-c', {
      command: '/bin/sh',
      args: [once],
      restart: { enabled: true, maxRestarts: 2, windowMs: 60_000, initialDelayMs: 50, maxDelayMs: 100 },
    });
    const { connection, log } = connect(def);
    await connection.start();
    await connection
      .request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o))
      .catch(() => undefined);
    await waitFor('the error state', () => connection.snapshot().status === 'error');
    assert.match(log.text(), /restarting in 1s \(attempt 1 of 2\)/);
    assert.match(
      log.text(),
      /the process exited with code 7 \(last output: gone for good\); restarting in 1s \(attempt 2 of 2\)/,
    );
    assert.match(
      connection.snapshot().reason ?? '',
      /^the process exited with code 7 \(last output: gone for good\); stopped 3 times within 1 min; not restarting again\. Use Restart to try again\.$/,
    );
  });

  it('answers at most 600 roots/list and 600 ping requests a minute, refuses the rest clearly, logs once per burst and keeps serving', async function () {
    this.timeout(30_000);
    const { connection, log } = connect(stdioDefinition('stormy', fixture('legacyStdio')));
    await connection.start();
    const storm = async (method: string, count: number) =>
      text(
        (await connection.request('tools/call', (c, o) =>
          c.callTool({ name: 'storm', arguments: { method, count } }, o),
        )) as { content: unknown[] },
      );
    assert.match(
      await storm('roots/list', 1000),
      /^answered 600, refused 400: .*Too many roots\/list requests: MCP Host answers at most 600 a minute \(next in \d+ s\)\.$/,
    );
    assert.match(await storm('ping', 700), /^answered 600, refused 100: .*Too many ping requests/);
    assert.deepEqual(
      log.lines.filter((l) => l.includes('requests in a minute')).map((l) => l.replace(/for \d+ s/, 'for N s')),
      [
        'warn The server sent more than 600 roots/list requests in a minute; MCP Host refuses the rest for N s (limits.serverRequestsPerMinute).',
        'warn The server sent more than 600 ping requests in a minute; MCP Host refuses the rest for N s (limits.serverRequestsPerMinute).',
      ],
    );
    assert.equal(
      text(
        (await connection.request('tools/call', (c, o) =>
          c.callTool({ name: 'echo', arguments: { text: 'still here' } }, o),
        )) as { content: unknown[] },
      ),
      'still here',
    );
    assert.equal(connection.snapshot().status, 'running');
  });

  it('takes its limits from the settings: server requests a minute, and the largest stdio message', async function () {
    this.timeout(30_000);
    const { connection, log } = connect(
      stdioDefinition('limited', fixture('legacyStdio'), { limits: { serverRequestsPerMinute: 50, maxMessageMB: 1 } }),
    );
    await connection.start();
    const call = async (name: string, args: Record<string, unknown>) =>
      text(
        (await connection.request('tools/call', (c, o) => c.callTool({ name, arguments: args }, o))) as {
          content: unknown[];
        },
      );
    assert.match(
      await call('storm', { method: 'roots/list', count: 80 }),
      /^answered 50, refused 30: .*at most 50 a minute/,
    );
    assert.ok(
      log.lines.some(
        (l) =>
          l.includes('more than 50 roots/list requests in a minute') && l.includes('(limits.serverRequestsPerMinute)'),
      ),
    );
    await assert.rejects(call('payload', { bytes: 2 * 1024 * 1024 }), /MCP server "limited"/);
    assert.match(log.text(), /1048576/);
  });

  it('ends a request that reports progress past maxTotalTimeoutMs, naming that setting, not the idle timeout', async () => {
    const { connection } = connect(
      stdioDefinition('lively', fixture('legacyStdio'), { requestTimeoutMs: 1_000, maxTotalTimeoutMs: 2_000 }),
    );
    await connection.start();
    let progress = 0;
    await assert.rejects(
      connection.request(
        'tools/call',
        (c, o) => c.callTool({ name: 'slow', arguments: { ms: 10_000 } }, o),
        undefined,
        () => progress++,
      ),
      /^McpRequestError: MCP server "lively" did not answer tools\/call within 2 s in all \("maxTotalTimeoutMs"\); the request was cancelled\.$/,
    );
    // Its progress kept the idle timeout (1 s) from ending it first.
    assert.ok(progress >= 10, `progress reported ${progress} times`);
  });

  it('times out a request that gets no answer, says which server and how long, and cancels it on the wire', async () => {
    const log = new RecordingLog('trace');
    const { connection } = connect(stdioDefinition('hangs', fixture('legacyStdio'), { requestTimeoutMs: 1_000 }), {
      log,
    });
    await connection.start();
    await assert.rejects(
      connection.request('tools/call', (c, o) => c.callTool({ name: 'hang' }, o)),
      /MCP server "hangs" did not answer tools\/call within 1 s \("requestTimeoutMs"\); the request was cancelled\./,
    );
    await waitFor('notifications/cancelled', () =>
      log.lines.some((l) => l.startsWith('trace → ') && l.includes('"method":"notifications/cancelled"')),
    );
    // The timed-out request's signal is spent; the next request gets a live one.
    const next = await connection.request('tools/call', (c, o) =>
      c.callTool({ name: 'echo', arguments: { text: 'after' } }, o),
    );
    assert.equal(text(next as { content: unknown[] }), 'after');
  });

  it('cancels a request when the caller aborts and sends notifications/cancelled to the server', async () => {
    const log = new RecordingLog('trace');
    const { connection } = connect(stdioDefinition('cancellable', fixture('legacyStdio')), { log });
    await connection.start();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(
      connection.request('tools/call "hang"', (c, o) => c.callTool({ name: 'hang' }, o), controller.signal),
      /tools\/call "hang" on MCP server "cancellable" was cancelled\./,
    );
    await waitFor('the cancellation on the wire', () =>
      log.lines.some((l) => l.startsWith('trace → ') && l.includes('"method":"notifications/cancelled"')),
    );
  });

  it('refuses a request whose caller already aborted, and leaves no listener on a caller signal that lives on', async () => {
    const log = new RecordingLog('trace');
    const { connection } = connect(stdioDefinition('signals', fixture('legacyStdio')), { log });
    await connection.start();
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(
      connection.request(
        'tools/call "echo"',
        (c, o) => c.callTool({ name: 'echo', arguments: { text: 'late' } }, o),
        aborted.signal,
      ),
      /tools\/call "echo" on MCP server "signals" was cancelled\./,
    );
    assert.ok(
      !log.lines.some((l) => l.startsWith('trace → ') && l.includes('"late"')),
      'an aborted request is not sent',
    );
    // A chat session's signal outlives its many calls: each call's listener must go when it settles.
    const session = new AbortController();
    for (let i = 0; i < 20; i++)
      await connection.request(
        'tools/call "echo"',
        (c, o) => c.callTool({ name: 'echo', arguments: { text: String(i) } }, o),
        session.signal,
      );
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
  });

  it('keeps a slow request alive while progress notifications arrive', async () => {
    const { connection } = connect(stdioDefinition('progress', fixture('legacyStdio'), { requestTimeoutMs: 1_000 }));
    await connection.start();
    let reports = 0;
    const result = await connection.request(
      'tools/call',
      (c, o) => c.callTool({ name: 'slow', arguments: { ms: 2_000 } }, o),
      undefined,
      () => reports++,
    );
    assert.equal(text(result as { content: unknown[] }), 'waited 2000 ms');
    assert.ok(reports >= 10);
  });

  it('refreshes the tool list when the server sends list_changed', async () => {
    const { connection } = connect(stdioDefinition('changing', fixture('legacyStdio')));
    await connection.start();
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'add-tool', arguments: { name: 'fresh' } }, o));
    await waitFor('the new tool', () => connection.snapshot().tools.some((t) => t.name === 'fresh'));
  });

  it('refreshes the tool list of a 2026-07-28 server through subscriptions/listen', async () => {
    const log = new RecordingLog('trace');
    const { connection } = connect(stdioDefinition('modern-changing', fixture('modernStdio')), { log });
    await connection.start();
    assert.equal(connection.snapshot().era, 'modern');
    await connection.request('tools/call', (c, o) =>
      c.callTool({ name: 'add-tool', arguments: { name: 'fresh-modern' } }, o),
    );
    await waitFor('the new tool', () => connection.snapshot().tools.some((t) => t.name === 'fresh-modern'));
    assert.ok(log.lines.some((l) => l.startsWith('trace → ') && l.includes('"method":"subscriptions/listen"')));
  });

  it('drives logging/setLevel on a 2025 server from the channel level, and logs its messages', async () => {
    const log = new RecordingLog('info');
    const { connection } = connect(stdioDefinition('leveled', fixture('legacyStdio')), { log });
    await connection.start();
    log.setLevel('trace');
    await waitFor('logging/setLevel debug', () =>
      log.lines.some(
        (l) => l.startsWith('trace → ') && l.includes('"method":"logging/setLevel"') && l.includes('"level":"debug"'),
      ),
    );
    await connection.request('tools/call', (c, o) =>
      c.callTool({ name: 'log', arguments: { level: 'warning', text: 'disk almost full' } }, o),
    );
    await waitFor('the server log line', () => log.lines.includes('warn [fixture] disk almost full'));
  });

  it('carries the log level in _meta on 2026-07-28 requests', async () => {
    const log = new RecordingLog('debug');
    const { connection } = connect(stdioDefinition('meta-level', fixture('modernStdio')), { log });
    await connection.start();
    assert.deepEqual(connection.requestMeta(), { 'io.modelcontextprotocol/logLevel': 'debug' });
  });

  it('stops by closing stdin and leaves no process behind', async () => {
    const { connection } = connect(stdioDefinition('stoppable', fixture('legacyStdio')));
    await connection.start();
    const pid = connection.snapshot().pid!;
    await connection.stop();
    assert.equal(connection.snapshot().status, 'stopped');
    assert.equal(isAlive(pid), false);
    await assert.rejects(
      connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'x' } }, o)),
      /MCP server "stoppable" is not running \(stopped/,
    );
  });

  it('mirrors JSON-RPC traffic into the log at trace level only', async () => {
    const log = new RecordingLog('info');
    const { connection } = connect(stdioDefinition('traced', fixture('legacyStdio')), { log });
    await connection.start();
    assert.equal(log.lines.filter((l) => l.startsWith('trace')).length, 0);
    log.setLevel('trace');
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'traced' } }, o));
    assert.ok(log.lines.some((l) => l.startsWith('trace → ') && l.includes('"method":"tools/call"')));
    assert.ok(log.lines.some((l) => l.startsWith('trace ← ') && l.includes('traced')));
  });

  describe('over HTTP', () => {
    let http: RunningProcess;
    let sse: RunningProcess | undefined;
    before(async () => {
      http = await startHttpFixture();
    });
    after(async () => {
      await http.stop();
      await sse?.stop();
    });

    it('speaks 2026-07-28 to a modern Streamable HTTP server', async () => {
      const { connection } = connect(httpDefinition('modern-http', `http://127.0.0.1:${http.port}/mcp`));
      await connection.start();
      const snap = connection.snapshot();
      assert.equal(snap.status, 'running', snap.reason);
      assert.equal(snap.era, 'modern');
      assert.equal(snap.transport, 'http');
      assert.ok(snap.tools.some((t) => t.name === 'echo'));
      const result = await connection.request('tools/call', (c, o) => c.callTool({ name: 'roots' }, o));
      assert.deepEqual(JSON.parse(text(result as { content: unknown[] })), [
        { uri: 'file:///work/project', name: 'project' },
      ]);
    });

    it('drops a tool with an invalid x-mcp-header, names it in the server log, and mirrors a valid one', async () => {
      const headers = await startHttpFixture(['--header-tools']);
      try {
        const log = new RecordingLog();
        const { connection } = connect(httpDefinition('headers', `http://127.0.0.1:${headers.port}/mcp`), { log });
        await connection.start();
        const names = connection.snapshot().tools.map((t) => t.name);
        assert.ok(names.includes('good-header') && !names.includes('bad-header'), names.join(', '));
        assert.ok(
          log.lines.some((l) =>
            l.includes('Tool "bad-header" was left out: its x-mcp-header declarations break the 2026-07-28 rules'),
          ),
          log.lines.join('\n'),
        );
        assert.ok(!log.lines.some((l) => l.includes('"good-header" was left out')));
        // The server checks Mcp-Param-Region against the body and rejects a mismatch, so this proves the header was sent.
        const result = await connection.request('tools/call', (c, o) =>
          c.callTool({ name: 'good-header', arguments: { region: 'eu-west' } }, o),
        );
        assert.equal(text(result as { content: unknown[] }), 'region eu-west');
      } finally {
        await headers.stop();
      }
    });

    it('speaks a 2025 revision to a legacy Streamable HTTP server with sessions', async () => {
      const { connection } = connect(httpDefinition('legacy-http', `http://127.0.0.1:${http.port}/legacy`));
      await connection.start();
      const snap = connection.snapshot();
      assert.equal(snap.status, 'running', snap.reason);
      assert.equal(snap.era, 'legacy');
      assert.equal(snap.serverName, 'fixture-http-legacy');
      const result = await connection.request('tools/call', (c, o) => c.callTool({ name: 'roots' }, o));
      assert.deepEqual(JSON.parse(text(result as { content: unknown[] })), [
        { uri: 'file:///work/project', name: 'project' },
      ]);
    });

    it('talks HTTP+SSE to server-everything, chosen with type "sse" or by falling back from a 4xx', async () => {
      sse = await startEverythingSse();
      const explicit = connect(httpDefinition('sse', `http://127.0.0.1:${sse.port}/sse`, 'sse')).connection;
      await explicit.start();
      assert.equal(explicit.snapshot().status, 'running', explicit.snapshot().reason);
      assert.equal(explicit.snapshot().transport, 'sse');
      assert.ok(explicit.snapshot().tools.some((t) => t.name === 'echo'));

      const { connection: fallback, log } = connect(
        httpDefinition('sse-fallback', `http://127.0.0.1:${sse.port}/sse`, 'http'),
      );
      await fallback.start();
      assert.equal(fallback.snapshot().status, 'running', fallback.snapshot().reason);
      assert.equal(fallback.snapshot().transport, 'sse');
      assert.match(log.text(), /Streamable HTTP answered 4\d\d; trying the legacy HTTP\+SSE transport/);
    });
  });
});
