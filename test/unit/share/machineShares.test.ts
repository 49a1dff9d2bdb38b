import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import type { McpHost } from '../../../src/core/host/mcpHost';
import { MachineShares } from '../../../src/core/share/machineShares';
import { McpGateway } from '../../../src/core/gateway/mcpGateway';
import { privateShareFolder } from '../../../src/core/share/shareFolder';
import { isAlive } from '../../../src/core/process/processTree';
import { tempDir } from '../../support/tempDir';
import { EVERYTHING, fixture, RecordingLog, spawnLog, waitFor } from '../support/fixtures';
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingRouter } from '../../../src/core/sampling/samplingRouter';
import { ElicitationRouter } from '../../../src/core/elicitation/elicitationRouter';
import { app, entries, harness, hosts, legacy, lib, modern, running } from '../support/hostHarness';
import { RELEASE_NOTES_SKILL, TAMPERED_SKILL } from '../../fixtures/servers/fixtureSkills';
import { serverTaskChannel } from '../../../src/core/host/serverTaskChannel';
import { pollTask } from '../../../src/core/tasks/taskPolling';
import { createdTaskOf } from '../../../src/core/tasks/taskResults';
import { resultText } from '../../../src/core/tools/toolResults';

const STYLE = 'Short sentences. Say what changed for the user.\n';

/**
 * Windows of one user, as hosts in this process, each with its own rendezvous in one private
 * folder (as every window of a user has): real fixture servers over real pipes, real sockets.
 */
const shares: MachineShares[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  for (const share of shares.splice(0)) share.dispose();
});

function newFolder(): string {
  const folder = tempDir('mcp-share-');
  chmodSync(folder, 0o700);
  return folder;
}

/**
 * What a window's sampling answers: which window answered, so a test sees where a request went.
 * Its answers wait for `gate` when one is given, and `asked` counts the requests it got.
 */
function answeredBy(name: string, gate?: Promise<void>): SamplingRouter & { asked: number } {
  const router = {
    asked: 0,
    handle: async (): Promise<CreateMessageResult> => {
      router.asked++;
      await gate;
      return { role: 'assistant', model: 'test', content: { type: 'text', text: `answered in ${name}` } };
    },
  };
  return router as unknown as SamplingRouter & { asked: number };
}

/** Each window's server logs, by server id, and the log of its sharing. */
const logsOf = new WeakMap<McpHost, Map<string, RecordingLog>>();
const shareLogOf = new WeakMap<McpHost, RecordingLog>();

async function window(
  folder: string,
  settings: Record<string, unknown>,
  workspace = app,
  sampling?: SamplingRouter,
  elicitation?: ElicitationRouter,
): Promise<McpHost> {
  const made: { host?: McpHost } = {};
  const shareLog = new RecordingLog();
  const share = new MachineShares({
    host: () => made.host!,
    version: '0',
    log: shareLog,
    folder: () => {
      if (!folder) throw new Error('no private folder to meet in');
      return folder;
    },
  });
  shares.push(share);
  const made2 = harness({ share, sampling, elicitation });
  const host = (made.host = made2.host);
  logsOf.set(host, made2.logs);
  shareLogOf.set(host, shareLog);
  hosts.push(host);
  await host.setWorkspaceFolders([{ name: path.basename(workspace), path: workspace }]);
  await host.applySettings(entries(settings));
  return host;
}

/** `count` windows of one user whose settings define the server "shared", each with it running. */
async function runningWindows(count: number): Promise<McpHost[]> {
  const folder = newFolder();
  const windows: McpHost[] = [];
  for (let i = 0; i < count; i++) {
    const host = await window(folder, { shared: legacy({ share: 'machine' }) });
    await running(host, 'shared');
    windows.push(host);
  }
  return windows;
}

async function pidOf(host: McpHost, id = 'shared'): Promise<number> {
  const result = await host.callTool(id, 'pid', {});
  return Number((result.content[0] as { text: string }).text);
}

