// One run of one client scenario of the official MCP conformance suite, and the suite's lists.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description?: string;
  readonly errorMessage?: string;
}

export interface ScenarioRun {
  readonly scenario: string;
  /** Checks that passed, of those the suite scored (SUCCESS, FAILURE, WARNING). */
  readonly passed: number;
  readonly total: number;
  /** The suite's own verdict ("OVERALL: PASSED", which also requires the client to exit 0), with at least one check scored. */
  readonly ok: boolean;
  readonly clientExitedWithError: boolean;
  readonly failures: readonly string[];
  /** The client's stderr (what it said when it failed). */
  readonly stderr: string;
}

/** A scenario as the suite lists it: its name and the sets it belongs to (`2026-07-28`, `extension`, …). */
export interface ListedScenario {
  readonly name: string;
  readonly tags: readonly string[];
}

/** The suite's client scenarios, or those a revision requires when `requirements` is given (scored ones only). */
export function listClientScenarios(node: string, suite: string, requirements?: string): ListedScenario[] {
  const listed = spawnSync(
    node,
    [suite, 'list', '--client', ...(requirements ? ['--requirements', requirements] : [])],
    { encoding: 'utf8' },
  );
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr}`);
  const section = listed.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? '';
  // A requirement set's list ends where the never-scored ones begin.
  const scored = section.split(/Run and reported, but never scored/)[0];
  return [...scored.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].map((m) => ({
    name: m[1],
    tags: m[2] ? m[2].split(',') : [],
  }));
}

/** Runs one scenario against `command` (at a revision's wire when `specVersion` is given). */
export function runScenario(
  node: string,
  suite: string,
  scenario: string,
  command: string,
  specVersion?: string,
): Promise<ScenarioRun> {
  const out = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
  const args = [
    suite,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--timeout',
    '60000',
    '-o',
    out,
    ...(specVersion ? ['--spec-version', specVersion] : []),
  ];
  return new Promise<ScenarioRun>((resolve) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // The verdict and the checks go to stderr, the scenario's log to stdout: both are read.
    let output = '';
    const read = (chunk: Buffer) => (output += chunk.toString('utf8'));
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(readRun(scenario, out, output));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

function readRun(scenario: string, out: string, output: string): ScenarioRun {
  // Scenario names with a "/" become nested folders.
  const dir = readdirSync(out, { recursive: true, encoding: 'utf8' })
    .map((d) => path.join(out, d))
    .find((d) => existsSync(path.join(d, 'checks.json')));
  if (!dir)
    return {
      scenario,
      passed: 0,
      total: 0,
      ok: false,
      clientExitedWithError: false,
      failures: ['the suite wrote no checks'],
      stderr: '',
    };
  const checks = JSON.parse(readFileSync(path.join(dir, 'checks.json'), 'utf8')) as Check[];
  const scored = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE' || c.status === 'WARNING');
  const failures = checks
    .filter((c) => c.status === 'FAILURE')
    .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
  const stderr = existsSync(path.join(dir, 'stderr.txt')) ? readFileSync(path.join(dir, 'stderr.txt'), 'utf8') : '';
  const clientExitedWithError = /CLIENT EXITED WITH ERROR/.test(output);
  if (clientExitedWithError) failures.push(`the client exited with an error: ${lastLine(stderr)}`);
  return {
    scenario,
    passed: scored.filter((c) => c.status === 'SUCCESS').length,
    total: scored.length,
    // A run in which nothing was scored (every check SKIPPED) proves nothing: it does not count.
    ok: /OVERALL: PASSED/.test(output) && !clientExitedWithError && scored.length > 0,
    clientExitedWithError,
    failures,
    stderr,
  };
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? '(nothing on stderr)'
  ).slice(0, 300);
}

/** Runs `jobs` at most `width` at a time, keeping their order in the results. */
export async function inParallel<T>(jobs: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}
