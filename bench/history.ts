// The benchmarks' history, as data: each full run appends one JSON line to bench/history/<name>.jsonl
// (committed with the change it measured); docs/performance.md shows only the latest table.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import * as path from 'node:path';

const HISTORY = path.resolve(__dirname, '../../bench/history');

export function machineLine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** Appends this run (its rows as printed, and what was measured with what) to the benchmark's history. */
export function recordRun(
  name: string,
  run: { readonly args: readonly string[]; readonly rows: unknown; readonly results?: unknown },
): void {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // not a clone
  }
  mkdirSync(HISTORY, { recursive: true });
  const line = { date: new Date().toISOString(), commit, machine: machineLine(), ...run };
  appendFileSync(path.join(HISTORY, `${name}.jsonl`), `${JSON.stringify(line)}\n`);
  console.log(`(appended to bench/history/${name}.jsonl)`);
}
