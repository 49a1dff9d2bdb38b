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
//   node out/bench/builtInComparison.js [reps=7] [calls=1000] [openReps=5] [only=starts,calls,first,big,open] [profile=1]
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { OUT, REPO } from '../test/editor/harness/editorSession';
import { startHttpFixture, waitFor } from '../test/unit/support/fixtures';
import { recordRun } from './history';
import {
  arg,
  builtInId,
  legacyStdio,
  median,
  openEditor,
  progress,
  row,
  rows,
  runs,
  type CallFigures,
} from './builtInSession';
import { windowOpen } from './windowOpen';

const reps = arg('reps', 7);
const calls = arg('calls', 1000);

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
/**
 * MCP Host's id for the bench's server `id`: another name than the built-in's, as VS Code names a
 * published server's tools after it (`mcp_<name>_<tool>`) and numbers a second server of one name.
 */
const hostId = (id: string) => `h-${id}`;

/** The pids of the stdio lane's relay processes (dist/gatewayRelay.js) on this machine, not the floor's. */
function relayProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return commandLine.includes('gatewayRelay.js') && !commandLine.includes('mcp-host-floor-');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * Waits until the relay processes stop coming and going (the same set in three looks half a second
 * apart): some on the stdio lane, none on the HTTP lane.
 */
async function relaysSettled(lane: 'http' | 'stdio'): Promise<void> {
  let seen = '';
  let same = 0;
  await waitFor(
    `the relay processes to settle on the ${lane} lane`,
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = relayProcesses().sort().join(',');
      same = now === seen ? same + 1 : 0;
      seen = now;
      return same >= 2 && (now !== '') === (lane === 'stdio');
    },
    60_000,
  );
}

/**
 * A process's memory in KiB (0 once it is gone): resident, and its own (private pages, what one
 * more such process adds; the rest of resident is the Node binary's pages, shared with every
 * process that runs the same Node, the extension host's included).
 */
