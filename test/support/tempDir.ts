// Temporary directories of a test run, all removed when the run's process exits (whether the
// tests passed or not), so runs do not pile up editor profiles and workspaces in the system's
// temporary folder. MCPHOST_KEEP_TEMP=1 keeps them for a look after a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const made: string[] = [];

/** A new empty directory under the system's temporary folder, named `<prefix>XXXXXX`. */
export function tempDir(prefix: string, parent = tmpdir()): string {
  if (made.length === 0 && process.env.MCPHOST_KEEP_TEMP !== '1') process.once('exit', removeAll);
  const dir = mkdtempSync(path.join(parent, prefix));
  made.push(dir);
  return dir;
}

/** Removes one directory made by tempDir now (a long run with many editors). */
export function removeTempDir(dir: string): void {
  if (process.env.MCPHOST_KEEP_TEMP === '1') return;
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

function removeAll(): void {
  for (const dir of made) {
    try {
      removeTempDir(dir);
    } catch {
      // A directory still held by a process that outlived the run stays; it is temporary anyway.
    }
  }
}
