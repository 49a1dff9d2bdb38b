// `npm run bench [-- --quick]`: the host's cost against the raw SDK on the same work, as ratios
// measured in one run. Every figure is the median of repeated runs, each in a fresh process.
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { measureEditorFootprint, measureResourcesExpand } from './editorFootprint';
import { machineLine, recordRun } from './history';

const quick = process.argv.includes('--quick');
const REPO = path.resolve(__dirname, '../..');
const PROBE = path.join(__dirname, 'probe.js');

type Figures = Record<string, number>;

const GATEWAY_PROBE = path.join(__dirname, 'gatewayProbe.js');

/** `scenario` of probe.js, or `gateway` for gatewayProbe.js (whose variants are its scenarios). */
function probe(scenario: string, variant: string, params: Record<string, string | number> = {}): Figures {
  const script = scenario === 'gateway' ? [GATEWAY_PROBE] : [PROBE, scenario];
  const args = [...script, variant, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const output = execFileSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    timeout: 300_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(output.trim().split('\n').pop()!) as Figures;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs the variants interleaved, `reps` times, so drift on a shared machine hits all of them alike. */
function compareAll(
  scenario: string,
  variants: string[],
  params: Record<string, string | number>,
  reps: number,
): Record<string, Figures> {
  const samples: Record<string, Figures[]> = Object.fromEntries(variants.map((v) => [v, []]));
  for (let i = 0; i < reps; i++) for (const v of variants) samples[v].push(probe(scenario, v, params));
  return Object.fromEntries(
    variants.map((v) => [
      v,
      Object.fromEntries(Object.keys(samples[v][0]).map((k) => [k, median(samples[v].map((f) => f[k]))])),
    ]),
  );
}

function compare(
  scenario: string,
  variants: string[],
  params: Record<string, string | number>,
  reps: number,
  key: string,
): Record<string, number> {
  const all = compareAll(scenario, variants, params, reps);
  return Object.fromEntries(variants.map((v) => [v, all[v][key]]));
}

interface Row {
  readonly measure: string;
  readonly host: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
}

const rows: Row[] = [];
const results: Record<string, unknown> = {};
const fmt = (n: number, unit: string, digits = 2) => `${n.toFixed(digits)} ${unit}`;
function row(measure: string, host: string, baseline: string, ratio: number | undefined, target = '') {
  const shown = ratio === undefined ? '' : ratio.toFixed(2);
  rows.push({ measure, host, baseline, ratio: shown, target: overTarget(shown, target) ? `${target} (over)` : target });
  // Each row as it is measured: a run takes minutes, and says what it is doing meanwhile.
  process.stderr.write(`  measured: ${measure}: ${host}${shown ? ` (ratio ${shown})` : ''}\n`);
}

/** Whether a ratio is above a `≤ x` target. */
function overTarget(ratio: string, target: string): boolean {
  const limit = /^≤ ([\d.]+)$/.exec(target)?.[1];
  return ratio !== '' && limit !== undefined && Number(ratio) > Number(limit);
}

const reps = quick ? 1 : 5;
const started = Date.now();
process.stderr.write(
  `MCP Host benchmark${quick ? ' (quick)' : ''}: each row prints as it is measured, the table at the end.\n`,
);

// 1. Tool-call round trip.
for (const era of ['legacy', 'modern']) {
  const r = compare(
    'roundTrip',
    ['host', 'policy', 'raw', 'floor'],
    { era, calls: quick ? 100 : 2000 },
    reps,
    'medianMs',
  );
  results[`roundTrip.${era}`] = r;
  row(
    `tool call round trip, stdio, ${era}`,
    fmt(r.host, 'ms', 3),
    `${fmt(r.raw, 'ms', 3)} raw SDK; ${fmt(r.floor, 'ms', 3)} floor`,
    r.host / r.raw,
    '≤ 1.10',
  );
  row(
    `  with approval policy and result mapping, ${era}`,
    fmt(r.policy, 'ms', 3),
    `${fmt(r.raw, 'ms', 3)} raw SDK`,
    r.policy / r.raw,
    '≤ 1.10',
  );
}

// 1b. A tool call whose server asks for a sampling completion (answered at once by a stand-in model).
for (const era of ['legacy', 'modern']) {
  const r = compare('sampling', ['host', 'raw'], { era, calls: quick ? 50 : 1000 }, reps, 'medianMs');
  results[`sampling.${era}`] = r;
  row(
    `tool call that samples once, ${era}${era === 'modern' ? ' (input_required)' : ''}`,
    fmt(r.host, 'ms', 3),
    `${fmt(r.raw, 'ms', 3)} raw SDK`,
    r.host / r.raw,
    '≤ 1.10',
  );
}

// 2. Connect until tools are listed (era pinned), and the first-contact probe separately.
for (const era of ['legacy', 'modern']) {
  const r = compare('connect', ['host', 'raw'], { era }, reps, 'ms');
  results[`connect.pinned.${era}`] = r;
  row(
    `connect until lists loaded, pinned ${era}`,
    fmt(r.host, 'ms', 0),
    `${fmt(r.raw, 'ms', 0)} raw SDK`,
    r.host / r.raw,
    era === 'legacy' ? '≤ 1.10' : '',
  );
  const p = compare('connect', ['host', 'raw'], { era, mode: 'probe' }, reps, 'ms');
  results[`connect.probe.${era}`] = p;
  row(
    `  first contact (auto probe), ${era}`,
    fmt(p.host, 'ms', 0),
    `${fmt(p.raw, 'ms', 0)} raw SDK auto`,
    p.host / p.raw,
  );
}

const shell = compare('loginShellPath', ['host'], {}, reps, 'ms').host;
results.loginShellPathMs = shell;
row('  login-shell PATH lookup (once per window)', fmt(shell, 'ms', 0), '', undefined);

// 3. Many servers at once.
const counts = quick ? [1, 5] : [1, 5, 20];
const many: Record<number, Record<string, number>> = {};
const manyFigures: Record<number, Record<string, Figures>> = {};
for (const servers of counts)
  manyFigures[servers] = compareAll('manyServers', ['host', 'raw'], { servers }, quick ? 1 : 3);
for (const servers of counts) many[servers] = { host: manyFigures[servers].host.ms, raw: manyFigures[servers].raw.ms };
results.manyServers = many;
for (const servers of counts) {
  row(
    `start ${servers} stdio server(s) at once (pinned)`,
    `${fmt(many[servers].host, 'ms', 0)} = ${(many[servers].host / many[1].host).toFixed(2)} × one`,
    `${fmt(many[servers].raw, 'ms', 0)} raw SDK = ${(many[servers].raw / many[1].raw).toFixed(2)} × one`,
    many[servers].host / many[servers].raw,
    servers === 20 ? '≤ 1.5 × one' : '',
  );
}
// The host starts the processes of a window's servers a few at a time (one per core and one
// more): the first servers have their tools long before the last, which comes no later.
const crowd = manyFigures[counts[counts.length - 1]];
results.manyServersReady = {
  host: { firstMs: crowd.host.firstMs, meanMs: crowd.host.meanMs },
  raw: { firstMs: crowd.raw.firstMs, meanMs: crowd.raw.meanMs },
};
row(
  `  the first of the ${counts[counts.length - 1]} with its tools`,
  fmt(crowd.host.firstMs, 'ms', 0),
  `${fmt(crowd.raw.firstMs, 'ms', 0)} raw SDK, all at once`,
  crowd.host.firstMs / crowd.raw.firstMs,
);
row(
  `  mean time until a server has its tools`,
  fmt(crowd.host.meanMs, 'ms', 0),
  `${fmt(crowd.raw.meanMs, 'ms', 0)} raw SDK, all at once`,
  crowd.host.meanMs / crowd.raw.meanMs,
);
// What those starts cost the host's own process (spawning included; the servers' CPU is theirs),
// after one server has started and stopped: what a process loads and builds once is left out.
const most = counts[counts.length - 1];
const warmCpu = compare('manyServers', ['host', 'raw'], { servers: most, warm: 1 }, quick ? 1 : 3, 'cpuMs');
results.manyServersCpuMs = warmCpu;
row(
  `  CPU of the host's process for the ${most}, after a first server`,
  fmt(warmCpu.host, 'ms', 0),
  `${fmt(warmCpu.raw, 'ms', 0)} raw SDK`,
  warmCpu.host / warmCpu.raw,
);

// 3a. What running servers hold: the heap per server, 20 running, after a collection.
const held = compare('heldHeap', ['host', 'raw'], { servers: quick ? 5 : 20 }, reps, 'kbPerServer');
results.heldHeapKbPerServer = held;
row(
  `JavaScript heap held per running server (${quick ? 5 : 20} running, after a collection)`,
  fmt(held.host, 'KB', 0),
  `${fmt(held.raw, 'KB', 0)} raw SDK`,
  held.host / held.raw,
  '≤ 1.25',
);

// 4. Big lists: list_changed until the lists are updated.
for (const tools of quick ? [100] : [100, 1000, 10000]) {
  const { host, raw } = compareAll('listChanged', ['host', 'raw'], { tools }, quick ? 1 : 3);
  results[`listChanged.${tools}`] = { host, raw };
  row(
    `list_changed → lists updated, ${tools} tools`,
    `${fmt(host.ms, 'ms', 0)}, ${fmt(host.peakRssMb, 'MB', 0)} RSS`,
    `${fmt(raw.ms, 'ms', 0)}, ${fmt(raw.peakRssMb, 'MB', 0)} raw SDK`,
    host.ms / raw.ms,
  );
}

for (const resources of quick ? [100] : [100, 1000, 10000]) {
  const { host, raw } = compareAll('connect', ['host', 'raw'], { resources }, quick ? 1 : 3);
  results[`resources.${resources}`] = { host, raw };
  row(
    `connect until lists loaded, ${resources} resources`,
    fmt(host.ms, 'ms', 0),
    `${fmt(raw.ms, 'ms', 0)} raw SDK`,
    host.ms / raw.ms,
  );
}

// 5. Big payloads.
for (const bytes of quick ? [1_000_000] : [1_000_000, 50_000_000]) {
  for (const kind of ['resource', 'tool']) {
    // 50 MB takes the SDK tens of seconds per read; one run of each keeps the bench under 10 minutes.
    const { host, raw } = compareAll('payload', ['host', 'raw'], { bytes, kind }, quick || bytes > 10_000_000 ? 1 : 3);
    results[`payload.${kind}.${bytes}`] = { host, raw };
    row(
      `${bytes / 1e6} MB ${kind === 'resource' ? 'resource blob' : 'tool result'}`,
      `${fmt(host.ms, 'ms', 0)}, ${fmt(host.peakRssMb, 'MB', 0)} RSS`,
      `${fmt(raw.ms, 'ms', 0)}, ${fmt(raw.peakRssMb, 'MB', 0)} raw SDK`,
      host.ms / raw.ms,
    );
  }
}

// 6. Throughput: concurrent calls on one connection.
const calls = quick ? 200 : 1000;
const tp = compare('throughput', ['host', 'raw'], { calls }, reps, 'callsPerSecond');
results.throughput = tp;
row(
  `${calls} concurrent tool calls`,
  fmt(tp.host, 'calls/s', 0),
  `${fmt(tp.raw, 'calls/s', 0)} raw SDK`,
  tp.host / tp.raw,
  '(higher is better)',
);
// The same bursts once the process has warmed up: the host process's CPU per call.
const bursts = compare('bursts', ['host', 'raw'], { calls, bursts: quick ? 2 : 10 }, reps, 'cpuMicrosPerCall');
results.bursts = bursts;
row(
  "  CPU of the host's process per call, bursts once warmed up",
  fmt(bursts.host, 'µs', 0),
  `${fmt(bursts.raw, 'µs', 0)} raw SDK`,
  bursts.host / bursts.raw,
);

// 6a. The agents' lane: a tool call through MCP Host's gateway (Streamable HTTP on its private
// socket, then McpHost) against the same hop built of the bare client library and server alone.
const hop = compare('gateway', ['gateway', 'bareHop', 'direct'], { calls: quick ? 100 : 1000 }, reps, 'medianMs');
results.gatewayHop = hop;
row(
  "tool call through the agents' gateway (HTTP on its socket, then the host)",
  fmt(hop.gateway, 'ms', 3),
  `${fmt(hop.bareHop, 'ms', 3)} the same hop, bare SDK`,
  hop.gateway / hop.bareHop,
  '≤ 1.10',
);
row(
  "  the bare SDK's HTTP hop against a direct stdio call",
  fmt(hop.bareHop, 'ms', 3),
  `${fmt(hop.direct, 'ms', 3)} raw SDK, stdio`,
  hop.bareHop / hop.direct,
  '(the floor)',
);

// 6a'. A window sharing another window's process ("share": "machine"): its call goes through its
// host, lines on the owner's socket, the owner's gateway and host. Against the owner's own call,
// and against what forwarding the JSON-RPC exchange instead could reach at best (the owner's call
// plus one bare forwarding hop over the same kind of socket).
const shared = compare(
  'gateway',
  ['guest', 'owner', 'forward', 'direct'],
  { calls: quick ? 100 : 1000 },
  reps,
  'medianMs',
);
results.sharedCall = shared;
const forwardFloor = shared.owner + shared.forward - shared.direct;
row(
  "tool call from a window sharing another window's process",
  fmt(shared.guest, 'ms', 3),
  `${fmt(forwardFloor, 'ms', 3)} forwarding's floor`,
  shared.guest / forwardFloor,
  '≤ 1.25',
);
row(
  '  the same call from the window running it',
  fmt(shared.owner, 'ms', 3),
  `${fmt(shared.direct, 'ms', 3)} raw SDK, stdio`,
  shared.owner / shared.direct,
);

// 6b. Stopping a server that ignores stdin EOF and SIGTERM.
const stopped = compare('stop', ['host', 'raw'], { stubborn: 1 }, quick ? 1 : 3, 'ms');
results.stopStubborn = stopped;
row(
  'stop a server that ignores stdin EOF and SIGTERM',
  fmt(stopped.host, 'ms', 0),
  `${fmt(stopped.raw, 'ms', 0)} raw SDK close`,
  stopped.host / stopped.raw,
);

// 6c. Sign-in: from Sign In to a running server with its lists, through the authorization server's pages.
{
  const SIGN_IN_PROBE = path.join(__dirname, 'signInProbe.js');
  const signIn = (variant: string) =>
    (
      JSON.parse(
        execFileSync(process.execPath, [SIGN_IN_PROBE, variant], {
          encoding: 'utf8',
          timeout: 120_000,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
          .trim()
          .split('\n')
          .pop()!,
      ) as Figures
    ).ms;
  const samples: Record<string, number[]> = { host: [], raw: [] };
  for (let i = 0; i < (quick ? 1 : 5); i++) for (const v of ['host', 'raw']) samples[v].push(signIn(v));
  const si = { host: median(samples.host), raw: median(samples.raw) };
  results.signIn = si;
  row(
    'Sign In → running (oidc-provider login + consent in Chromium)',
    fmt(si.host, 'ms', 0),
    `${fmt(si.raw, 'ms', 0)} raw SDK + finishAuth`,
    si.host / si.raw,
  );
}

// 7. Footprint.
const bundle = statSync(path.join(REPO, 'dist/main.js')).size;
results.bundleBytes = bundle;
row('bundle dist/main.js (loaded with every window)', fmt(bundle / 1024, 'KB', 0), '', undefined);
for (const [bundle, when] of [
  ['libraries', 'with the first server'],
  ['libraries-undici', 'with the first HTTP server'],
  ['libraries-ajv', 'with the first form checked'],
]) {
  const bytes = statSync(path.join(REPO, `dist/${bundle}.js`)).size;
  results[`${bundle}Bytes`] = bytes;
  row(`bundle dist/${bundle}.js (loaded ${when})`, fmt(bytes / 1024, 'KB', 0), '', undefined);
}
try {
  const vsix = statSync(path.join(REPO, 'dist/mcp-host.vsix')).size;
  results.vsixBytes = vsix;
  row('.vsix', fmt(vsix / 1024, 'KB', 0), '', undefined);
} catch {
  row('.vsix', 'not built (npm run package)', '', undefined);
}

async function footprintInEditor(): Promise<void> {
  if (quick) {
    row('activation / idle CPU in VS Code', 'skipped in --quick', '', undefined);
    return;
  }
  const { activations, idle } = await measureEditorFootprint(3);
  const host = median(activations.map((a) => a.mcpHostMs));
  const minimal = median(activations.map((a) => a.minimalMs));
  results.activation = { activations, medianMs: host, minimalMedianMs: minimal };
  results.idleCpu = idle;
  row(
    `activate() in VS Code (median of ${activations.length} window loads)`,
    fmt(host, 'ms', 1),
    `${fmt(minimal, 'ms', 1)} minimal extension`,
    host / minimal,
  );
  row(
    'extension host CPU over 30 s idle, 3 servers',
    fmt(idle.withServersMs, 'ms', 0),
    `${fmt(idle.withoutServersMs, 'ms', 0)} with no servers`,
    idle.withServersMs / Math.max(idle.withoutServersMs, 10),
    'no timers or polling',
  );
  const expands = await measureResourcesExpand(5000, quick ? 1 : 3);
  results.resourcesExpand = expands;
  row(
    `Resources view: expand a server's 5,000 resources (median of ${expands.length})`,
    `${fmt(median(expands.map((e) => e.cpuMs)), 'ms', 0)} CPU, shown in ${fmt(median(expands.map((e) => e.shownMs)), 'ms', 0)}`,
    '',
    undefined,
  );
}

void footprintInEditor().then(report, (error) => {
  console.error(error);
  process.exit(1);
});

function report(): void {
  const machine = machineLine();
  const widths = ['measure', 'host', 'baseline', 'ratio', 'target'].map((k) =>
    Math.max(k.length, ...rows.map((r) => r[k as keyof Row].length)),
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\nMCP Host benchmark${quick ? ' (quick)' : ''} — ${machine}`);
  console.log(line(['measure', 'host', 'baseline', 'ratio', 'target']));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line([r.measure, r.host, r.baseline, r.ratio, r.target]));
  console.log(
    '\nratio: MCP Host over the baseline on the same work, in one run (below 1.00: MCP Host costs less); target: the ratio a row should stay under, "(over)" when it does not.',
  );
  console.log(`${quick ? 'quick mode' : `medians of ${reps} runs`}; ${Math.round((Date.now() - started) / 1000)} s`);
  writeFileSync(
    path.join(REPO, 'bench/results.json'),
    JSON.stringify({ machine, quick, date: new Date().toISOString(), results, rows }, null, 2),
  );
  // The smoke mode (CI) measures nothing worth keeping.
  if (!quick) recordRun('bench', { args: process.argv.slice(2), rows, results });
}
