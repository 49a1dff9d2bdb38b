// MCP Host against VS Code's built-in MCP support, in the same code-server, on the same servers,
// variants interleaved, medians; the ratio is MCP Host / built-in (below 1.00: MCP Host is faster).
// The built-in's servers are in the workspace's .vscode/mcp.json, MCP Host's in mcpHost.servers;
// both are timed inside the editor by the test extension:
// - start to tools listed: the built-in's own "start and wait for live tools"
//   (workbench.mcp.startServer with waitForLiveTools), MCP Host's startServer until its row has tools;
// - a tool call through vscode.lm.invokeTool: the built-in's tool for server-everything's echo,
//   MCP Host's mcpHost_callTool (and, for reference, MCP Host's API without the editor's tool hops);
// - a 10 MB tool result, the same way;
// - window open with 20 servers configured: the extension host's CPU over the first 20 s and its
//   memory once all 20 run, and when its CPU settles; and what starting 19 of them costs (CPU of
//   the extension host and of the browser showing the workbench) and adds (memory) to a
//   window that opened without them (MCP Host's servers waiting under "onDemand", the built-in's
//   not started yet) once a first one runs, which leaves out what differs from one window to the
//   next and what a window loads once for its first server. The built-in's window has no MCP
//   Host (as its users have it); MCP Host's windows open with the code cache its first window
//   wrote, as every later one does.
//   node out/bench/builtInComparison.js [reps=7] [calls=1000] [openReps=5] [only=starts,calls,big,open]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CODE_CACHE_DIR, EditorSession, OUT, REPO } from '../test/editor/harness/editorSession';
import { startHttpFixture, waitFor } from '../test/unit/support/fixtures';
import { recordRun } from './history';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`${name}=`))?.split('=')[1] ?? fallback);
const reps = arg('reps', 7);
const calls = arg('calls', 1000);
const openReps = arg('openReps', 5);
const OPEN_SECONDS = 20;
const SAMPLE_MS = 250;
/** A second in which the extension host used more CPU than this is busy (idle here: about 50 ms a second). */
const BUSY_CPU_MS_PER_SECOND = 200;

/** When the last busy second ended, in ms from the first sample (0: never busy); samples are cumulative CPU ms every SAMPLE_MS. */
function settledAfter(samples: readonly number[]): number {
  const perSecond = 1000 / SAMPLE_MS;
  for (let i = samples.length - 1; i >= perSecond; i--) {
    if (samples[i] - samples[i - perSecond] > BUSY_CPU_MS_PER_SECOND) return i * SAMPLE_MS;
  }
  return 0;
}
const only = process.argv
  .find((a) => a.startsWith('only='))
  ?.slice(5)
  .split(',');
/** Whether a section of the comparison runs (all of them unless only= names some). */
const runs = (section: 'starts' | 'calls' | 'big' | 'open') => !only || only.includes(section);

const legacyStdio = (name: string) => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name],
});
const everything = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};
/** A stdio server's entry with its script's path spelled another way (`dir/./file`): the same program, not the same entry. */
const otherSpelling = <T extends { args?: string[] }>(server: T): T =>
  server.args?.length
    ? {
        ...server,
        args: [
          `${path.dirname(server.args[0])}${path.sep}.${path.sep}${path.basename(server.args[0])}`,
          ...server.args.slice(1),
        ],
      }
    : server;
const TEN = Array.from({ length: 10 }, (_, i) => `f${i}`);

interface Activation {
  readonly pid: number;
}
interface CallFigures {
  readonly medianMs: number;
  readonly lastLength: number;
  /** Set when a call failed: what the editor said, and after how long. */
  readonly error?: string;
  readonly afterMs?: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** utime + stime (ms) and resident memory (MB) of a process, from /proc. */
function usage(pid: number): { cpuMs: number; rssMb: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const rssPages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
  return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, rssMb: (rssPages * 4096) / 1024 / 1024 };
}

