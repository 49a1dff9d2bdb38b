import * as assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAlive } from '../../../src/core/process/processTree';
import { StartSlots } from '../../../src/core/connection/startSlots';
import { toolCatalogue } from '../../../src/core/chat/modelToolOffer';
import { LastRuns, type StoredRun } from '../../../src/core/host/lastRuns';
import { mayOfferResources } from '../../../src/core/connection/serverSnapshot';
import { instructionsForModel } from '../../../src/core/chat/serverInstructions';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';
import { ToolInvoker } from '../../../src/core/tools/toolInvoker';
import { fixture, RecordingLog, waitFor } from '../support/fixtures';
import {
  app,
  entries,
  harness,
  hosts,
  legacy,
  lib,
  modern,
  node,
  running,
  uri,
  workspace,
} from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

function rootsOf(result: { content: unknown[] }) {
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe('McpHost', () => {
  it('restarts only changed servers, stops removed ones and starts added ones', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ a: legacy(), b: legacy({ env: { X: '1' } }) }));
    const a1 = (await running(host, 'a')).pid!;
    const b1 = (await running(host, 'b')).pid!;

    await host.applySettings(entries({ a: legacy(), b: legacy({ env: { X: '2' } }), c: modern() }));
    const b2 = (await running(host, 'b')).pid!;
    await running(host, 'c');
    assert.equal(host.server('a')!.pid, a1, 'an unchanged server keeps its process');
    assert.notEqual(b2, b1, 'a changed server restarts');
    assert.equal(isAlive(b1), false);

    await host.applySettings(entries({ a: legacy(), c: modern() }));
    assert.equal(host.server('b'), undefined);
    assert.equal(isAlive(b2), false, 'a removed server ends its process');
    assert.equal(host.server('a')!.pid, a1);
  });

  it('reports an invalid entry naming the field and leaves the other servers alone', async () => {
    const { host, showConfigError } = harness();
    hosts.push(host);
    await host.applySettings(entries({ good: legacy() }));
    const pid = (await running(host, 'good')).pid;
    const errors = await host.applySettings(entries({ good: legacy(), bad: { command: 42 } }));
    assert.deepEqual(
      errors.map((e) => e.message),
      ['MCP server "bad": "command" must be a string (got number 42)'],
    );
    assert.equal(showConfigError.callCount, 1);
    assert.equal(showConfigError.firstCall.args[0], 'MCP server "bad": "command" must be a string (got number 42)');
    assert.equal(host.server('bad')!.status, 'invalid');
    assert.equal(host.server('good')!.pid, pid);
    assert.equal(host.server('good')!.status, 'running');
  });

  it('keeps the last good definition running when a running server gets an invalid edit', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ s: legacy() }));
    const pid = (await running(host, 's')).pid;
    await host.applySettings(entries({ s: { ...legacy(), args: 'oops' } }));
    const snap = host.server('s')!;
    assert.equal(snap.status, 'running');
    assert.equal(snap.pid, pid);
    assert.equal(
      snap.configError,
      'MCP server "s": "args" must be an array (got "oops"); list the arguments one by one: ["oops"] (still running the previous definition)',
    );
  });

  it('does not start workspace servers in an untrusted workspace, but starts user servers', async () => {
    const { host, confirm } = harness({ trusted: false });
    hosts.push(host);
    await host.applySettings([...entries({ mine: legacy() }, 'user'), ...entries({ repo: legacy() }, 'workspace')]);
    await running(host, 'mine');
    assert.equal(host.server('repo')!.status, 'untrusted');
    assert.equal(host.server('repo')!.held, 'trust');
    assert.equal(confirm.callCount, 0);
    await assert.rejects(host.start('repo'), /comes from workspace settings; trust the workspace to start it/);
  });

  it("says where a server read live from another host's file comes from, and applies the same consent to a folder's file", async () => {
    const { host, confirm } = harness({ trusted: false });
    hosts.push(host);
    const origin = { host: 'Cursor', file: '.cursor/mcp.json', path: path.join(app, '.cursor', 'mcp.json') };
    await host.applySettings([
      { id: 'cur', scope: 'workspace', raw: legacy(), origin },
      { id: 'bad', scope: 'user', raw: { command: 7 }, origin: { ...origin, host: 'Claude Desktop' } },
    ]);
    assert.deepEqual(
      [host.server('cur')!.status, host.server('cur')!.origin],
      ['untrusted', origin],
      "a folder's file is the workspace's: not run untrusted",
    );
    assert.equal(
      host.server('bad')!.origin?.host,
      'Claude Desktop',
      'an entry that does not validate still says where it is',
    );
    assert.equal(host.definition('cur')?.origin, origin);
    const trusted = harness();
    hosts.push(trusted.host);
    await trusted.host.applySettings([{ id: 'cur', scope: 'workspace', raw: legacy(), origin }]);
    const server = await running(trusted.host, 'cur');
    assert.deepEqual(server.origin, origin);
    assert.equal(trusted.confirm.callCount, 1, 'asked like any workspace server');
    assert.equal(confirm.callCount, 0);
  });

  it('asks consent for workspace servers once per definition and again when it changes', async () => {
    const { host, confirm } = harness();
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy() }, 'workspace'));
    await running(host, 'repo');
    assert.equal(confirm.callCount, 1);
    assert.deepEqual(
      confirm.firstCall.args[0].map((r) => [r.serverId, r.changed]),
      [['repo', false]],
    );
    assert.match(confirm.firstCall.args[0][0].target, /legacyStdio\.js$/);

    await host.applySettings(entries({ repo: legacy() }, 'workspace'));
    assert.equal(confirm.callCount, 1, 'the same definition is not asked about again');

    await host.applySettings(entries({ repo: legacy({ env: { K: '${input:key}' } }) }, 'workspace'));
    await running(host, 'repo');
    assert.equal(confirm.callCount, 2);
    assert.equal(confirm.secondCall.args[0][0].changed, true);
    assert.deepEqual(confirm.secondCall.args[0][0].changes, [
      { field: 'env.K', before: undefined, after: '${input:key}' },
    ]);
  });

  it('asks again when only the environment changes, flagging a variable that loads code, and runs nothing until allowed', async () => {
    const marker = path.join(app, 'evil-ran');
    writeFileSync(path.join(app, 'evil.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    let allow = true;
    const { host, confirm } = harness({ consent: (requests) => (allow ? requests.map((r) => r.serverId) : []) });
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy() }, 'workspace'));
    await running(host, 'repo');

    allow = false;
    await host.applySettings(
      entries({ repo: legacy({ env: { NODE_OPTIONS: `--require ${path.join(app, 'evil.js')}` } }) }, 'workspace'),
    );
    assert.equal(confirm.callCount, 2);
    const request = confirm.secondCall.args[0][0];
    assert.equal(request.changed, true);
    assert.deepEqual(request.changes, [
      {
        field: 'env.NODE_OPTIONS',
        before: undefined,
        after: `--require ${path.join(app, 'evil.js')}`,
        warning: 'loads code into Node.js',
      },
    ]);
    assert.equal(host.server('repo')!.status, 'stopped');
    assert.equal(host.server('repo')!.pid, undefined);
    assert.equal(existsSync(marker), false, 'the changed definition must not run before it is allowed');
  });

  it('shows the env file and the keys it sets, and asks again when the file changes', async () => {
    const envFile = path.join(app, '.env');
    writeFileSync(envFile, 'API_TOKEN=abc\nMODE=dev\n');
    const { host, confirm } = harness();
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy({ envFile: '${workspaceFolder}/.env' }) }, 'workspace'));
    await running(host, 'repo');
    const shown = confirm.firstCall.args[0][0].fields.map((f) => `${f.field}: ${f.shown}`);
    assert.ok(shown.includes('envFile: ${workspaceFolder}/.env (sets API_TOKEN, MODE)'), shown.join('\n'));
    assert.ok(shown.includes('envFile.API_TOKEN: (set by the file)'), shown.join('\n'));
    assert.ok(!shown.join('\n').includes('abc'), 'values from the env file are not shown');

    writeFileSync(envFile, 'API_TOKEN=abc\nMODE=dev\nLD_PRELOAD=/tmp/x.so\n');
    await host.applySettings(entries({ repo: legacy({ envFile: '${workspaceFolder}/.env' }) }, 'workspace'));
    assert.equal(confirm.callCount, 2);
    const changes = confirm.secondCall.args[0][0].changes;
    assert.deepEqual(changes, [
      {
        field: 'envFile.LD_PRELOAD',
        before: undefined,
        after: '/tmp/x.so',
        warning: 'loads native code into the process',
      },
    ]);
  });

  it('leaves a declined workspace server stopped, saying how to be asked again', async () => {
    const { host, confirm } = harness({ consent: () => [] });
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy() }, 'workspace'));
    const snap = host.server('repo')!;
    assert.equal(snap.status, 'stopped');
    assert.match(snap.reason ?? '', /you did not allow this workspace server to run\. Start it to be asked again\./);
    assert.equal(snap.held, 'declined');
    assert.equal(snap.pid, undefined);
    await host.start('repo');
    assert.equal(confirm.callCount, 2);
  });

  it('shows disabled servers without starting them', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ off: legacy({ enabled: false }) }));
    assert.equal(host.server('off')!.status, 'disabled');
    await assert.rejects(host.start('off'), /is disabled/);
  });

  it('publishes workspace folders as roots and tells legacy and modern servers when they change', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.setWorkspaceFolders([{ name: 'app', path: app }]);
    await host.applySettings(
      entries({ old: legacy(), new: modern(), pinned: legacy({ roots: [`${workspace}/elsewhere`] }) }),
    );
    await Promise.all(['old', 'new', 'pinned'].map((id) => running(host, id)));
    assert.deepEqual(rootsOf(await host.callTool('old', 'roots', {})), [{ uri: uri(app), name: 'app' }]);
    assert.deepEqual(rootsOf(await host.callTool('new', 'roots', {})), [{ uri: uri(app), name: 'app' }]);

    await host.setWorkspaceFolders([
      { name: 'app', path: app },
      { name: 'lib', path: lib },
    ]);
    const both = [
      { uri: uri(app), name: 'app' },
      { uri: uri(lib), name: 'lib' },
    ];
    assert.deepEqual(rootsOf(await host.callTool('old', 'roots', {})), both);
    assert.deepEqual(rootsOf(await host.callTool('new', 'roots', {})), both);
    assert.deepEqual(rootsOf(await host.callTool('pinned', 'roots', {})), [
      { uri: uri(`${workspace}/elsewhere`), name: 'elsewhere' },
    ]);
  });

  it('stops every server and its process when disposed (the window closes)', async () => {
    const { host } = harness();
    await host.applySettings(entries({ a: legacy(), b: modern() }));
    const pids = [(await running(host, 'a')).pid!, (await running(host, 'b')).pid!];
    await host.dispose();
    assert.deepEqual(pids.map(isAlive), [false, false]);
  });

  it('re-reads settings and re-fetches the lists of running servers on refresh', async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(entries({ a: legacy() }));
    const pid = (await running(host, 'a')).pid;
    const log = env.logFor('a') as RecordingLog;
    log.setLevel('trace');
    const before = log.lines.filter((l) => l.includes('"method":"tools/list"')).length;
    const fired: (string | undefined)[] = [];
    host.onDidChangeServers((id) => fired.push(id));
    await host.refresh(entries({ a: legacy(), b: legacy() }));
    assert.equal(
      log.lines.filter((l) => l.startsWith('trace → ') && l.includes('"method":"tools/list"')).length,
      before + 1,
    );
    assert.equal(host.server('a')!.pid, pid, 'refresh does not restart an unchanged server');
    assert.ok(host.server('b'), 'refresh picks up a server added to settings');
    assert.deepEqual(host.serverIds(), ['a', 'b']);
    assert.deepEqual(
      [host.changedServers('b'), host.changedServers(undefined), host.changedServers('gone')].map((servers) =>
        servers.map((s) => s.id),
      ),
      [['b'], ['a', 'b'], ['a', 'b']],
    );
    // Each change names its server; a change to which servers there are names none.
    assert.ok(fired.includes('b') && fired.includes(undefined), JSON.stringify(fired));
    assert.ok(
      fired.every((id) => id === undefined || id === 'a' || id === 'b'),
      JSON.stringify(fired),
    );
  });

  it("bounds each server's log by its own limits settings", async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({
        tight: legacy({
          args: [fixture('legacyStdio'), '--stderr-long-line', '5000', '--stderr-flood', '500'],
          limits: { logLineLength: 300, logLinesPerSecond: 20 },
        }),
        loose: legacy({ args: [fixture('legacyStdio'), '--stderr-long-line', '5000'] }),
      }),
    );
    await running(host, 'tight');
    await running(host, 'loose');
    const tight = (env.logFor('tight') as RecordingLog).lines;
    const long = tight.find((l) => l.includes('fixture: long'))!;
    assert.ok(long.length < 400 && /… \(\d+ more characters\)$/.test(long), long.slice(0, 400));
    assert.ok(tight.filter((l) => l.includes('fixture: flood line')).length <= 20);
    await waitFor(
      'the count of dropped lines',
      () => tight.some((l) => /\d+ log line\(s\) dropped: more than 20 in a second\./.test(l)),
      5_000,
    );
    const loose = (env.logFor('loose') as RecordingLog).lines.find((l) => l.includes('fixture: long'))!;
    assert.ok(loose.length > 5000, 'the default bounds keep a 5,000-character line whole');
  });

  it('starts an "onDemand" server at its first use, not before: a tool call, a prompt or startOnDemand wait for it', async () => {
    const { host, confirm } = harness();
    hosts.push(host);
    await host.applySettings([
      ...entries({ lazy: legacy({ autoStart: 'onDemand' }), eager: legacy() }),
      // Not published to agents: nobody but the user needs it, so consent waits for the first use.
      ...entries({ repo: legacy({ autoStart: 'onDemand', publish: false }) }, 'workspace'),
    ]);
    await running(host, 'eager');
    for (const id of ['lazy', 'repo']) {
      assert.deepEqual(
        [host.server(id)!.status, host.server(id)!.startsWhenNeeded, host.server(id)!.pid],
        ['stopped', true, undefined],
        `${id} waits for its first use`,
      );
    }
    assert.equal(host.server('eager')!.startsWhenNeeded, undefined);
    assert.equal(confirm.callCount, 0, 'a workspace server that starts on demand is asked about when it is needed');
    const result = await host.callTool('lazy', 'echo', { text: 'first use' });
    assert.equal((result.content[0] as { text: string }).text, 'first use');
    assert.deepEqual([host.server('lazy')!.status, host.server('lazy')!.startsWhenNeeded], ['running', undefined]);
    await host.startOnDemand();
    assert.equal(host.server('repo')!.status, 'running');
    assert.equal(confirm.callCount, 1, 'asked once, when it was needed');
    await host.stop('lazy');
    assert.equal(host.server('lazy')!.startsWhenNeeded, true, 'stopped again, it starts at its next use');
    await host.startOnDemand(['lazy']);
    assert.equal(host.server('lazy')!.status, 'running');
  });

  it("asks about a workspace server published to agents with the window, not at an agent's request; one answer holds until Start", async () => {
    let allow = false;
    const { host, confirm } = harness({ consent: (requests) => (allow ? requests.map((r) => r.serverId) : []) });
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy({ autoStart: 'onDemand' }) }, 'workspace'));
    assert.equal(confirm.callCount, 1, 'asked with the window: an agent may need it when nobody is there to click');
    assert.deepEqual([host.server('repo')!.status, host.server('repo')!.held], ['stopped', 'declined']);
    // Every use that is not the user's Start leaves the answer standing.
    assert.equal(host.server('repo')!.startsWhenNeeded, undefined, 'declined, it does not wait for its first use');
    await host.startOnDemand();
    await host.startOnDemand(['repo']);
    await assert.rejects(host.callTool('repo', 'echo', { text: 'x' }), /you did not allow this workspace server/);
    await host.applySettings(entries({ repo: legacy({ autoStart: 'onDemand' }) }, 'workspace'));
    assert.equal(confirm.callCount, 1, 'not asked again by every request, nor by settings applied again');
    assert.equal(host.server('repo')!.held, 'declined');
    // Start asks again; allowed, the server still waits for its first use.
    allow = true;
    await host.start('repo');
    assert.equal(confirm.callCount, 2);
    assert.equal(host.server('repo')!.status, 'running');
    await host.stop('repo');
    // A changed definition is a new question, asked with the window again.
    allow = false;
    await host.applySettings(
      entries(
        { repo: legacy({ autoStart: 'onDemand', args: [fixture('legacyStdio'), '--name', 'other'] }) },
        'workspace',
      ),
    );
    assert.equal(confirm.callCount, 3);
    assert.equal(host.server('repo')!.held, 'declined');
  });

  it('starts the servers of the window a few at a time; a server someone waits for starts at once, "onDemand" or waiting for its turn', async () => {
    // One slot, held by a server that never answers: the window's other servers wait their turn.
    const { host, logs } = harness({ startSlots: new StartSlots(1, 60_000) });
    hosts.push(host);
    const silent = { command: node, args: [fixture('silentStdio')], startTimeoutMs: 60_000 };
    await host.applySettings(entries({ silent }));
    await waitFor('silent has its turn', () =>
      logs.get('silent')?.lines.some((l) => l.startsWith('info Protocol: negotiating')),
    );
    const waited = new Set<string>();
    host.onDidChangeServers((id) => id !== undefined && host.server(id)?.waitingForTurn && waited.add(id));
    await host.applySettings(
      entries({ silent, eager: legacy(), called: legacy(), asked: legacy(), lazy: legacy({ autoStart: 'onDemand' }) }),
    );
    await waitFor("the window's servers wait for their turn", () =>
      ['eager', 'called', 'asked'].every((id) => host.server(id)?.waitingForTurn),
    );
    assert.equal(host.server('eager')!.status, 'starting');
    assert.ok(
      logs
        .get('eager')!
        .lines.includes('info Waiting for its turn to start: 1 server(s) go first (1 start at once on this machine).'),
      logs.get('eager')!.text(),
    );
    const result = await host.callTool('lazy', 'echo', { text: 'before the window' });
    assert.equal((result.content[0] as { text: string }).text, 'before the window');
    assert.deepEqual([...waited].sort(), ['asked', 'called', 'eager'], "the tool call's server did not wait");
    // A tool call to a server waiting for its turn: it goes at once and answers (the host's call, and a model's through the invoker, which needs its tools first).
    const called = await host.callTool('called', 'echo', { text: 'before its turn' });
    assert.equal((called.content[0] as { text: string }).text, 'before its turn');
    assert.ok(
      logs.get('called')!.lines.includes('info Needed now: starting before its turn.'),
      logs.get('called')!.text(),
    );
    const approvals = new ToolApprovals(
      { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
      () => ({ autoApprove: ['*'], trusted: false }),
    );
    const done = await new ToolInvoker(host, approvals, { confirm: async () => 'deny' }).invoke(
      'asked',
      'echo',
      { text: 'asked by a model' },
      { origin: 'model' },
    );
    assert.equal(done.outcome, 'ok', done.error);
    assert.equal((done.result!.content[0] as { text: string }).text, 'asked by a model');
    assert.equal(host.server('eager')!.waitingForTurn, true, 'eager, which no one needs, still waits for the one slot');
    await host.stop('silent');
    await running(host, 'eager');
  });

  it('shows an "onDemand" server\'s tools, prompts and instructions of its last run in the next window and starts it when one is called or a prompt is asked', async () => {
    const stored = new Map<string, StoredRun>();
    const store = {
      get: (id: string) => stored.get(id),
      set: (id: string, value: StoredRun) => void stored.set(id, value),
    };
    const args = [...legacy().args, '--instructions', 'Call add before echo.'];
    const lazy = legacy({ args, autoStart: 'onDemand' });
    // First window: the server starts with the window (before the user moved it to onDemand); its tools are kept.
    const first = harness({ lastRuns: new LastRuns(store) });
    hosts.push(first.host);
    await first.host.applySettings(entries({ lazy: legacy({ args }) }));
    const names = (await running(first.host, 'lazy')).tools.map((t) => t.name);
    await first.host.dispose();
    // Next window, the same server now onDemand: stopped, its tools known, offered to models.
    const next = harness({ lastRuns: new LastRuns(store) });
    hosts.push(next.host);
    await next.host.applySettings(entries({ lazy }));
    const waiting = next.host.server('lazy')!;
    assert.deepEqual(
      [waiting.status, waiting.startsWhenNeeded, waiting.fromLastRun, waiting.pid],
      ['stopped', true, true, undefined],
    );
    assert.deepEqual(
      waiting.tools.map((t) => t.name),
      names,
    );
    // Its resources are not kept, but that it had some is: the Resources view lists it, Find Resource starts it.
    assert.deepEqual([waiting.resourcesInLastRun, waiting.resources, mayOfferResources(waiting)], [true, [], true]);
    assert.deepEqual(
      waiting.prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)]),
      [['greet', ['who']]],
    );
    assert.ok(
      toolCatalogue(next.host.servers(), () => true).some((e) => e.serverId === 'lazy' && e.toolName === 'echo'),
    );
    // A model offered its tools gets its instructions with them.
    assert.deepEqual(instructionsForModel(next.host.servers(), new Set(['lazy'])), [
      'Instructions from MCP server "lazy" on using its tools (written by the server, not by the user):\nCall add before echo.',
    ]);
    // A model's call starts it and runs against the started server's own tool.
    const approvals = new ToolApprovals(
      { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
      () => ({ autoApprove: ['*'], trusted: false }),
    );
    const invoker = new ToolInvoker(next.host, approvals, { confirm: async () => 'deny' });
    const done = await invoker.invoke('lazy', 'echo', { text: 'known before it ran' }, { origin: 'model' });
    assert.equal(done.outcome, 'ok', done.error);
    assert.equal((done.result!.content[0] as { text: string }).text, 'known before it ran');
    assert.deepEqual([next.host.server('lazy')!.status, next.host.server('lazy')!.fromLastRun], ['running', undefined]);
    // Stopped again, it waits with what it had, and a prompt starts it too.
    await next.host.stop('lazy');
    assert.deepEqual(
      [
        next.host.server('lazy')!.status,
        next.host.server('lazy')!.fromLastRun,
        next.host.server('lazy')!.prompts.length,
      ],
      ['stopped', true, 1],
    );
    const greeting = await next.host.getPrompt('lazy', 'greet', { who: 'Ada' });
    assert.deepEqual(
      greeting.messages.map((m) => m.content),
      [{ type: 'text', text: 'Say hello to Ada.' }],
    );
    assert.equal(next.host.server('lazy')!.status, 'running');
    assert.equal(next.host.server('lazy')!.resourcesInLastRun, undefined, 'a running server shows its own resources');
    // So does reading one of its resources.
    await next.host.stop('lazy');
    const read = await next.host.readResource('lazy', 'fixture://readme');
    assert.equal(read.contents.length, 1);
    assert.equal(next.host.server('lazy')!.status, 'running');
    // Another definition is another server: nothing is known of it.
    await next.host.applySettings(entries({ lazy: legacy({ args, autoStart: 'onDemand', env: { OTHER: '1' } }) }));
    assert.deepEqual(
      [
        next.host.server('lazy')!.startsWhenNeeded,
        next.host.server('lazy')!.fromLastRun,
        next.host.server('lazy')!.tools.length,
        next.host.server('lazy')!.prompts.length,
        next.host.server('lazy')!.instructions,
      ],
      [true, undefined, 0, 0, undefined],
    );
  });

  it('fails a call to an unknown server or a stopped one with a clear message', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ idle: legacy({ autoStart: false }) }));
    await assert.rejects(host.callTool('nope', 'echo', {}), /There is no MCP server "nope" in settings\./);
    await assert.rejects(host.callTool('idle', 'echo', {}), /MCP server "idle" is not running \(stopped\)\./);
    await host.start('idle');
    await running(host, 'idle');
  });
});
