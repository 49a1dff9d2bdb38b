// One measurement in a fresh process (so timings and peak RSS are its own). Prints one JSON line.
//   node probe.js <scenario> <variant: host|raw|floor> [key=value…]
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, type PriorDiscovery } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { definitionHash } from '../src/core/config/definitionHash';
import { MemoryApprovalStore, ToolApprovals } from '../src/core/tools/toolApprovals';
import { ToolInvoker } from '../src/core/tools/toolInvoker';
import { resultItems } from '../src/core/tools/toolResults';
import {
  DEFAULT_RESTART,
  DEFAULT_SAMPLING_POLICY,
  NO_TOOL_POLICY,
  type ResolvedServerDefinition,
} from '../src/core/config/serverDefinition';
import { InMemoryEraPinStore } from '../src/core/connection/eraPins';
import { ExecutableResolver } from '../src/core/process/executableResolver';
import { ServerConnection } from '../src/core/connection/serverConnection';
import { StartSlots } from '../src/core/connection/startSlots';
import { STDIO_MAX_MESSAGE_BYTES } from '../src/core/connection/transportFactory';
import { silentLog } from '../src/core/connection/serverLog';
import { SamplingRouter } from '../src/core/sampling/samplingRouter';

const FIXTURES = path.resolve(__dirname, '../test/fixtures/servers');
const [scenario, variant, ...rest] = process.argv.slice(2);
const params = Object.fromEntries(rest.map((kv) => kv.split('=') as [string, string]));
const num = (key: string, fallback: number) => (params[key] === undefined ? fallback : Number(params[key]));
const script = path.join(FIXTURES, params.era === 'modern' ? 'modernStdio.js' : 'legacyStdio.js');
const serverArgs = [
  script,
  ...(params.tools ? ['--extra-tools', params.tools] : []),
  ...(params.resources ? ['--extra-resources', params.resources] : []),
  ...(scenario === 'sampling' ? ['--sampling-tools'] : []),
  ...(params.stubborn ? ['--ignore-sigterm'] : []),
];
const resolver = new ExecutableResolver();
// Same work: servers get the user's whole environment from the host (proxies, certificates, tokens),
// so the raw SDK gets it too rather than the SDK's minimal default.
const fullEnv = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
);

function definition(id = 'bench'): ResolvedServerDefinition {
  return {
    id,
    scope: 'user',
    transport: 'stdio',
    command: process.execPath,
    args: serverArgs,
    env: {},
    headers: {},
    enabled: true,
    autoStart: 'startup',
    apps: false,
    publish: true,
    share: 'window',
    requestTimeoutMs: 120_000,
    startTimeoutMs: 120_000,
    maxTotalTimeoutMs: 600_000,
    restart: DEFAULT_RESTART,
    toolPolicy: NO_TOOL_POLICY,
    samplingPolicy: DEFAULT_SAMPLING_POLICY,
    elicitationsPerMinute: 30,
  };
}

/** The host's turns for starting the processes of a window's servers, as McpHost has them: one per core and one more. */
const startSlots = StartSlots.forThisMachine();

/**
 * The host's path: ServerConnection (transport choice, era pin, state machine, lists, error
 * mapping). `withTheWindow`: started as a window starts its servers, taking turns with the others.
 */
async function hostConnection(
  pins = new InMemoryEraPinStore(),
  id = 'bench',
  sampling?: SamplingRouter,
  withTheWindow = false,
): Promise<ServerConnection> {
  const def = definition(id);
  const connection = new ServerConnection(def, definitionHash(def), '', {
    clientInfo: { name: 'bench', version: '0' },
    resolver,
    eraPins: pins,
    log: silentLog,
    roots: () => [],
    startSlots,
    sampling: sampling && ((p, signal) => sampling.handle(id, p, signal)),
  });
  await connection.start(!withTheWindow);
  if (connection.state !== 'running') throw new Error(`host failed to start: ${connection.snapshot().reason}`);
  return connection;
}

/** The raw SDK: a bare Client on the same server, loading the same lists the host shows (kept in `keep` when given, as a host keeps them). */
async function rawClient(prior?: PriorDiscovery, keep?: unknown[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: serverArgs,
      env: fullEnv,
      stderr: 'ignore',
      maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
    }),
    { prior },
  );
  keep?.push(await sameLists(client));
  return client;
}

/**
 * The lists the host loads at every start, loaded by a bare client too: the client library keeps
 * the tools it listed and does per-call work with them (their output validators, and in the
 * 2026-07-28 era a scan of the input schema for `x-mcp-header`), so a baseline without them would
 * skip work the host's calls pay.
 */
