// The chaos table: each hostile server mode, run several times against the host's core. Per
// fault: requests settled (answered or failed, never left pending), processes of the server's
// tree still alive after dispose (ended-but-unreaped zombies do not count), whether a healthy
// server beside it kept answering, whether the state shown was true (within the 1 s liveness
// bound), and the worst event-loop stall. Prints a Markdown table.
//   node out/bench/chaos.js [runs=3] [only=<part of a fault's name>]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as path from 'node:path';
import { definitionHash } from '../src/core/config/definitionHash';
import {
  DEFAULT_SAMPLING_POLICY,
  NO_TOOL_POLICY,
  type ResolvedServerDefinition,
} from '../src/core/config/serverDefinition';
import { InMemoryEraPinStore } from '../src/core/connection/eraPins';
import { ExecutableResolver } from '../src/core/process/executableResolver';
import { startTimeOf } from '../src/core/process/processLedger';
import { isAlive, until } from '../src/core/process/processTree';
import { ServerConnection } from '../src/core/connection/serverConnection';
import { RecordingLog } from '../test/unit/support/fixtures';

const LEGACY = path.resolve(__dirname, '../test/fixtures/servers/legacyStdio.js');
const SETTLE_DEADLINE_MS = 20_000;
const runs = Number(process.argv.find((a) => a.startsWith('runs='))?.slice(5) ?? 3);
/** `only=storm` runs the faults whose names contain that text. */
const only = process.argv.find((a) => a.startsWith('only='))?.slice(5);
const resolver = new ExecutableResolver();

type Call = (c: ServerConnection) => Promise<unknown>;
const tool =
  (name: string, args: Record<string, unknown> = {}): Call =>
  (c) =>
    c.request('tools/call', (client, o) => client.callTool({ name, arguments: args }, o));
const echo = tool('echo', { text: 'x' });

interface Fault {
  readonly name: string;
  readonly args: string[];
  readonly calls: Call[];
  /** Let the fault happen (a timer in the server) before calling. */
  readonly delayMs?: number;
  /** The one big message the fault sends, for the floor: decoding and parsing it in this process. */
  readonly message?: () => unknown;
}

const FAULTS: Fault[] = [
  { name: 'crashes leaving a child', args: ['--spawn-helper', '--crash-after', '1'], calls: [echo, echo] },
  { name: 'exits, a child holds its stdout', args: ['--exit-leaving-holder-after-ms', '300'], calls: [tool('hang')] },
  {
    name: 'closes stdout, keeps running',
    args: ['--spawn-helper', '--close-stdout-after-ms', '300'],
    calls: [tool('hang')],
  },
  { name: 'ignores stdin EOF and SIGTERM', args: ['--ignore-sigterm', '--spawn-helper'], calls: [echo] },
  { name: 'double-forks a daemon', args: ['--double-fork'], calls: [echo] },
  {
    name: '50 MB tool result',
    args: [],
    calls: [tool('payload', { bytes: 50_000_000 })],
    message: () => ({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(50_000_000) }] } }),
  },
  {
    name: '20 MB notification',
    args: [],
    calls: [tool('log', { level: 'info', text: 'x', times: 20_000_000 })],
    message: () => ({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', logger: 'fixture', data: 'x'.repeat(20_000_000) },
    }),
  },
  {
    name: '20,000 tools',
    args: ['--extra-tools', '20000'],
    calls: [echo],
    message: () => ({
      jsonrpc: '2.0',
      id: 1,
      result: {
        tools: Array.from({ length: 20_000 }, (_, i) => ({
          name: `tool-${i}`,
          description: `Generated tool ${i}.`,
          inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
        })),
      },
    }),
  },
  { name: '10,000-deep tool schema', args: ['--deep-schema-tool', '10000'], calls: [echo] },
  { name: 'storm of 10,000 roots/list', args: [], calls: [tool('storm', { method: 'roots/list', count: 10_000 })] },
  { name: 'flood of 100,000 stderr lines', args: ['--stderr-flood', '100000'], calls: [echo] },
  { name: '1,000 stray and duplicate ids', args: ['--stray-responses', '1000'], calls: [echo], delayMs: 400 },
  { name: 'never answers', args: [], calls: [tool('hang')] },
];

function definition(id: string, args: string[]): ResolvedServerDefinition {
  return {
    id,
    scope: 'user',
    transport: 'stdio',
    command: process.execPath,
    args: [LEGACY, ...args],
    env: {},
    headers: {},
    enabled: true,
    autoStart: 'startup',
    apps: false,
    publish: true,
    share: 'window',
    requestTimeoutMs: 3_000,
    startTimeoutMs: 30_000,
    maxTotalTimeoutMs: 60_000,
    restart: { enabled: true, maxRestarts: 2, windowMs: 60_000, initialDelayMs: 200, maxDelayMs: 400 },
    toolPolicy: NO_TOOL_POLICY,
    samplingPolicy: DEFAULT_SAMPLING_POLICY,
    elicitationsPerMinute: 30,
  };
}