function memoryKiB(pid: number): { resident: number; own: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
    return { resident: field('Rss'), own: field('Private_Clean') + field('Private_Dirty') };
  } catch {
    return { resident: 0, own: 0 };
  }
}

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
  const published: Record<string, unknown> = Object.fromEntries(
    Object.entries(servers).map(([id, server]) => [hostId(id), otherSpelling(server as { args?: string[] })]),
  );
  // The floors of each kind of definition an extension hands VS Code (bench/cannedServer.ts), published by the test extension.
  const floorScript = path.join(OUT, 'bench/cannedServer.js');
  process.env.MCPHOST_BENCH_FLOOR = floorScript;
  // The same canned responder run by MCP Host and published through its lanes: against the floors,
  // the lane's own cost, with the server's work the same on both sides.
  published[hostId('canned')] = { type: 'stdio', command: process.execPath, args: [floorScript, 'stdio', 'canned'] };
  const editor = await openEditor(servers, published, {}, { env: { MCPHOST_BENCH_FLOOR: floorScript } });
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
              ? await editor.control<number>('hostStart', { ids: ids.map(hostId) })
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
              ? await editor.control<number>('gatewayStart', { ids: [hostId('everything')] })
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
    // Host's published copies are labelled and titled with their id. They are started as VS Code's chat would.
    const gatewayName = (server: string, tool: string) =>
      `mcp_${server
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, '_')
        .slice(0, 13)}_${tool}`;
    for (const id of [hostId('everything'), hostId('f0'), hostId('canned')]) {
      await waitFor(
        `VS Code to have the tools of MCP Host's ${id}`,
        async () => {
          await editor.control('executeCommand', {
            command: 'workbench.mcp.startServer',
            args: [`mcp-host.mcp-host/${id}`, { waitForLiveTools: true }],
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
    const gatewayEcho = gatewayTool(hostId('everything'), 'echo');
    const cannedEcho = gatewayTool(hostId('canned'), 'echo');
    const floors = { http: 'mcp_floor-http_echo', stdio: 'mcp_floor-stdio_echo', relayed: 'mcp_floor-relayed_echo' };
    for (const label of ['floor-http', 'floor-stdio', 'floor-relayed'])
      await editor.control('executeCommand', {
        command: 'workbench.mcp.startServer',
        args: [`mcp-host.mcp-host-test-host/${label}`, { waitForLiveTools: true }],
      });
    const named = await editor.control<string[]>('lmTools');
    for (const name of Object.values(floors))
      if (!named.includes(name))
        throw new Error(`VS Code's agents have no ${name} (the floor servers did not publish)`);
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
    /**
     * With `profile=1`, the last round writes the extension host's CPU profile of each variant's
     * calls to test-results/profiles/<variant>.cpuprofile (open in Chrome's DevTools, or summarize
     * with `node out/bench/profileSummary.js`).
     */
    const profileDir = arg('profile', 0) ? path.join(REPO, 'test-results', 'profiles') : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    /** Has VS Code connect to MCP Host's servers over `lane` (`mcpHost.agents.lane`), and waits until that settles. */
    const useLane = async (lane: 'http' | 'stdio') => {
      await editor.control('updateUserSetting', { section: 'mcpHost.agents.lane', value: lane });
      await waitFor(
        `VS Code to reach MCP Host's everything over the ${lane} lane`,
        async () => {
          await editor.control('executeCommand', {
            command: 'workbench.mcp.startServer',
            args: [`mcp-host.mcp-host/${hostId('everything')}`, { waitForLiveTools: true }],
          });
          const warm = await editor.control<CallFigures>('lmToolCalls', {
            name: gatewayEcho,
            input: { message: 'hi' },
            count: 1,
          });
          // VS Code hears of the lane's change a moment after the setting is written: a call that
          // answered on the old connection does not mean the new one is in use. A relay process
          // runs exactly while VS Code is connected over the stdio lane.
          return warm.error === undefined && relayProcesses().length > 0 === (lane === 'stdio');
        },
        60_000,
      );
      // A lane's change reconnects every server VS Code has of MCP Host (a relay process each on
      // the stdio lane): what is measured while that goes on pays for it.
      await relaysSettled(lane);
      for (const name of [gatewayEcho, cannedEcho])
        await editor.control<CallFigures>('lmToolCalls', { name, input: { message: 'hi' }, count: 5 });
    };
    /**
     * The variants, each a language-model tool called with the echo's input. The lane is chosen
     * once per phase (changing it reconnects every published server), and each phase interleaves
     * the variants that compare with it, in an order that turns each round.
     */
    const variants: Record<string, { tool: string; input: object; lanes: readonly ('http' | 'stdio')[] }> = {
      host: {
        tool: 'mcpHost_callTool',
        input: { server: hostId('everything'), tool: 'echo', arguments: { message: 'hi' } },
        lanes: ['http', 'stdio'],
      },
      'built-in': { tool: echo, input: { message: 'hi' }, lanes: ['http', 'stdio'] },
      noop: { tool: 'mcpHostTest_echo', input: { message: 'hi' }, lanes: ['http'] },
      lane: { tool: gatewayEcho, input: { message: 'hi' }, lanes: ['http', 'stdio'] },
      'lane-canned': { tool: cannedEcho, input: { message: 'hi' }, lanes: ['http', 'stdio'] },
      'floor-http': { tool: floors.http, input: { message: 'hi' }, lanes: ['http'] },
      'floor-stdio': { tool: floors.stdio, input: { message: 'hi' }, lanes: ['stdio'] },
      'floor-relayed': { tool: floors.relayed, input: { message: 'hi' }, lanes: ['stdio'] },
    };
    /** Round medians, by `<variant>@<lane>`. */
    const samples: Record<string, number[]> = {};
    const relayMemory: { resident: number; own: number }[] = [];
    let answer: number | undefined;
    for (const lane of rounds ? (['http', 'stdio'] as const) : []) {
      await useLane(lane);
      const here = Object.keys(variants).filter((v) => variants[v].lanes.includes(lane));
      for (let round = 0; round < rounds; round++) {
        const count = Math.round(calls / rounds);
        for (let i = 0; i < here.length; i++) {
          const variant = here[(i + round) % here.length];
          const { tool, input } = variants[variant];
          const profiledAs = variant.startsWith('lane') ? `${variant.replace('lane', `lane-${lane}`)}` : variant;
          const figures = await editor
            .control<CallFigures>('lmToolCalls', {
              name: tool,
              input,
              count,
              ...(round === rounds - 1 && profileDir
                ? { profile: path.join(profileDir, `${profiledAs}.cpuprofile`) }
                : {}),
            })
            .catch(async (error: Error) => {
              await editor.workbench.screenshot(`bench-${profiledAs}`);
              throw error;
            });
          // Every variant answers the same text ("Echo: hi"): the same work on each side.
          answer ??= figures.lastLength;
          if (figures.error !== undefined || figures.lastLength !== answer)
            throw new Error(`${variant} on the ${lane} lane answered differently: ${JSON.stringify(figures)}`);
          (samples[`${variant}@${lane}`] ??= []).push(figures.medianMs);
        }
        if (lane === 'stdio') relayMemory.push(...relayProcesses().map((pid) => memoryKiB(pid)));
      }
    }
    const of = (key: string) => median(samples[key]);
    if (rounds) {
      const allBuiltIn = [...samples['built-in@http'], ...samples['built-in@stdio']];
      const allHost = [...samples['host@http'], ...samples['host@stdio']];
      row(
        `vscode.lm.invokeTool, server-everything echo, ${calls} calls a lane (median of round medians)`,
        median(allHost),
        median(allBuiltIn),
      );
      row(
        `vscode.lm.invokeTool, server-everything echo published through MCP Host's gateway (VS Code's MCP → gateway → MCP Host → server)`,
        of('lane@http'),
        of('built-in@http'),
      );
      row(`(same) the gateway lane against MCP Host's #mcpCall lane`, of('lane@http'), of('host@http'));
      row(
        `vscode.lm.invokeTool, server-everything echo through MCP Host's stdio lane (VS Code's MCP → relay process → gateway → MCP Host → server)`,
        of('lane@stdio'),
        of('built-in@stdio'),
      );
      row(`(same) the stdio lane against MCP Host's #mcpCall lane`, of('lane@stdio'), of('host@stdio'));
      row(
        `(same) the stdio lane against the floor of a stdio definition (a canned responder process)`,
        of('lane@stdio'),
        of('floor-stdio@stdio'),
      );
      row(
        `(same) the gateway lane against the floor of an HTTP definition (a canned responder in an extension host, on a Unix socket)`,
        of('lane@http'),
        of('floor-http@http'),
      );
      row(
        `the canned responder run by MCP Host, through the stdio lane, against the same responder handed to VS Code as a stdio definition (the lane's own cost)`,
        of('lane-canned@stdio'),
        of('floor-stdio@stdio'),
      );
      row(
        `the canned responder run by MCP Host, through the stdio lane, against the same responder answering lines in an extension host behind the same relay process (MCP Host's work and its server's pipe)`,
        of('lane-canned@stdio'),
        of('floor-relayed@stdio'),
      );
      row(
        `the shape of the stdio lane with nothing behind it: the relay process to a canned responder answering lines in an extension host, against a stdio definition of the responder`,
        of('floor-relayed@stdio'),
        of('floor-stdio@stdio'),
      );
      row(
        `the canned responder run by MCP Host, through the HTTP lane, against the same responder as an HTTP definition`,
        of('lane-canned@http'),
        of('floor-http@http'),
      );
      row(
        `the floor of an HTTP definition against the built-in's own connection to server-everything`,
        of('floor-http@http'),
        of('built-in@http'),
      );
      row(
        `the floor of a stdio definition (a canned responder process) against the built-in's own connection to server-everything`,
        of('floor-stdio@stdio'),
        of('built-in@stdio'),
      );
      const mib = (kib: number[]) => `${(median(kib) / 1024).toFixed(1)} MiB`;
      rows.push(
        `| memory of a relay process (the stdio lane runs one per server VS Code connects to), its own pages (what one more adds), median of ${relayMemory.length} samples | ${mib(relayMemory.map((m) => m.own))} | | |`,
        `| the same, resident (the Node binary's pages included, shared with the extension host) | ${mib(relayMemory.map((m) => m.resident))} | | |`,
      );
      const api = await editor.control<number>('apiCalls', {
        via: 'invokeTool',
        serverId: hostId('everything'),
        name: 'echo',
        args: { message: 'hi' },
        count: calls,
      });
      rows.push(
        `| (reference) the same call through MCP Host's API, without the editor's tool hops | ${api.toFixed(2)} ms | | |`,
      );
      rows.push(
        `| (reference) an extension's tool that only answers "Echo: hi", the editor's floor for any extension tool | ${of('noop@http').toFixed(2)} ms | | |`,
      );
    }
    if (runs('first')) {
      // An agent's first call to a server that is not running: VS Code starts its connection (and,
      // through the lane, MCP Host starts the process) inside the call. Each lane, interleaved with the built-in.
      const first: Record<'builtin' | 'http' | 'stdio', number[]> = { builtin: [], http: [], stdio: [] };
      const firstCall = async (variant: keyof typeof first) => {
        const figures = await editor.control<{ ms: number; text?: string; error?: string }>(
          'firstLmCall',
          variant === 'builtin'
            ? { vsCodeId: builtInId('everything'), name: echo, input: { message: 'hi' } }
            : {
                vsCodeId: `mcp-host.mcp-host/${hostId('everything')}`,
                hostId: hostId('everything'),
                name: gatewayEcho,
                input: { message: 'hi' },
              },
        );
        if (figures.error !== undefined || figures.text !== 'Echo: hi')
          throw new Error(`the first call through ${variant} failed: ${figures.error ?? figures.text}`);
        return figures.ms;
      };
      for (const lane of ['http', 'stdio'] as const) {
        await editor.control('updateUserSetting', { section: 'mcpHost.agents.lane', value: lane });
        await waitFor(
          `VS Code to connect to MCP Host's everything over the ${lane} lane`,
          async () => {
            await firstCall(lane);
            return relayProcesses().length > 0 === (lane === 'stdio');
          },
          60_000,
        );
        for (let rep = 0; rep < reps; rep++) {
          const order = rep % 2 === 0 ? ([lane, 'builtin'] as const) : (['builtin', lane] as const);
          for (const variant of order) first[variant].push(await firstCall(variant));
        }
      }
      row(
        `first vscode.lm.invokeTool of server-everything's echo while it is not running, MCP Host's gateway lane (http), median of ${reps}`,
        median(first.http),
        median(first.builtin),
      );
      row(`(same) MCP Host's stdio lane, median of ${reps}`, median(first.stdio), median(first.builtin));
    }
    if (!runs('big')) return;

    const payload = builtInTool('f0', 'payload');
    const big: number[] = [];
    const bigTheirs: number[] = [];
    const bytes = 10 * 1024 * 1024;
    for (let rep = 0; rep < Math.max(3, Math.ceil(reps / 2)); rep++) {
      const host = await editor.control<CallFigures>('lmToolCalls', {
        name: 'mcpHost_callTool',
        input: { server: hostId('f0'), tool: 'payload', arguments: { bytes } },
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
        { name: gatewayTool(hostId('f0'), 'payload'), input: { bytes }, count: 1 },
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

async function main(): Promise<void> {
  if (runs('starts') || runs('calls') || runs('first') || runs('big')) await sideBySide();
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