function sameLists(client: Client): Promise<unknown[]> {
  return Promise.all([
    client.listTools(),
    client.listPrompts(),
    client.listResources(),
    client.listResourceTemplates(),
  ]);
}

type Call = () => Promise<unknown>;

/**
 * The editor's whole path for a tool call on `c`: find the tool, the approval policy (allowed for
 * the session), the call with its error mapping, and the result mapped for the panel.
 */
function policyPath(c: ServerConnection): (name: string, args: Record<string, unknown>) => Promise<unknown> {
  const stores = {
    session: new MemoryApprovalStore(),
    workspace: new MemoryApprovalStore(),
    always: new MemoryApprovalStore(),
  };
  const approvals = new ToolApprovals(stores, () => NO_TOOL_POLICY);
  const host = {
    server: () => c.snapshot(),
    callTool: (_id: string, name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal) =>
      c.request('tools/call', (client, o) => client.callTool({ name, arguments: args }, o), signal),
  };
  const invoker = new ToolInvoker(host, approvals, { confirm: async () => 'session' });
  return async (name, args) => resultItems((await invoker.invoke('bench', name, args, { origin: 'model' })).result!);
}

async function caller(): Promise<{
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  close: () => Promise<void>;
}> {
  if (variant === 'host') {
    const c = await hostConnection();
    return {
      call: (name, args) => c.request('tools/call', (client, o) => client.callTool({ name, arguments: args }, o)),
      close: () => c.stop(),
    };
  }
  if (variant === 'policy') {
    const c = await hostConnection();
    return { call: policyPath(c), close: () => c.stop() };
  }
  if (variant === 'raw') {
    const c = await rawClient();
    return { call: (name, args) => c.callTool({ name, arguments: args }), close: () => c.close() };
  }
  const child = spawn(process.execPath, [path.join(__dirname, 'floorEcho.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, () => void>();
  readline
    .createInterface({ input: child.stdout! })
    .on('line', (line) => waiting.get((JSON.parse(line) as { id: number }).id)?.());
  let id = 0;
  return {
    call: (name, args) =>
      new Promise<void>((resolve) => {
        const n = ++id;
        waiting.set(n, resolve);
        child.stdin!.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name, arguments: args } })}\n`,
        );
      }),
    close: async () => void child.kill(),
  };
}

async function timeEach(n: number, call: Call): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The same answer for both sides of the sampling benchmark: what an instant model would say.
const ANSWER = 'Sampled answer.';
const BENCH_MODEL = { id: 'bench-model', name: 'Bench', family: 'bench', vendor: 'bench', maxInputTokens: 100_000 };

const scenarios: Record<string, () => Promise<Record<string, number>>> = {
  /**
   * A tool call whose server samples once: host = the whole sampling path (policy allowAlways,
   * rate limit, message rules, model choice, request → model conversation, streamed answer →
   * result, history) with an instant model; raw = a bare client whose handler returns the answer,
   * with the lists loaded as the host loads them.
   */
  async sampling() {
    let call: () => Promise<unknown>;
    let close: () => Promise<void>;
    if (variant === 'host') {
      const router = new SamplingRouter({
        backend: {
          models: async () => [BENCH_MODEL],
          stream: async function* () {
            yield { kind: 'text', text: ANSWER } as const;
          },
        },
        approval: {
          open: () => {
            throw new Error('never asked: allowAlways');
          },
        },
        policyFor: () => ({ mode: 'allowAlways', models: [], reviewResponse: false }),
      });
      const c = await hostConnection(undefined, 'bench', router);
      call = () =>
        c.request('tools/call', (client, o) => client.callTool({ name: 'sample', arguments: { prompt: 'hello' } }, o));
      close = () => c.stop();
    } else {
      const client = new Client(
        { name: 'bench', version: '0' },
        { versionNegotiation: { mode: 'auto' }, capabilities: { sampling: { tools: {} } } },
      );
      client.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        model: BENCH_MODEL.id,
        stopReason: 'endTurn',
        content: { type: 'text', text: ANSWER },
      }));
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: serverArgs,
          env: fullEnv,
          stderr: 'ignore',
          maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
        }),
      );
      await sameLists(client);
      call = () => client.callTool({ name: 'sample', arguments: { prompt: 'hello' } });
      close = () => client.close();
    }
    await timeEach(100, call);
    const times = await timeEach(num('calls', 1000), call);
    await close();
    return { medianMs: median(times) };
  },
  /**
   * The policy path against the host's own call on one connection in one process, in interleaved
   * blocks (`rounds` of `calls` each, the order turning each round): what the policy's code costs,
   * apart from the spread between processes that the `roundTrip` rows carry.
   */
  async policyPath() {
    const c = await hostConnection();
    const policy = policyPath(c);
    const paths: Record<string, Call> = {
      host: () =>
        c.request('tools/call', (client, o) => client.callTool({ name: 'echo', arguments: { text: 'hello' } }, o)),
      policy: () => policy('echo', { text: 'hello' }),
    };
    await timeEach(100, paths.host);
    await timeEach(100, paths.policy);
    const times: Record<string, number[]> = { host: [], policy: [] };
    for (let round = 0; round < num('rounds', 20); round++)
      for (const name of round % 2 ? ['host', 'policy'] : ['policy', 'host'])
        times[name].push(...(await timeEach(num('calls', 100), paths[name])));
    await c.stop();
    return {
      hostMs: median(times.host),
      policyMs: median(times.policy),
      ratio: median(times.policy) / median(times.host),
    };
  },
  async roundTrip() {
    const c = await caller();
    await timeEach(50, () => c.call('echo', { text: 'warm' }));
    const times = await timeEach(num('calls', 500), () => c.call('echo', { text: 'hello' }));
    await c.close();
    return { medianMs: median(times) };
  },
  async throughput() {
    const c = await caller();
    await timeEach(20, () => c.call('echo', { text: 'warm' }));
    const count = num('calls', 1000);
    const start = performance.now();
    await Promise.all(Array.from({ length: count }, (_, i) => c.call('echo', { text: String(i) })));
    const seconds = (performance.now() - start) / 1000;
    await c.close();
    return { callsPerSecond: count / seconds };
  },
  /**
   * This process's CPU per call over bursts of concurrent calls on one connection that has warmed
   * up (200 calls one after another, then a burst not counted): what the host's request path
   * costs once its code is compiled, apart from a fresh process's start.
   */
  async bursts() {
    const c = await caller();
    await timeEach(200, () => c.call('echo', { text: 'warm' }));
    const size = num('calls', 1000);
    const burst = () => Promise.all(Array.from({ length: size }, (_, i) => c.call('echo', { text: String(i) })));
    await burst();
    const count = num('bursts', 10);
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) await burst();
    const used = process.cpuUsage(before);
    await c.close();
    return { cpuMicrosPerCall: (used.user + used.system) / (count * size) };
  },
  async loginShellPath() {
    const start = performance.now();
    await new ExecutableResolver().searchPath();
    return { ms: performance.now() - start };
  },
  async connect() {
    // pinned: the era is known (second start); probe: first contact with `auto`.
    const pinned = params.mode !== 'probe';
    // The login-shell PATH is read once per window, before the first server; measured on its own.
    await resolver.searchPath();
    // The pin a first start left (a modern server's discover result comes from a server of its own), made before the clock starts.
    const prior: PriorDiscovery | undefined = pinned
      ? params.era === 'modern'
        ? await discoverOnce()
        : { kind: 'legacy' }
      : undefined;
    const start = performance.now();
    if (variant === 'host') {
      const pins = new InMemoryEraPinStore();
      if (prior) pins.set(definitionHash(definition()), prior);
      const c = await hostConnection(pins);
      const ms = performance.now() - start;
      await c.stop();
      return { ms };
    }
    const c = await rawClient(prior);
    const ms = performance.now() - start;
    await c.close();
    return { ms };
  },
  async manyServers() {
    const count = num('servers', 1);
    await resolver.searchPath();
    // warm=1: one server started and stopped first, so what a process loads and builds once (the
    // host's session modules, the library's schemas) is not counted in the starts.
    const pins = new InMemoryEraPinStore();
    for (const id of ['warm', ...Array.from({ length: count }, (_, i) => `s${i}`)])
      pins.set(definitionHash(definition(id)), { kind: 'legacy' });
    if (num('warm', 0)) {
      if (variant === 'raw') await (await rawClient({ kind: 'legacy' })).close();
      else await (await hostConnection(pins, 'warm')).stop();
    }
    const start = performance.now();
    // This process's CPU for the starts (spawning included), beside their wall time.
    const cpu = process.cpuUsage();
    const cpuMs = () => {
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1000;
    };
    // When each server has its tools: the first, the mean, and the last (`ms`).
    const ready: number[] = [];
    const timed = async <T>(started: Promise<T>) => {
      const value = await started;
      ready.push(performance.now() - start);
      return value;
    };
    const figures = () => ({
      ms: performance.now() - start,
      cpuMs: cpuMs(),
      firstMs: Math.min(...ready),
      meanMs: ready.reduce((a, b) => a + b, 0) / ready.length,
    });
    if (variant === 'raw') {
      const clients = await Promise.all(Array.from({ length: count }, () => timed(rawClient({ kind: 'legacy' }))));
      const all = figures();
      await Promise.all(clients.map((c) => c.close()));
      return all;
    }
    const connections = await Promise.all(
      Array.from({ length: count }, (_, i) => timed(hostConnection(pins, `s${i}`, undefined, true))),
    );
    const all = figures();
    await Promise.all(connections.map((c) => c.stop()));
    return all;
  },
  async heldHeap() {
    // The JavaScript heap that running servers hold, after a collection. A first batch of as many
    // servers is started the same way (and kept), so that neither modules loaded on the first start
    // nor code compiled the first time a path runs (starts side by side) is counted per server: a
    // heap snapshot read half the growth as compiled code when one server came first. The bare
    // client keeps the lists it loaded, as the host does to show them.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collect = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const count = num('servers', 20);
    const pins = new InMemoryEraPinStore();
    for (let i = 0; i <= 2 * count; i++) pins.set(definitionHash(definition(`s${i}`)), { kind: 'legacy' });
    const lists: unknown[] = [];
    const start = (i: number) =>
      variant === 'raw' ? rawClient({ kind: 'legacy' }, lists) : hostConnection(pins, `s${i}`);
    const stop = (running: Client | ServerConnection) => (running instanceof Client ? running.close() : running.stop());
    const batch = (from: number) => Promise.all(Array.from({ length: count }, (_, i) => start(from + i)));
    const running: (Client | ServerConnection)[] = await batch(count + 1);
    await new Promise((r) => setTimeout(r, 300));
    await collect();
    // `snapshots=DIR`: heap snapshots before and after the measured batch, to see what it holds.
    const snapshot = (name: string) =>
      params.snapshots && writeHeapSnapshot(path.join(params.snapshots, `${variant}-${name}.heapsnapshot`));
    snapshot('before');
    await collect();
    const before = process.memoryUsage().heapUsed;
    running.push(...(await batch(0)));
    await new Promise((r) => setTimeout(r, 300));
    await collect();
    snapshot('after');
    await collect();
    const kbPerServer = (process.memoryUsage().heapUsed - before) / 1024 / count;
    await Promise.all(running.map(stop));
    return { kbPerServer };
  },
  async listChanged() {
    // From the server's list_changed to the host's (or raw client's) list holding the new tool.
    const name = 'added-tool';
    if (variant === 'host') {
      const c = await hostConnection();
      const start = performance.now();
      await c.request('tools/call', (client, o) => client.callTool({ name: 'add-tool', arguments: { name } }, o));
      while (!c.snapshot().tools.some((t) => t.name === name)) await new Promise((r) => setImmediate(r));
      const ms = performance.now() - start;
      await c.stop();
      return { ms, peakRssMb: process.resourceUsage().maxRSS / 1024 };
    }
    let resolveSeen!: () => void;
    const seen = new Promise<void>((r) => (resolveSeen = r));
    const client = new Client(
      { name: 'bench', version: '0' },
      {
        versionNegotiation: { mode: 'auto' },
        listChanged: { tools: { onChanged: (_e, tools) => tools?.some((t) => t.name === name) && resolveSeen() } },
      },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serverArgs, env: fullEnv, stderr: 'ignore' }),
    );
    await client.listTools();
    const start = performance.now();
    await client.callTool({ name: 'add-tool', arguments: { name } });
    await seen;
    const ms = performance.now() - start;
    await client.close();
    return { ms, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  },
  /** Stopping a server that ignores the end of its input and SIGTERM: host stop vs the library's close. */
  async stop() {
    if (variant === 'host') {
      const c = await hostConnection();
      const start = performance.now();
      await c.stop();
      return { ms: performance.now() - start };
    }
    const client = await rawClient();
    const start = performance.now();
    await client.close();
    return { ms: performance.now() - start };
  },

  async payload() {
    const bytes = num('bytes', 1_000_000);
    const kind = params.kind ?? 'resource';
    const run = (client: Client, o?: object): Promise<unknown> =>
      kind === 'resource'
        ? client.readResource({ uri: `fixture://blob/${bytes}` }, o)
        : client.callTool({ name: 'payload', arguments: { bytes } }, o);
    let ms: number;
    if (variant === 'host') {
      const c = await hostConnection();
      const start = performance.now();
      await c.request('payload', (client, o) => run(client, o));
      ms = performance.now() - start;
      await c.stop();
    } else {
      const c = await rawClient();
      const start = performance.now();
      await run(c);
      ms = performance.now() - start;
      await c.close();
    }
    return { ms, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  },
};

async function discoverOnce(): Promise<PriorDiscovery> {
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: serverArgs, env: fullEnv, stderr: 'ignore' }),
  );
  const discover = client.getDiscoverResult();
  await client.close();
  if (!discover) throw new Error('the modern fixture did not negotiate 2026-07-28');
  return { kind: 'modern', discover };
}

scenarios[scenario]()
  .then((result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  })
  .catch((error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
