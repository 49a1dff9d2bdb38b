// `npm run bench:share`: servers shared between the windows of one code-server ("share":
// "machine") against a process per window ("share": "window"), measured in one run.
// - memory: 3 windows × 10 servers, resident memory of the whole code-server process tree (its
//   extension hosts, their servers, everything else it runs) and of the servers alone;
// - takeover: a window calls through the process another window runs, that window closes: how
//   long the calls stop, against starting the same server and calling it in a window of its own.
// Arguments: windows=3 servers=10 reps=2 calls=1 (calls=0 leaves out the takeover).
import { readFileSync } from 'node:fs';
import { listDescendants } from '../src/core/process/processTree';
import type { McpServerInfo } from '../src/editor/publicApi';
import { EditorSession } from '../test/editor/harness/editorSession';
import type { Workbench } from '../test/editor/harness/workbench';
import { waitFor } from '../test/unit/support/fixtures';
import { arg, legacyStdio, median, usage } from './builtInSession';
import { machineLine, recordRun } from './history';

const WINDOWS = arg('windows', 3);
const SERVERS = arg('servers', 10);
const REPS = arg('reps', 2);
const TAKEOVER = arg('calls', 1) > 0;

type Share = 'window' | 'machine';

function rssMb(pid: number): number {
  try {
    return usage(pid).rssMb;
  } catch {
    return 0; // ended meanwhile
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

const settingsFor = (ids: readonly string[], share: Share) => ({
  'mcpHost.servers': Object.fromEntries(ids.map((id) => [id, { ...legacyStdio(id), share }])),
  'chat.mcp.autostart': 'never',
});

/** Every window open and every server running in each: the process tree's memory, and the servers' share of it. */
async function memory(share: Share): Promise<{ treeMb: number; serversMb: number; processes: number }> {
  const ids = Array.from({ length: SERVERS }, (_, i) => `s${i + 1}`);
  const editor = await EditorSession.start(
    { folders: ['w1'], settings: {} },
    { trusted: true, userSettings: settingsFor(ids, share) },
  );
  const windows: Workbench[] = [editor.workbench];
  try {
    for (let w = 2; w <= WINDOWS; w++) windows.push(await editor.openWindow(`w${w}`));
    for (const window of windows) {
      await window.openMcpView();
      for (const id of ids) await window.waitForServerDescription(id, /\b\d+ tools?\b/, 240_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000)); // start-up garbage collected
    const root = editor.codeServer.process.pid!;
    const pids = [root, ...(await listDescendants(root))];
    const servers = pids.filter((pid) => commandLine(pid).includes('legacyStdio.js'));
    return {
      treeMb: pids.reduce((sum, pid) => sum + rssMb(pid), 0),
      serversMb: servers.reduce((sum, pid) => sum + rssMb(pid), 0),
      processes: servers.length,
    };
  } finally {
    for (const window of windows.slice(1)) await window.close().catch(() => undefined);
    await editor.stop();
  }
}

/**
 * The first window reaches the second one's process and calls it without a pause; the second window
 * closes. How long no call succeeds (from the close to the first answer after it), against a cold
 * start and first call of the same server in the first window.
 */
async function takeover(): Promise<{ gapMs: number; coldMs: number; failed: number }> {
  const editor = await EditorSession.start(
    { folders: ['w1'], settings: {} },
    { trusted: true, userSettings: settingsFor(['t'], 'machine') },
  );
  const second = await editor.openWindow('w2');
  /** The process that answers a call (the fixture's pid tool). */
  const call = async () =>
    Number(
      (await editor.control<{ content: { text: string }[] }>('callTool', { serverId: 't', name: 'pid', args: {} }))
        .content[0].text,
    );
  const server = async () => (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 't')!;
  try {
    await second.openMcpView();
    await second.waitForServerDescription('t', /^runs in another window · \d+ tools?\b/, 240_000);
    // The first window lets go (Stop in This Window): the second takes it over, the first joins it.
    const stopping = editor.control('executeCommand', { command: 'mcpHost.stopServer', args: ['t'] });
    const dialog = await editor.workbench.dialog();
    await dialog.getByRole('button', { name: 'Stop in This Window', exact: true }).click();
    await stopping;
    await second.waitForServerDescription('t', /^\d+ tools?\b/, 120_000);
    await editor.control('executeCommand', { command: 'mcpHost.startServer', args: ['t'] });
    await waitFor(
      "the first window to reach the second one's process",
      async () => (await server()).share?.role === 'guest',
      60_000,
    );
    const before = await call();

    let closedAt = 0;
    let answeredAt = 0;
    let failed = 0;
    const calling = (async () => {
      while (!answeredAt) {
        try {
          // Answered by the process of the window that took it over, not by the closing one's.
          if ((await call()) !== before && closedAt) answeredAt = performance.now();
        } catch {
          failed++;
        }
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    closedAt = performance.now();
    await second.closeWindow();
    await calling;
    const gapMs = answeredAt - closedAt;

    // The baseline: the same server stopped, then started by a call in this window alone.
    await editor.control('executeCommand', { command: 'mcpHost.stopServer', args: ['t'] });
    await waitFor('stopped', async () => (await server()).status === 'stopped', 60_000);
    const coldStart = performance.now();
    await editor.control('executeCommand', { command: 'mcpHost.startServer', args: ['t'] });
    await call();
    return { gapMs, coldMs: performance.now() - coldStart, failed };
  } finally {
    await second.close().catch(() => undefined);
    await editor.stop();
  }
}

async function main(): Promise<void> {
  const runs: Record<Share, Awaited<ReturnType<typeof memory>>[]> = { window: [], machine: [] };
  for (let rep = 0; rep < REPS; rep++)
    for (const share of ['window', 'machine'] as const) {
      const figures = await memory(share);
      runs[share].push(figures);
      console.log(`round ${rep + 1}, share ${share}: ${JSON.stringify(figures)}`);
    }
  const of = (share: Share, key: 'treeMb' | 'serversMb') => median(runs[share].map((r) => r[key]));
  const mb = (n: number) => `${Math.round(n)} MB`;
  const rows = [
    '| measure | shared ("machine") | a process per window | ratio | goal |',
    '| --- | --- | --- | --- | --- |',
    `| ${WINDOWS} windows × ${SERVERS} servers: resident memory of the whole code-server process tree, median of ${REPS} | ${mb(of('machine', 'treeMb'))} | ${mb(of('window', 'treeMb'))} | ${(of('machine', 'treeMb') / of('window', 'treeMb')).toFixed(2)} | ≤ 0.40 |`,
    `| the same, the server processes alone (${runs.machine[0].processes} against ${runs.window[0].processes}) | ${mb(of('machine', 'serversMb'))} | ${mb(of('window', 'serversMb'))} | ${(of('machine', 'serversMb') / of('window', 'serversMb')).toFixed(2)} | |`,
  ];
  const results: Record<string, unknown> = { memory: runs };
  if (TAKEOVER) {
    const taken = await takeover();
    results.takeover = taken;
    rows.push(
      `| a window calling through another window's process, that window closes: answered again by a process of its own after (${taken.failed} calls failed meanwhile) | ${Math.round(taken.gapMs)} ms | ${Math.round(taken.coldMs)} ms (a start and first call in a window alone) | ${(taken.gapMs / taken.coldMs).toFixed(2)} | |`,
    );
  }
  console.log(`\n${machineLine()}\n${rows.join('\n')}`);
  recordRun('share', { args: process.argv.slice(2), rows, results });
}

void main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