/** The workbench page's JavaScript heap in use after a full garbage collection, in bytes. */
async function pageHeapUsed(editor: EditorSession): Promise<number> {
  const cdp = await editor.workbench.page.context().newCDPSession(editor.workbench.page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

/**
 * The CPU of the browser that shows the workbench, all its processes (the page's renderer, the
 * browser, GPU and network processes), in ms so far: the workbench page's own work with what it
 * makes the browser do. (The page's task time would count the time its tasks wait for a core.)
 */
async function browserCpuClock(editor: EditorSession): Promise<{ read(): Promise<number>; stop(): Promise<void> }> {
  const browser = editor.workbench.page.context().browser();
  if (!browser) throw new Error('the workbench page has no browser to ask for its processes');
  const cdp = await browser.newBrowserCDPSession();
  return {
    async read() {
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      return processInfo.reduce((sum, process) => sum + process.cpuTime * 1000, 0);
    },
    stop: () => cdp.detach(),
  };
}

/**
 * One tool call through `vscode.lm.invokeTool` in a window where the tool's server has not started
 * (it starts for the call), in ms; the built-in's question whether to enable global auto-approval
 * is answered when it comes.
 */
async function firstCall(editor: EditorSession, call: { name: string; input: object }): Promise<number> {
  const tools = await editor.control<string[]>('lmTools');
  if (!tools.includes(call.name))
    throw new Error(`no language-model tool ${call.name} (has ${tools.filter((t) => t.startsWith('mcp')).join(', ')})`);
  const calling = editor.control<CallFigures>('lmToolCalls', { ...call, count: 1 }, 120_000);
  const dialog = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' });
  const asked = await Promise.race([
    dialog.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ),
    calling.then(() => false),
  ]);
  if (asked) await dialog.getByRole('button', { name: 'Enable' }).click();
  const figures = await calling;
  if (figures.error) throw new Error(`${call.name} failed: ${figures.error}`);
  if (!figures.lastLength) throw new Error(`${call.name} answered nothing`);
  return asked ? NaN : figures.medianMs;
}

/** The figures a window does not take (see each variant in windowOpen). */
const NOT_MEASURED = {
  firstCallMs: NaN,
  runningRssMb: NaN,
  heapMb: NaN,
  hostHeapMb: NaN,
  addedRssMb: NaN,
  addedHeapMb: NaN,
  startsCpuMs: NaN,
  startsHostCpuMs: NaN,
  quietCpuMs: NaN,
};

/** How long after the last of the 19 starts has its tools the CPU they take is still counted (lists kept, views drawn). */
const AFTER_STARTS_MS = 3000;

/** The built-in's id for a server of the first folder's .vscode/mcp.json. */
const builtInId = (name: string) => `mcp.config.ws0.${name}`;

interface WindowChoice {
  /** A window with only the built-in, as its users have it (MCP Host not installed). */
  readonly withoutMcpHost?: boolean;
  /** Files for the user data folder: MCP Host's code cache, as any window after the first has it. */
  readonly userDataFiles?: Readonly<Record<string, Uint8Array>>;
  /**
   * The window measured is the same window opened again (reloaded) after its host's servers all
   * ran in it, as a user's window is on most days: what each host keeps of its servers' last runs
   * is there.
   */
  readonly reopened?: boolean;
}

async function openEditor(
  builtIn: Record<string, unknown>,
  host: Record<string, unknown>,
  settings: Record<string, unknown> = {},
  choice: WindowChoice = {},
): Promise<EditorSession> {
  const autoApproved = Object.fromEntries(
    Object.entries(host).map(([id, s]) => [id, { ...(s as object), autoApprove: ['*'] }]),
  );
  return EditorSession.start(
    { folders: ['ws'], settings: {}, files: { 'ws/.vscode/mcp.json': JSON.stringify({ servers: builtIn }) } },
    // Neither host asks before a tool runs: MCP Host's autoApprove, the built-in's global auto-approval.
    {
      trusted: true,
      userSettings: {
        'chat.disableAIFeatures': false,
        'chat.tools.global.autoApprove': true,
        'chat.tools.global.autoApprove.optIn': true,
        'mcpHost.servers': autoApproved,
        ...settings,
      },
      ...choice,
    },
  );
}

/**
 * MCP Host's code caches as an earlier window writes them (see src/bootstrap.ts), for the windows
 * measured after it: that window starts a server, so the libraries loaded on first use have theirs.
 */
async function warmCodeCache(): Promise<Record<string, Uint8Array>> {
  const editor = await openEditor({}, { warm: legacyStdio('warm') });
  try {
    const dir = path.join(editor.codeServer.userDataDir, CODE_CACHE_DIR);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8cache')) : [];
      if (['main.js-', 'libraries.js-'].every((bundle) => names.some((name) => name.startsWith(bundle))))
        return Object.fromEntries(
          names.map((name) => [path.join(CODE_CACHE_DIR, name), readFileSync(path.join(dir, name))]),
        );
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`MCP Host did not write the code caches of main.js and libraries.js in ${dir} within 60 s`);
  } finally {
    await editor.stop();
  }
}

