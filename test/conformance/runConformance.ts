// `npm run conformance`: every client scenario of the official MCP conformance suite against the
// headless client (src/headless) and, in the same run, against the bare client library
// (bareSdkClient.ts), on the Node 24 the editor harness installs (the suite needs Node >= 22).
//
// Two suite versions: 0.1.16 (26 scenarios) and the newest, 0.2.0-alpha.12, scored as the suite
// scores a revision (`list --requirements 2025-11-25` / `2026-07-28`, each scenario run at that
// revision's wire) plus its extension scenarios (authorization extensions, Skills). A scenario
// counts only when the suite's verdict is "OVERALL: PASSED", which includes the client exiting 0,
// and it scored at least one check (a run whose checks were all skipped proves nothing).
//
// Exits 1 when a scenario fails for MCP Host, unless it is listed in EXPECTED_FAILURES with the
// reason; and when a listed one passes (the list must be kept true). `-- <scenario…>` runs only those.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ensureNode24 } from '../editor/harness/editorInstall';
import { inParallel, listClientScenarios, runScenario, type ScenarioRun } from './suiteRuns';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const suitePath = (pkg: string) => path.join(ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
/** The last 0.1 release. */
const SUITE_0_1 = { label: '0.1.16', path: suitePath('conformance') };
/** The newest release (an npm alias of @modelcontextprotocol/conformance@0.2.0-alpha.12). */
const SUITE_NEWEST = { label: '0.2.0-alpha.12', path: suitePath('conformance-next') };
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;

const CLIENT = path.join(ROOT, 'out', 'src', 'headless', 'conformanceClient.js');
const BARE_SDK_CLIENT = path.join(ROOT, 'out', 'test', 'conformance', 'bareSdkClient.js');

/**
 * Scenarios whose 0.1.16 version contradicts the specification. Such a scenario still runs; its
 * failure is excused only when the client failed for the stated reason (in its own words, on
 * stderr) and the corrected scenario of the newest suite passes.
 */
const SUITE_DEFECTS: Record<string, { readonly clientSays: RegExp; readonly evidence: string }> = {
  'auth/2025-03-26-oauth-metadata-backcompat': {
    clientSays: /Issuer mismatch in authorization server metadata \(RFC 8414 §3\.3\)/,
    evidence:
      'its authorization server serves metadata at the root well-known path with issuer "<origin>/oauth", which RFC 8414 §3.3 says a client must reject; fixed upstream in modelcontextprotocol/conformance#359 (commit af64895)',
  },
};

/** Scenarios of the newest suite MCP Host does not pass yet, and why. A failure not listed here fails the run. */
const EXPECTED_FAILURES: Record<string, string> = {};

/** One row of the report: a scenario in one scoring column, for both clients. */
export interface Row {
  readonly suite: string;
  /** `2025-11-25`, `2026-07-28`, `extension`, `unscored` (added after the revisions), or the 0.1.16 suite's `all`. */
  readonly column: string;
  readonly scenario: string;
  readonly host: ScenarioRun;
  readonly bare: ScenarioRun;
  /** Why a failure of MCP Host is the suite's (0.1.16), or known (EXPECTED_FAILURES). */
  readonly excused?: string;
}

const command = (client: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;

async function main(): Promise<void> {
  const node = ensureNode24();
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const plan: { suite: typeof SUITE_0_1; column: string; scenario: string; specVersion?: string }[] = [];
  for (const s of listClientScenarios(node, SUITE_0_1.path))
    if (wanted(s.name)) plan.push({ suite: SUITE_0_1, column: 'all', scenario: s.name });
  for (const revision of REVISIONS) {
    for (const s of listClientScenarios(node, SUITE_NEWEST.path, revision))
      if (wanted(s.name)) plan.push({ suite: SUITE_NEWEST, column: revision, scenario: s.name, specVersion: revision });
  }
  // The extension scenarios, and any the revisions do not score yet (added after their release).
  for (const s of listClientScenarios(node, SUITE_NEWEST.path)) {
    if (!wanted(s.name) || plan.some((p) => p.suite === SUITE_NEWEST && p.scenario === s.name)) continue;
    plan.push({
      suite: SUITE_NEWEST,
      column: s.tags.includes('extension') ? 'extension' : 'unscored',
      scenario: s.name,
    });
  }
  const rows = await inParallel(
    plan.map((p) => async (): Promise<Row> => {
      const [host, bare] = [
        await runScenario(node, p.suite.path, p.scenario, command(CLIENT), p.specVersion),
        await runScenario(node, p.suite.path, p.scenario, command(BARE_SDK_CLIENT), p.specVersion),
      ];
      const row: Row = { suite: p.suite.label, column: p.column, scenario: p.scenario, host, bare };
      const line = `${p.suite.label.padEnd(15)} ${p.column.padEnd(10)} ${p.scenario.padEnd(42)} ${verdict(host).padEnd(5)} ${`${host.passed}/${host.total}`.padEnd(7)} bare ${verdict(bare).padEnd(5)} ${bare.passed}/${bare.total}`;
      const excused = await excuse(node, row);
      console.log(`${line}${host.ok ? '' : `  ${excused ? `(${excused})` : host.failures.join('; ').slice(0, 400)}`}`);
      return excused ? { ...row, excused } : row;
    }),
    2,
  );
  report(rows);
}

const verdict = (run: ScenarioRun) => (run.ok ? 'pass' : 'FAIL');

/** Why a failure does not fail the run: a 0.1.16 defect the newest suite corrects, or a listed known failure. */
async function excuse(node: string, row: Row): Promise<string | undefined> {
  if (row.host.ok) return undefined;
  const defect = row.suite === SUITE_0_1.label ? SUITE_DEFECTS[row.scenario] : undefined;
  if (defect && defect.clientSays.test(row.host.stderr)) {
    const corrected = await runScenario(node, SUITE_NEWEST.path, row.scenario, command(CLIENT));
    if (corrected.ok)
      return `suite defect: ${defect.evidence}; the corrected scenario (conformance ${SUITE_NEWEST.label}) passes ${corrected.passed}/${corrected.total}`;
  }
  return row.suite === SUITE_NEWEST.label ? EXPECTED_FAILURES[row.scenario] : undefined;
}

function report(rows: readonly Row[]): void {
  console.log("\nclient scenarios passed (the suite's verdict, client exit 0)");
  console.log(`${'suite'.padEnd(15)} ${'scored for'.padEnd(12)} ${'MCP Host'.padEnd(10)} bare client library`);
  for (const [suite, column] of [...new Set(rows.map((r) => `${r.suite}\u0000${r.column}`))].map((k) =>
    k.split('\u0000'),
  )) {
    const set = rows.filter((r) => r.suite === suite && r.column === column);
    const count = (pick: (r: Row) => boolean) => `${set.filter(pick).length}/${set.length}`;
    console.log(
      `${suite.padEnd(15)} ${column.padEnd(12)} ${count((r) => r.host.ok).padEnd(10)} ${count((r) => r.bare.ok)}`,
    );
  }
  const unexpected = rows.filter((r) => !r.host.ok && !r.excused);
  const nowPassing = rows.filter((r) => r.host.ok && r.suite === SUITE_NEWEST.label && EXPECTED_FAILURES[r.scenario]);
  const excused = rows.filter((r) => !r.host.ok && r.excused);
  if (excused.length)
    console.log(
      `\nexcused (${excused.length}):\n${excused.map((r) => `  ${r.suite} ${r.column} ${r.scenario}: ${r.excused}`).join('\n')}`,
    );
  if (unexpected.length)
    console.log(`\nfailing:\n${unexpected.map((r) => `  ${r.suite} ${r.column} ${r.scenario}`).join('\n')}`);
  if (nowPassing.length)
    console.log(
      `\nlisted as expected failures but passing (remove them from EXPECTED_FAILURES):\n${nowPassing.map((r) => `  ${r.scenario}`).join('\n')}`,
    );
  const failures = unexpected.length + nowPassing.length;
  const dir = path.join(ROOT, 'test-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'conformance.json'),
    JSON.stringify({ passes: rows.length - failures, failures, rows }, null, 2),
  );
  process.exit(failures === 0 ? 0 : 1);
}

if (require.main === module) void main();