/** `guest` shares `owner`'s process, reached over Streamable HTTP on the share socket (its log says so). */
async function assertGuestOverHttp(owner: McpHost, guest: McpHost): Promise<void> {
  assert.equal(guest.server('shared')!.share?.role, 'guest');
  assert.equal(await pidOf(guest), await pidOf(owner));
  assert.ok(
    logsOf
      .get(guest)!
      .get('shared')!
      .lines.some((line) => line.includes('negotiating the era over Streamable HTTP')),
  );
}

describe('MachineShares: one process per server for the windows of a user', () => {
  it("serves a second window from the first one's process, and a window that closes hands it over", async () => {
    const folder = newFolder();
    const spawns = spawnLog();
    const settings = { shared: legacy({ share: 'machine', env: { FIXTURE_SPAWN_LOG: spawns.file } }) };
    const first = await window(folder, settings);
    await running(first, 'shared');
    const second = await window(folder, settings);
    await running(second, 'shared');

    const pid = await pidOf(first);
    assert.equal(await pidOf(second), pid, "the second window calls the first one's process");
    assert.ok(
      logsOf
        .get(second)!
        .get('shared')!
        .lines.some((line) => line.includes('negotiating the era over the socket of the window that runs it')),
      'the second window reaches it as lines on a socket, not HTTP',
    );
    assert.equal(spawns.count(), 1, 'one process for both windows');
    await waitFor('both rows say it is shared', () => first.server('shared')?.share?.otherWindows === 1);
    assert.deepEqual(first.server('shared')!.share, { role: 'owner', otherWindows: 1, note: undefined });
    assert.deepEqual(second.server('shared')!.share, { role: 'guest', otherWindows: 1, pid });
    assert.equal(second.server('shared')!.transport, 'stdio', 'the row shows the process, not the socket');
    assert.ok(
      second.server('shared')!.tools.some((t) => t.name === 'pid'),
      'the second window lists its tools',
    );
    // A guest sends what the window running it can: a 5 MiB argument (the SDK's HTTP bound is 4 MiB).
    const big = 'x'.repeat(5 * 1024 * 1024);
    const echoed = await second.callTool('shared', 'echo', { text: big });
    assert.equal((echoed.content[0] as { text: string }).text.length, big.length);

    await first.dispose();
    assert.equal(isAlive(pid), false, 'the process ends with the window that ran it');
    await waitFor('the second window takes over', () => second.server('shared')?.share?.role === 'owner');
    await running(second, 'shared');
    const next = await pidOf(second);
    assert.notEqual(next, pid);
    assert.ok(isAlive(next));
    assert.equal(spawns.count(), 2);

    await second.dispose();
    assert.equal(isAlive(next), false, 'no process outlives the last window');
  });

  it("writes the server's log lines in the log of a window that shares its process, at that window's level", async () => {
    const [owner, guest] = await runningWindows(2);
    assert.equal(guest.server('shared')!.share?.role, 'guest');
    const guestLog = logsOf.get(guest)!.get('shared')!;
    const ownerLog = logsOf.get(owner)!.get('shared')!;
    await guest.callTool('shared', 'log', { level: 'info', text: 'seen by both windows' });
    await waitFor('the line in the guest window', () => guestLog.lines.includes('info [fixture] seen by both windows'));
    assert.ok(ownerLog.lines.includes('info [fixture] seen by both windows'), 'and in the window that runs it');
    // The guest's level holds for what reaches it: once it reaches the window running the
    // process, a line below it stops coming, and one at it still comes.
    guestLog.setLevel('error');
    let round = 0;
    await waitFor('the guest window to hear only lines at its level', async () => {
      round++;
      await owner.callTool('shared', 'log', { level: 'info', text: `below ${round}` });
      await owner.callTool('shared', 'log', { level: 'error', text: `at ${round}` });
      await waitFor(`error line ${round}`, () => guestLog.lines.includes(`error [fixture] at ${round}`));
      return !guestLog.lines.includes(`info [fixture] below ${round}`);
    });
  });

  it("lists and loads the server's skills in a window that shares its process, verifying them there", async () => {
    const folder = newFolder();
    const settings = { shared: legacy({ share: 'machine', args: [...legacy().args, '--skills'] }) };
    const owner = await window(folder, settings);
    await running(owner, 'shared');
    const guest = await window(folder, settings);
    await running(guest, 'shared');
    assert.equal(guest.server('shared')!.share?.role, 'guest');
    assert.deepEqual(
      guest.server('shared')!.skills?.map((s) => s.name),
      owner.server('shared')!.skills?.map((s) => s.name),
    );
    assert.deepEqual(
      guest
        .server('shared')!
        .skills?.map((s) => s.name)
        .sort(),
      ['release-notes', 'tampered'],
    );
    const loaded = await guest.loadSkill('shared', RELEASE_NOTES_SKILL);
    assert.match(loaded.body, /Read references\/STYLE\.md/);
    assert.equal(await guest.readSkillFile('shared', RELEASE_NOTES_SKILL, 'references/STYLE.md'), STYLE);
    // The guest verifies what it reads: a SKILL.md served with other bytes is refused there too.
    await assert.rejects(guest.loadSkill('shared', TAMPERED_SKILL), /was refused: SKILL\.md failed verification/);
    // Only the extension's own requests pass as they are.
    await assert.rejects(
      owner.passExtensionRequest('shared', 'tools/call', {}),
      /not a request of the Skills or Tasks extension/,
    );
  });

  it("follows a task started from a window that shares the process in that window's Tasks view, and cancels it from there; gets its Apps", async () => {
    const folder = newFolder();
    const settings = {
      shared: modern({
        share: 'machine',
        args: [...modern().args, '--task-tools', '--task-poll-ms', '150', '--app-tools'],
      }),
    };
    const owner = await window(folder, settings);
    await running(owner, 'shared');
    const guest = await window(folder, settings);
    await running(guest, 'shared');
    assert.equal(guest.server('shared')!.share?.role, 'guest');
    // An App's tool keeps its view, and the view's page reads in the guest.
    const board = (host: McpHost) => host.server('shared')!.tools.find((t) => t.name === 'show-board')?._meta;
    assert.deepEqual(board(guest), { ui: { resourceUri: 'ui://fixture/board.html' } });
    assert.deepEqual(board(guest), board(owner));
    const page = await guest.readResource('shared', 'ui://fixture/board.html');
    assert.match((page.contents[0] as { text: string }).text, /<html/i);

    const slept = await guest.callTool('shared', 'task-sleep', { ms: 400 });
    assert.equal((slept.content[0] as { text: string }).text, 'slept 400 ms');
    assert.deepEqual(
      guest.tasks.list().map((t) => [t.serverId, t.toolName, t.protocol, t.status]),
      [['shared', 'task-sleep', '2026-07-28', 'completed']],
      "the guest's Tasks view followed it",
    );
    assert.deepEqual(owner.tasks.list(), [], 'the window running the process leaves it to the window that started it');

    const call = guest.callTool('shared', 'task-sleep', { ms: 60_000 });
    const view = await waitFor('the task listed as working in the guest', () =>
      guest.tasks.list().find((t) => t.status === 'working'),
    );
    guest.tasks.cancel(view.key);
    await assert.rejects(call, /Cancelled from the MCP Tasks view/);
    assert.equal(guest.tasks.get(view.key)?.status, 'cancelled');
    // The server cancelled it too: asked through the owner (with the first state the fixture issued), it says so.
    const told = (await owner.passExtensionRequest('shared', 'tasks/get', {
      taskId: view.taskId,
      requestState: `state-${view.taskId}-1`,
    })) as { status: string };
    assert.equal(told.status, 'cancelled');
    // A task that asks for input: the guest answers it (its own form), the answer passes to the server.
    const asking = createdTaskOf(
      await guest.connection('shared').request('tools/call', (client) => client.callTool({ name: 'task-ask' })),
    );
    const channel = {
      ...serverTaskChannel(() => guest.connection('shared')),
      answer: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    };
    const answered = await pollTask(channel, asking!, { onState: () => undefined }, new AbortController().signal);
    assert.equal(resultText(answered), 'Hello, Ada.');
    assert.deepEqual(owner.tasks.list(), [], 'the window running the process followed none of them');
  });

  it('reaches the process over HTTP on the share socket when the window running it offers no lines (an older MCP Host)', async () => {
    const offered = McpGateway.prototype.relayEndpoint;
    McpGateway.prototype.relayEndpoint = async () => undefined;
    try {
      const [owner, guest] = await runningWindows(2);
      await assertGuestOverHttp(owner, guest);
    } finally {
      McpGateway.prototype.relayEndpoint = offered;
    }
  });

  it('shares a server that starts when needed (the default): the first window to call it runs it, the other joins at its own first call', async () => {
    const folder = newFolder();
    const settings = { shared: legacy({ share: 'machine', autoStart: 'onDemand' }) };
    const first = await window(folder, settings);
    const second = await window(folder, settings);
    assert.equal(first.server('shared')!.status, 'stopped');
    assert.equal(second.server('shared')!.status, 'stopped');
    // The second window calls first: it runs the process; the first joins it when it needs it.
    const pid = await pidOf(second);
    assert.equal(second.server('shared')!.share?.role, 'owner');
    assert.equal(first.server('shared')!.status, 'stopped', 'a window that has not needed it yet starts nothing');
    assert.equal(await pidOf(first), pid);
    assert.equal(first.server('shared')!.share?.role, 'guest');
    // The window running it stops it: the other, which uses it, runs its own and serves the first again.
    await second.stop('shared');
    const next = await pidOf(first);
    assert.notEqual(next, pid);
    assert.equal(first.server('shared')!.share?.role, 'owner');
    assert.equal(await pidOf(second), next);
    assert.equal(second.server('shared')!.share?.role, 'guest');
  });

  it('serves a window that shares the process over HTTP when the lines socket cannot listen, and says so once', async () => {
    // A first window finds where the server's socket is; something then stands where its lines
    // socket would be (a directory, which cannot be removed as a stale socket is).
    const folder = newFolder();
    const first = await window(folder, { shared: legacy({ share: 'machine' }) });
    await running(first, 'shared');
    const sock = readdirSync(folder).find((name) => name.endsWith('.sock'))!;
    assert.ok(sock, 'the server has a share socket');
    await Promise.all(hosts.splice(0).map((h) => h.dispose()));
    const lines = path.join(folder, sock.replace(/\.sock$/, '.lines'));
    rmSync(lines, { force: true });
    mkdirSync(lines);
    const owner = await window(folder, { shared: legacy({ share: 'machine' }) });
    await running(owner, 'shared');
    const guest = await window(folder, { shared: legacy({ share: 'machine' }) });
    await running(guest, 'shared');
    assert.equal(owner.server('shared')!.share?.role, 'owner');
    await assertGuestOverHttp(owner, guest);
    const told = shareLogOf.get(owner)!.lines.filter((line) => line.includes(`Could not listen on ${lines}`));
    assert.equal(told.length, 1, shareLogOf.get(owner)!.lines.join('\n'));
    assert.match(told[0], /^warn .*clients reach the servers over Streamable HTTP instead\.$/);
  });

  it("runs a 2025-11-25 server's task-augmented tool from a window that shares its process as a task of that window, asking that window for its input (server-everything)", async () => {
    const folder = newFolder();
    const settings = { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], share: 'machine' } };
    const owner = await window(folder, settings);
    await running(owner, 'ev');
    const guest = await window(folder, settings);
    await running(guest, 'ev');
    assert.equal(guest.server('ev')!.share?.role, 'guest');
    const progress: string[] = [];
    const done = await guest.callTool('ev', 'simulate-research-query', { topic: 'tides' }, undefined, (p) =>
      progress.push(p.message ?? ''),
    );
    assert.match(resultText(done), /# Research Report: tides/);
    assert.ok(progress.includes('Gathering sources...'), progress.join(' | '));
    assert.deepEqual(
      guest.tasks.list().map((t) => [t.serverId, t.toolName, t.protocol, t.status]),
      [['ev', 'simulate-research-query', '2025-11-25', 'completed']],
      "the guest's Tasks view followed it",
    );
    assert.deepEqual(owner.tasks.list(), [], 'the window running the process left it to the window that started it');
    // A task that asks for input asks it of the window whose task it is (during its tasks/result).
    const asked: string[] = [];
    const user = (name: string, action: 'accept' | 'decline') =>
      new ElicitationRouter({
        askForm: async () => (
          asked.push(name),
          action === 'accept' ? { action, content: { interpretation: 'owner' } } : { action }
        ),
        askUrl: async () => 'decline',
        awaitBrowser: () => new Promise<never>(() => undefined),
      });
    const other = newFolder();
    const asking = await window(other, settings, app, undefined, user('the window running it', 'accept'));
    await running(asking, 'ev');
    const askingGuest = await window(other, settings, app, undefined, user('the window whose task it is', 'decline'));
    await running(askingGuest, 'ev');
    assert.equal(askingGuest.server('ev')!.share?.role, 'guest');
    const clarified = await askingGuest.callTool('ev', 'simulate-research-query', { topic: 'python', ambiguous: true });
    assert.deepEqual(asked, ['the window whose task it is']);
    assert.match(resultText(clarified), /User declined - using default interpretation/);
    // Only a task-augmented tools/call passes as it is; a plain one goes through the host's own path.
    await assert.rejects(
      owner.passExtensionRequest('ev', 'tools/call', { name: 'echo' }),
      /not a request of the Skills or Tasks extension/,
    );
  });

  it("passes the server's progress to a window that shares its process, and that window's cancel reaches the server", async () => {
    const [owner, guest] = await runningWindows(2);
    assert.equal(guest.server('shared')!.share?.role, 'guest');
    const ownerLog = logsOf.get(owner)!.get('shared')!;
    ownerLog.setLevel('trace');
    const controller = new AbortController();
    const progress: number[] = [];
    const call = guest.callTool('shared', 'slow', { ms: 60_000 }, controller.signal, (p) => progress.push(p.progress));
    await waitFor('progress in the guest', () => progress.length >= 2);
    controller.abort(new Error('stopped by the user'));
    await assert.rejects(call, /tools\/call "slow" on MCP server "shared" was cancelled/);
    // The window running the process passes the cancel on to the server.
    await waitFor('notifications/cancelled sent to the server', () =>
      ownerLog.lines.some((line) => line.startsWith('trace → ') && line.includes('"method":"notifications/cancelled"')),
    );
    assert.equal(await pidOf(guest), await pidOf(owner), 'the process goes on serving both');
  });

  it("times a call from a window that shares the process by that window's own requestTimeoutMs, not the other window's", async () => {
    const folder = newFolder();
    const owner = await window(folder, { shared: legacy({ share: 'machine', requestTimeoutMs: 1_000 }) });
    await running(owner, 'shared');
    const guest = await window(folder, { shared: legacy({ share: 'machine', requestTimeoutMs: 8_000 }) });
    await running(guest, 'shared');
    assert.equal(guest.server('shared')!.share?.role, 'guest');
    // Longer than the owner's 1 s, within the guest's 8 s: it answers.
    const waited = await guest.callTool('shared', 'slow', { ms: 2_500 });
    assert.equal((waited.content[0] as { text: string }).text, 'waited 2500 ms');
    // The owner's own call keeps the owner's timeout.
    await assert.rejects(
      owner.callTool('shared', 'slow', { ms: 2_500 }),
      /did not answer tools\/call "slow" within 1 s/,
    );
  });

  it('stops the process in every window when a window that reaches it stops it for all', async () => {
    const [first, second, third] = await runningWindows(3);
    const pid = await pidOf(third);
    await waitFor('the owner counts both guests', () => first.server('shared')?.share?.otherWindows === 2);

    await third.stopForAll('shared');
    assert.equal(third.server('shared')!.status, 'stopped');
    for (const [name, host] of [
      ['the window that ran it', first],
      ['the other window that used it', second],
    ] as const) {
      const stopped = await waitFor(`stopped in ${name}`, () => {
        const s = host.server('shared');
        return s?.status === 'stopped' && s;
      });
      assert.match(stopped.reason ?? '', /every window, from another window/);
    }
    assert.equal(isAlive(pid), false);
    // Nobody took over a process stopped for all: a moment later all three are still stopped.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const host of [first, second, third]) assert.equal(host.server('shared')!.status, 'stopped');
  });

  it("stops only this window's use when a guest stops it; the other keeps the process", async () => {
    const [first, second] = await runningWindows(2);
    const pid = await pidOf(first);
    await waitFor('the owner counts the guest', () => first.server('shared')?.share?.otherWindows === 1);

    await second.stop('shared');
    await waitFor('the owner counts no guest', () => first.server('shared')?.share?.otherWindows === 0);
    assert.equal(first.server('shared')!.status, 'running');
    assert.equal(await pidOf(first), pid);
  });

  it('does not share a server that asks for roots between windows of different folders', async () => {
    const folder = newFolder();
    const settings = { shared: legacy({ share: 'machine' }) };
    const first = await window(folder, settings, app);
    await running(first, 'shared');
    const second = await window(folder, settings, lib);
    await running(second, 'shared');
    const pid = await pidOf(first);
    assert.equal(await pidOf(second), pid, 'shared while the server has not asked for roots');

    // The server asks for roots: the window of other folders leaves and runs its own process.
    await first.callTool('shared', 'roots', {});
    await waitFor('the second window runs its own', () => second.server('shared')?.share?.role === 'owner');
    await running(second, 'shared');
    const own = await pidOf(second);
    assert.notEqual(own, pid);
    assert.match(second.server('shared')!.share!.note ?? '', /asks for roots/);
    const roots = await second.callTool('shared', 'roots', {});
    assert.match(JSON.stringify(roots.content), /lib/, 'its own process sees its own folder');

    // A third window of the first one's folders still joins the first.
    const third = await window(folder, settings, app);
    await running(third, 'shared');
    assert.equal(await pidOf(third), pid);
  });

  it('asks the window whose call is under way what the server asks during it, and the window running it when that is not sure', async () => {
    const folder = newFolder();
    const settings = { shared: legacy({ share: 'machine', args: [fixture('legacyStdio'), '--sampling-tools'] }) };
    let open!: () => void;
    const firstAnswers = answeredBy('the first window', new Promise((resolve) => (open = resolve)));
    const first = await window(folder, settings, app, firstAnswers);
    await running(first, 'shared');
    const second = await window(folder, settings, app, answeredBy('the second window'));
    await running(second, 'shared');
    const sample = async (host: McpHost) =>
      JSON.stringify((await host.callTool('shared', 'sample', { prompt: 'hi' })).content);

    // Only the second window has a call under way: the server's request goes to it.
    assert.match(await sample(second), /answered in the second window/);
    assert.equal(firstAnswers.asked, 0);

    // The first window's own call is under way too (its answer waits): which call the next request
    // is about is not known, so the window running the server answers both.
    const own = sample(first);
    await waitFor('the first window to be asked', () => firstAnswers.asked === 1);
    const theirs = sample(second);
    await waitFor('the first window to be asked again', () => firstAnswers.asked === 2);
    open();
    assert.match(await own, /answered in the first window/);
    assert.match(await theirs, /answered in the first window/);
  });

  it('fails a call in flight through a window that closes with why, and the next call reaches the window that took over', async () => {
    const folder = newFolder();
    const settings = { shared: legacy({ share: 'machine', args: [fixture('legacyStdio'), '--sampling-tools'] }) };
    const first = await window(folder, settings, app, answeredBy('the first window'));
    await running(first, 'shared');
    // The second window's sampling answer never comes: its call stays under way.
    const waiting = answeredBy('the second window', new Promise(() => undefined));
    const second = await window(folder, settings, app, waiting);
    await running(second, 'shared');
    const pid = await pidOf(second);

    const inFlight = second.callTool('shared', 'sample', { prompt: 'hi' }).then(
      () => new Error('the call was answered'),
      (error: Error) => error,
    );
    await waitFor('the second window to be asked during its call', () => waiting.asked === 1);
    await first.dispose();
    assert.match((await inFlight).message, /the window that ran it closed or stopped it; this window takes over/);
    await running(second, 'shared');
    const next = await pidOf(second);
    assert.notEqual(next, pid);
    assert.equal(second.server('shared')!.share?.role, 'owner');
  });

  it('meets only in a folder no other user may enter, and runs the server alone, saying why, otherwise', async () => {
    const runtime = newFolder();
    const meeting = privateShareFolder('linux', { XDG_RUNTIME_DIR: runtime });
    assert.equal(meeting, path.join(runtime, `mcp-host-shared-${process.getuid!()}`));
    assert.equal(statSync(meeting).mode & 0o777, 0o700);

    chmodSync(meeting, 0o755);
    assert.throws(
      () => privateShareFolder('linux', { XDG_RUNTIME_DIR: runtime }),
      /not a folder only this user may enter/,
    );
    assert.throws(() => privateShareFolder('win32', {}), /Unix sockets/);
    // A link in its place is named as a link (lstat reads a link's own mode, 777).
    const linked = newFolder();
    symlinkSync(newFolder(), path.join(linked, `mcp-host-shared-${process.getuid!()}`));
    assert.throws(
      () => privateShareFolder('linux', { XDG_RUNTIME_DIR: linked }),
      /mcp-host-shared-\d+ is a link, not a folder; remove it/,
    );

    const host = await window('', { shared: legacy({ share: 'machine' }) });
    // A window whose meeting folder is unusable: the host's option throws, as privateShareFolder does.
    await running(host, 'shared');
    const snapshot = host.server('shared')!;
    assert.equal(snapshot.share?.role, 'alone');
    assert.match(snapshot.share?.note ?? '', /^not shared: /);
    assert.ok(snapshot.pid, 'it runs its own process');
  });

  it('never joins a socket another user left in the folder while it was open to others: removes it and runs the process itself', async function () {
    if (process.getuid?.() !== 0) this.skip(); // planting a socket as another user needs root to become one
    const folder = newFolder();
    // A first window finds the server's socket path, and leaves.
    const first = await window(folder, { shared: legacy({ share: 'machine' }) });
    await running(first, 'shared');
    const [socketName] = readdirSync(folder).filter((name) => name.endsWith('.sock'));
    assert.ok(socketName, 'the first window listened in the folder');
    const socketPath = path.join(folder, socketName);
    await hosts.splice(hosts.indexOf(first), 1)[0].dispose();
    for (const share of shares.splice(0)) share.dispose();
    await waitFor('the socket to go with its window', () => !existsSync(socketPath));
    // The folder open to others for a moment: another user listens at that path.
    chmodSync(folder, 0o777);
    const heard = path.join(tempDir('mcp-planted-'), 'heard');
    chmodSync(path.dirname(heard), 0o777);
    const listener = `const net = require('net'); const fs = require('fs');
      net.createServer((c) => { fs.writeFileSync(${JSON.stringify(heard)}, 'connected'); c.destroy(); })
        .listen(${JSON.stringify(socketPath)}, () => { fs.chmodSync(${JSON.stringify(socketPath)}, 0o777); console.log('listening'); });`;
    const planted = spawn(process.execPath, ['-e', listener], {
      uid: 65534,
      gid: 65534,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        planted.stdout!.once('data', () => resolve());
        planted.once('exit', (code) => reject(new Error(`the planted listener exited (${code})`)));
      });
      assert.equal(statSync(socketPath).uid, 65534);
      chmodSync(folder, 0o700);
      const second = await window(folder, { shared: legacy({ share: 'machine' }) });
      const snapshot = await running(second, 'shared');
      assert.equal(snapshot.share?.role, 'owner', 'this window runs the process itself');
      assert.equal(statSync(socketPath).uid, process.getuid!(), "the socket at that path is now this user's");
      assert.equal(existsSync(heard), false, "the other user's listener never heard from this window");
      assert.match(await pidOf(second).then(String), /^\d+$/);
    } finally {
      planted.kill('SIGKILL');
    }
  });
});