const rows: string[] = [];
const digits = (value: number, unit: string) => (Math.abs(value) >= 20 ? 0 : unit === 'ms' ? 2 : 1);
const row = (measure: string, ours: number, theirs: number, unit = 'ms') =>
  progress(
    rows[
      rows.push(
        `| ${measure} | ${ours.toFixed(digits(ours, unit))} ${unit} | ${theirs.toFixed(digits(theirs, unit))} ${unit} | ${theirs <= 0 ? '—' : (ours / theirs).toFixed(2)} |`,
      ) - 1
    ],
  );
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function sideBySide(): Promise<void> {
  const http = await startHttpFixture();
  const servers: Record<string, unknown> = {
    everything,
    'legacy-http': { type: 'http', url: `http://127.0.0.1:${http.port}/legacy` },
    'modern-http': { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
    ...Object.fromEntries(TEN.map((id) => [id, legacyStdio(id)])),
  };
  // MCP Host does not publish a server VS Code's own mcp.json runs (agents would see it twice): its
  // copies start the same file by another spelling of its path, so that it publishes them.
  const published = Object.fromEntries(
    Object.entries(servers).map(([id, server]) => [id, otherSpelling(server as { args?: string[] })]),
  );
  const editor = await openEditor(servers, published);
  try {
    await editor.control('executeCommand', {
      command: 'workbench.mcp.startServer',
      args: ['*', { waitForLiveTools: true }],
    });
    const starts: [string, string[]][] = [
      ['server-everything (stdio): start to tools listed', ['everything']],
      ['legacy fixture over HTTP (2025-11-25, sessions): start to tools listed', ['legacy-http']],
      ['modern fixture over HTTP (2026-07-28): start to tools listed', ['modern-http']],
      ['ten stdio fixtures at once: start to all tools listed', TEN],
    ];
    for (const [measure, ids] of runs('starts') ? starts : []) {
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let rep = 0; rep <= reps; rep++) {
        // Alternate which goes first; the first round warms both up and is not counted.
        const order = rep % 2 === 0 ? ['host', 'builtin'] : ['builtin', 'host'];
        for (const variant of order) {
          const ms =
            variant === 'host'
              ? await editor.control<number>('hostStart', { ids })
              : await editor.control<number>('builtInStart', { ids: ids.map(builtInId) });
          if (rep > 0) (variant === 'host' ? ours : theirs).push(ms);
        }
      }
      row(`${measure}, median of ${reps}`, median(ours), median(theirs));
    }
    if (runs('starts')) {
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let rep = 0; rep <= reps; rep++) {
        const order = rep % 2 === 0 ? ['gateway', 'builtin'] : ['builtin', 'gateway'];
        for (const variant of order) {
          const ms =
            variant === 'gateway'
              ? await editor.control<number>('gatewayStart', { ids: ['everything'] })
              : await editor.control<number>('builtInStart', { ids: [builtInId('everything')] });
          if (rep > 0) (variant === 'gateway' ? ours : theirs).push(ms);
        }
      }
      row(
        `server-everything started by VS Code through MCP Host's gateway (MCP Host starts the process): start to tools listed, median of ${reps}`,
        median(ours),
        median(theirs),
      );
    }

    // VS Code names an MCP tool `mcp_<first 13 characters of the server's title or label, sanitized>_<tool>`: MCP
    // Host's published copies are "<id> (MCP Host)". They are started as VS Code's chat would.
    const gatewayName = (server: string, tool: string) =>
      `mcp_${`${server} (MCP Host)`
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, '_')
        .slice(0, 13)}_${tool}`;
    for (const id of ['everything', 'f0']) {
      await waitFor(
        `VS Code to have the tools of ${id} (MCP Host)`,
        async () => {
          await editor.control('executeCommand', {
            command: 'workbench.mcp.startServer',
            args: [`mcp-host.mcp-host/${id} (MCP Host)`, { waitForLiveTools: true }],
          });
          return (await editor.control<string[]>('lmTools')).includes(gatewayName(id, 'echo'));
        },
        60_000,
      );
    }
    const tools = await editor.control<string[]>('lmTools');
    const builtInTool = (server: string, tool: string) => {
      const name = tools.find(
        (t) => t.startsWith(`mcp_${server}`) && t.endsWith(`_${tool}`) && t !== gatewayName(server, tool),
      );
      if (!name)
        throw new Error(
          `the built-in offers no language-model tool for ${server}/${tool} (has ${tools.filter((t) => t.startsWith('mcp_')).join(', ')})`,
        );
      return name;
    };
    const echo = builtInTool('everything', 'echo');
    // The same server as MCP Host publishes it to VS Code's MCP, through MCP Host's gateway.
    const gatewayTool = (server: string, tool: string) => {
      if (!tools.includes(gatewayName(server, tool)))
        throw new Error(`VS Code's agents have no ${gatewayName(server, tool)}`);
      return gatewayName(server, tool);
    };
    const gatewayEcho = gatewayTool('everything', 'echo');
    // The built-in asks once before its global auto-approval takes effect: a user says Enable.
    const warmUp = editor.control<CallFigures>('lmToolCalls', { name: echo, input: { message: 'hi' }, count: 1 });
    const dialog = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' });
    if (
      await dialog.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    )
      await dialog.getByRole('button', { name: 'Enable' }).click();
    await warmUp;
    const rounds = runs('calls') ? 5 : 0;
    const ours: number[] = [];
    const theirs: number[] = [];
    const floor: number[] = [];
    const gateway: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const count = Math.round(calls / rounds);
      const host = await editor
        .control<CallFigures>('lmToolCalls', {
          name: 'mcpHost_callTool',
          input: { server: 'everything', tool: 'echo', arguments: { message: 'hi' } },
          count,
        })
        .catch(async (error: Error) => {
          await editor.workbench.screenshot('bench-host-echo');
          throw error;
        });
      const builtIn = await editor
        .control<CallFigures>('lmToolCalls', { name: echo, input: { message: 'hi' }, count })
        .catch(async (error: Error) => {
          await editor.workbench.screenshot('bench-builtin-echo');
          throw error;
        });
      const noop = await editor.control<CallFigures>('lmToolCalls', {
        name: 'mcpHostTest_echo',
        input: { message: 'hi' },
        count,
      });
      const published = await editor.control<CallFigures>('lmToolCalls', {
        name: gatewayEcho,
        input: { message: 'hi' },
        count,
      });
      if (
        host.lastLength !== builtIn.lastLength ||
        noop.lastLength !== host.lastLength ||
        published.lastLength !== builtIn.lastLength
      )
        throw new Error('the two hosts (or the test tool) answered the echo differently');
      gateway.push(published.medianMs);
      ours.push(host.medianMs);
      theirs.push(builtIn.medianMs);
      floor.push(noop.medianMs);
    }
    if (rounds) {
      row(
        `vscode.lm.invokeTool, server-everything echo, ${calls} calls (median of round medians)`,
        median(ours),
        median(theirs),
      );
      row(
        `vscode.lm.invokeTool, server-everything echo published through MCP Host's gateway (VS Code's MCP → gateway → MCP Host → server), ${calls} calls`,
        median(gateway),
        median(theirs),
      );
      row(`(same) the gateway lane against MCP Host's #mcpCall lane`, median(gateway), median(ours));
      const api = await editor.control<number>('apiCalls', {
        via: 'invokeTool',
        serverId: 'everything',
        name: 'echo',
        args: { message: 'hi' },
        count: calls,
      });
      rows.push(
        `| (reference) the same call through MCP Host's API, without the editor's tool hops | ${api.toFixed(2)} ms | | |`,
      );
      rows.push(
        `| (reference) an extension's tool that only answers "Echo: hi", the editor's floor for any extension tool | ${median(floor).toFixed(2)} ms | | |`,
      );
    }
    if (!runs('big')) return;

    const payload = builtInTool('f0', 'payload');
    const big: number[] = [];
    const bigTheirs: number[] = [];
    const bytes = 10 * 1024 * 1024;
    for (let rep = 0; rep < Math.max(3, Math.ceil(reps / 2)); rep++) {
      const host = await editor.control<CallFigures>('lmToolCalls', {
        name: 'mcpHost_callTool',
        input: { server: 'f0', tool: 'payload', arguments: { bytes } },
        count: 1,
      });
      progress(`10 MB through MCP Host: ${host.medianMs.toFixed(0)} ms`);
      if (host.error || host.lastLength < bytes)
        throw new Error(`MCP Host's 10 MB result failed: ${host.error ?? `${host.lastLength} characters`}`);
      big.push(host.medianMs);
      const asked = Date.now();
      const builtIn = await editor
        .control<CallFigures>('lmToolCalls', { name: payload, input: { bytes }, count: 1 }, 180_000)
        .catch(async (error: Error) => {
          await editor.workbench.screenshot('bench-builtin-10mb');
          return { medianMs: NaN, lastLength: 0, error: `no answer (${error.message})`, afterMs: Date.now() - asked };
        });
      if (builtIn.error) {
        rows.push(
          `| a 10 MB tool result through vscode.lm.invokeTool | ${median(big).toFixed(0)} ms | failed after ${builtIn.afterMs!.toFixed(0)} ms: ${builtIn.error.replace(/\|/g, '/').replace(/\s+/g, ' ')} | |`,
        );
        progress(rows[rows.length - 1]);
        return;
      }
      progress(`10 MB through the built-in: ${builtIn.medianMs.toFixed(0)} ms`);
      if (builtIn.lastLength < bytes)
        throw new Error(`the built-in's 10 MB result came back short (${builtIn.lastLength} characters)`);
      bigTheirs.push(builtIn.medianMs);
    }
    row(`a 10 MB tool result through vscode.lm.invokeTool, median of ${big.length}`, median(big), median(bigTheirs));
    const bigGateway: number[] = [];
    for (let rep = 0; rep < big.length; rep++) {
      const published = await editor.control<CallFigures>(
        'lmToolCalls',
        { name: gatewayTool('f0', 'payload'), input: { bytes }, count: 1 },
        180_000,
      );
      if (published.error || published.lastLength < bytes)
        throw new Error(
          `the 10 MB result through MCP Host's gateway failed: ${published.error ?? `${published.lastLength} characters`}`,
        );
      bigGateway.push(published.medianMs);
    }
    row(
      `a 10 MB tool result through MCP Host's gateway (vscode.lm.invokeTool), median of ${bigGateway.length}`,
      median(bigGateway),
      median(bigTheirs),
    );
  } finally {
    await editor.stop();
    await http.stop();
  }
}