function connection(def: ResolvedServerDefinition, log: RecordingLog): ServerConnection {
  return new ServerConnection(def, definitionHash(def), def.command!, {
    clientInfo: { name: 'mcp-host-chaos', version: '0.0.0' },
    resolver,
    eraPins: new InMemoryEraPinStore(),
    log,
    roots: () => [{ uri: 'file:///tmp', name: 'tmp' }],
  });
}

/**
 * The processes of a server's tree the host should end: its own and the helpers it announces on
 * stderr, each with its start time when first seen, so a pid the system reuses later (pid_max
 * may be 32,768) is not taken for a survivor.
 */
class TreeLog extends RecordingLog {
  readonly started = new Map<number, string | undefined>();
  override info(message: string): void {
    super.info(message);
    for (const m of message.matchAll(/fixture: helper pid (\d+)/g)) this.see(Number(m[1]));
  }
  see(pid: number): void {
    if (!this.started.has(pid)) this.started.set(pid, startTimeOf(pid));
  }
  survivors(): number[] {
    return [...this.started]
      .filter(([pid, started]) => started !== undefined && isAlive(pid) && startTimeOf(pid) === started)
      .map(([pid]) => pid);
  }
}

interface RunResult {
  settled: number;
  calls: number;
  survivors: number;
  bystander: boolean;
  truthful: boolean;
  lagMs: number;
}

async function runOnce(fault: Fault, bystander: ServerConnection, run: number): Promise<RunResult> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const log = new TreeLog();
  const conn = connection(definition(`chaos-${run}`, fault.args), log);
  const remember = () => conn.snapshot().pid !== undefined && log.see(conn.snapshot().pid!);
  const watcher = conn.onDidChange(remember);
  await conn.start().catch(() => undefined);
  remember();
  if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  const deadline = new Promise<'pending'>((resolve) =>
    setTimeout(() => resolve('pending'), SETTLE_DEADLINE_MS).unref(),
  );
  const outcomes = await Promise.all(
    fault.calls.map((call) =>
      Promise.race([
        call(conn).then(
          () => 'settled',
          () => 'settled',
        ),
        deadline,
      ]),
    ),
  );
  const answered = await Promise.race([
    echo(bystander).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 10_000).unref()),
  ]);
  // True within the liveness bound: a process that just died may show as running for that long.
  const lies = () => {
    const shown = conn.snapshot();
    return shown.status === 'running' && shown.pid !== undefined && !isAlive(shown.pid);
  };
  const truthful = await until(() => !lies(), 1_500);
  await conn.dispose();
  watcher.dispose();
  await new Promise((r) => setTimeout(r, 1_500)); // a group's SIGKILL lands within the stop's grace
  lag.disable();
  return {
    settled: outcomes.filter((o) => o === 'settled').length,
    calls: fault.calls.length,
    survivors: log.survivors().length,
    bystander: answered,
    truthful,
    lagMs: lag.max / 1e6,
  };
}

/** The least any reader pays for the fault's one big message: UTF-8 decoding and JSON.parse, synchronously. */
function floorOf(fault: Fault): string {
  if (!fault.message) return '';
  const bytes = Buffer.from(`${JSON.stringify(fault.message())}\n`);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    JSON.parse(bytes.toString('utf8'));
    times.push(performance.now() - start);
  }
  return `${Math.min(...times).toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const bystander = connection(definition('bystander', []), new RecordingLog());
  await bystander.start();
  const rows: string[] = [
    '| fault | runs | requests settled | survivors | other server answered | state shown true | max event-loop stall | floor: decode + parse |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const fault of FAULTS.filter((f) => !only || f.name.includes(only))) {
    const results: RunResult[] = [];
    for (let run = 0; run < runs; run++) results.push(await runOnce(fault, bystander, run));
    const sum = (f: (r: RunResult) => number) => results.reduce((n, r) => n + f(r), 0);
    const row = `| ${fault.name} | ${runs} | ${sum((r) => r.settled)}/${sum((r) => r.calls)} | ${sum((r) => r.survivors)} | ${sum((r) => (r.bystander ? 1 : 0))}/${runs} | ${sum((r) => (r.truthful ? 1 : 0))}/${runs} | ${Math.max(...results.map((r) => r.lagMs)).toFixed(0)} ms | ${floorOf(fault)} |`;
    rows.push(row);
    console.error(row);
  }
  await bystander.dispose();
  console.log(rows.join('\n'));
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