/** Window open with 20 servers configured in one host (none in the other): extension-host CPU and memory, interleaved, medians. */
async function windowOpen(): Promise<void> {
  const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, legacyStdio(`s${i}`)]));
  const measure = async (
    builtIn: Record<string, unknown>,
    host: Record<string, unknown>,
    settings: Record<string, unknown> = {},
    choice: WindowChoice = {},
  ) => {
    const editor = await openEditor(builtIn, host, settings, choice);
    try {
      if (choice.reopened) {
        const ids = Object.keys(Object.keys(builtIn).length ? builtIn : host);
        if (Object.keys(builtIn).length) await editor.control('builtInStart', { ids: ids.map(builtInId) });
        else await editor.control('hostStart', { ids });
        // A user's servers run a while before the window goes; MCP Host writes what it keeps of
        // their runs within half a second of the last start, and a remote window cannot write
        // once it is going (src/editor/mementoStores.ts, StateWrites).
        await new Promise((r) => setTimeout(r, 3_000));
        await editor.reloadWindow();
      }
      const { pid } = await editor.control<Activation>('activation');
      const start = usage(pid);
      // The extension host's CPU every quarter second: the host has settled after its last busy second.
      const samples: number[] = [start.cpuMs];
      while (samples.length <= (OPEN_SECONDS * 1000) / SAMPLE_MS) {
        await new Promise((r) => setTimeout(r, SAMPLE_MS));
        samples.push(usage(pid).cpuMs);
      }
      const open = samples[samples.length - 1] - start.cpuMs;
      // Each host's clients live where it runs them: MCP Host's in the extension host, the
      // built-in's partly in the workbench page; the heaps of both, after a collection, count both.
      const memory = async () => {
        const hostHeapMb = (await editor.control<number>('heapUsed')) / 1024 / 1024;
        const heapMb = hostHeapMb + (await pageHeapUsed(editor)) / 1024 / 1024;
        return { heapMb, hostHeapMb, rssMb: usage(pid).rssMb };
      };
      const figures = { openCpuMs: open, settledMs: settledAfter(samples) };
      // A window opened again: its opening, then the first call of a server that has not started in it.
      if (choice.reopened) {
        const ours = Object.keys(builtIn).length === 0;
        const [first, second] = Object.keys(ours ? host : builtIn);
        const call = ours
          ? (id: string) => ({
              name: 'mcpHost_callTool',
              input: { server: id, tool: 'echo', arguments: { text: 'hi' } },
            })
          : (id: string) => ({ name: `mcp_${id}_echo`, input: { text: 'hi' } });
        // A first call in a window may ask to enable auto-approval (the built-in): not the call measured.
        await firstCall(editor, call(second));
        const firstCallMs = await firstCall(editor, call(first));
        return { ...figures, ...NOT_MEASURED, firstCallMs };
      }
      const startedWithWindow = Object.keys(host).length > 0 && settings['mcpHost.autoStart'] === 'startup';
      if (startedWithWindow) {
        // MCP Host's default: the 20 run since the window opened.
        const servers = await editor.control<{ id: string; status: string }[]>('listServers');
        const notRunning = servers
          .filter((server) => server.status !== 'running')
          .map((server) => `${server.id} (${server.status})`);
        if (servers.length !== 20 || notRunning.length)
          throw new Error(
            `20 servers should run ${OPEN_SECONDS} s after the window opened; not running: ${notRunning.join(', ') || `${20 - servers.length} missing`}`,
          );
        const running = await memory();
        return {
          ...figures,
          ...NOT_MEASURED,
          runningRssMb: running.rssMb,
          heapMb: running.heapMb,
          hostHeapMb: running.hostHeapMb,
        };
      }
      // MCP Host's default in a first window: it learns its servers' lists once the window is idle.
      if (Object.keys(host).length > 0 && settings['mcpHost.learnInBackground'] !== false)
        return { ...figures, ...NOT_MEASURED };
      // Then all 20 running in that host, for its memory: one first, so that what a first start
      // loads and compiles once in a window (code, regular expressions) is not counted as what
      // each server adds, then the other 19.
      const [first, ...others] = Object.keys(Object.keys(builtIn).length ? builtIn : host);
      const startServers = (ids: string[]) =>
        Object.keys(builtIn).length
          ? editor.control('builtInStart', { ids: ids.map(builtInId) })
          : editor.control('hostStart', { ids });
      await startServers([first]);
      const withOne = await memory();
      // The CPU the 19 starts take: the built-in's clients run in the workbench page (the
      // browser's), MCP Host's views are drawn there; both hosts spawn and pipe in the extension host. Counted until
      // a while after the last has its tools, for what follows a start (lists kept, views drawn).
      const browser = await browserCpuClock(editor);
      const cpuNow = async () => ({ host: usage(pid).cpuMs, browser: await browser.read() });
      const spent = (from: { host: number; browser: number }, to: { host: number; browser: number }) => ({
        host: to.host - from.host,
        all: to.host - from.host + to.browser - from.browser,
      });
      // For reference: what the window takes in as many seconds when nothing starts.
      const quietFrom = await cpuNow();
      await new Promise((r) => setTimeout(r, AFTER_STARTS_MS));
      const quiet = spent(quietFrom, await cpuNow());
      const startsFrom = await cpuNow();
      await startServers(others);
      await new Promise((r) => setTimeout(r, AFTER_STARTS_MS));
      const starts = spent(startsFrom, await cpuNow());
      await browser.stop();
      const running = await memory();
      return {
        ...figures,
        runningRssMb: running.rssMb,
        heapMb: running.heapMb,
        hostHeapMb: running.hostHeapMb,
        addedRssMb: running.rssMb - withOne.rssMb,
        addedHeapMb: running.heapMb - withOne.heapMb,
        startsCpuMs: starts.all,
        startsHostCpuMs: starts.host,
        quietCpuMs: quiet.all,
        firstCallMs: NaN,
      };
    } finally {
      await editor.stop();
    }
  };
  type Figures = Awaited<ReturnType<typeof measure>>;
  const ours: Figures[] = [];
  const oursOnDemand: Figures[] = [];
  const oursDefaultFirst: Figures[] = [];
  const oursDefaultAgain: Figures[] = [];
  const theirs: Figures[] = [];
  const theirsAgain: Figures[] = [];
  const theirsBesideUs: Figures[] = [];
  // MCP Host's default (servers start at their first use, those not run yet learn their lists
  // when the window is idle), not the "startup" the editor tests' profile sets.
  const byDefault = { 'mcpHost.autoStart': undefined };
  // MCP Host's windows open as every window after its first does, with its code cache; the
  // built-in's without MCP Host, as its users have it.
  const userDataFiles = await warmCodeCache();
  const variants = [
    async () => ours.push(await measure({}, twenty, { 'mcpHost.autoStart': 'startup' }, { userDataFiles })),
    async () =>
      oursOnDemand.push(
        await measure(
          {},
          twenty,
          { 'mcpHost.autoStart': 'onDemand', 'mcpHost.learnInBackground': false },
          { userDataFiles },
        ),
      ),
    async () => oursDefaultFirst.push(await measure({}, twenty, byDefault, { userDataFiles })),
    async () => oursDefaultAgain.push(await measure({}, twenty, byDefault, { userDataFiles, reopened: true })),
    async () => theirs.push(await measure(twenty, {}, {}, { withoutMcpHost: true })),
    async () => theirsAgain.push(await measure(twenty, {}, {}, { withoutMcpHost: true, reopened: true })),
    // For reference: the built-in's window with MCP Host installed, without servers of its own.
    async () => theirsBesideUs.push(await measure(twenty, {}, {}, { userDataFiles })),
  ];
  for (let rep = 0; rep < openReps; rep++) {
    // Each round starts with another variant, so a drift on the machine does not favour one.
    for (let i = 0; i < variants.length; i++) await variants[(rep + i) % variants.length]();
    const figures = (key: 'openCpuMs' | 'settledMs') =>
      `${ours[rep][key]} (startup) / ${oursOnDemand[rep][key]} (onDemand, not learning) / ${oursDefaultFirst[rep][key]} (default, first window) / ${oursDefaultAgain[rep][key]} (default, opened again) / ${theirs[rep][key]} (built-in) / ${theirsAgain[rep][key]} (built-in, opened again) / ${theirsBesideUs[rep][key]} ms (built-in, MCP Host installed)`;
    progress(
      `window open, round ${rep + 1} of ${openReps}: CPU ${figures('openCpuMs')}; idle after ${figures('settledMs')}`,
    );
    const starts = (f: Figures) =>
      `${f.startsCpuMs.toFixed(0)} (${f.startsHostCpuMs} in the extension host; ${f.quietCpuMs.toFixed(0)} in ${AFTER_STARTS_MS / 1000} s without starts)`;
    progress(
      `  19 starts in the open window: CPU ${starts(oursOnDemand[rep])} (onDemand) / ${starts(theirs[rep])} (built-in) / ${starts(theirsBesideUs[rep])} ms (built-in, MCP Host installed)`,
    );
  }
  const of = (figures: Figures[], key: keyof Figures) => median(figures.map((f) => f[key]));
  const times = `median of ${openReps}`;
  row(
    `window opened again after its 20 servers ran (MCP Host's default: they start at their first use, their lists known from that run): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursDefaultAgain, 'openCpuMs'),
    of(theirsAgain, 'openCpuMs'),
  );
  row(
    `first tool call of a server that has not started in a window opened again (it starts for the call; MCP Host's call tool against the built-in's own tool, vscode.lm.invokeTool), ${times}`,
    of(oursDefaultAgain, 'firstCallMs'),
    of(theirsAgain, 'firstCallMs'),
  );
  row(
    `first window with 20 servers that never ran (MCP Host's default: they learn their lists one at a time once the window is idle): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursDefaultFirst, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `window open, 20 servers configured, "mcpHost.autoStart": "startup" (MCP Host starts them with the window): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(ours, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `window open, 20 servers configured, "mcpHost.autoStart": "onDemand" without learning in the background: extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursOnDemand, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `(reference) the built-in's window of the row above with MCP Host installed, without servers of its own: extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(theirsBesideUs, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `20 servers running (MCP Host started them with the window, the built-in's started in the open window): extension-host memory (RSS), ${times}`,
    of(ours, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `20 servers running (MCP Host started them with the window, the built-in's started in the open window): JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(ours, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `20 servers running, started in an open window ("onDemand" for MCP Host): extension-host memory (RSS), ${times}`,
    of(oursOnDemand, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `(reference) the built-in's 20 running with MCP Host installed, without servers of its own: extension-host memory (RSS), ${times}`,
    of(theirsBesideUs, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `20 servers running, started in an open window ("onDemand" for MCP Host): JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(oursOnDemand, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `  the same: the extension host's heap alone, ${times}`,
    of(oursOnDemand, 'hostHeapMb'),
    of(theirs, 'hostHeapMb'),
    'MB',
  );
  row(
    `(reference) the built-in's 20 running with MCP Host installed, without servers of its own: JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(theirsBesideUs, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `  the same: the extension host's heap alone, ${times}`,
    of(theirsBesideUs, 'hostHeapMb'),
    of(theirs, 'hostHeapMb'),
    'MB',
  );
  // MCP Host's onDemand window opens as the built-in's does, with nothing started: the same start, added to the same kind of window.
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): CPU of the starts, extension host + the browser showing the workbench, until ${AFTER_STARTS_MS / 1000} s after the last has its tools, ${times}`,
    of(oursOnDemand, 'startsCpuMs'),
    of(theirs, 'startsCpuMs'),
  );
  row(
    `  the same starts: extension host's CPU alone, ${times}`,
    of(oursOnDemand, 'startsHostCpuMs'),
    of(theirs, 'startsHostCpuMs'),
  );
  row(
    `  (reference) the same window before the starts, ${AFTER_STARTS_MS / 1000} s without any: extension host + the browser, ${times}`,
    of(oursOnDemand, 'quietCpuMs'),
    of(theirs, 'quietCpuMs'),
  );
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): extension-host RSS they add, after a collection, ${times}`,
    of(oursOnDemand, 'addedRssMb'),
    of(theirs, 'addedRssMb'),
    'MB',
  );
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): JavaScript heap they add, extension host + workbench page, after a collection, ${times}`,
    of(oursOnDemand, 'addedHeapMb'),
    of(theirs, 'addedHeapMb'),
    'MB',
  );
}

async function main(): Promise<void> {
  if (runs('starts') || runs('calls') || runs('big')) await sideBySide();
  if (runs('open')) await windowOpen();
  console.log(
    `\nMCP Host against VS Code's built-in MCP support (code-server, ${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log('| measure | MCP Host | built-in | ratio |');
  console.log('| --- | --- | --- | --- |');
  for (const line of rows) console.log(line);
  recordRun('builtin', { args: process.argv.slice(2), rows });
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
