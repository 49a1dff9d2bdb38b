// Temporary directories of a test run, all removed when the run's process exits (whether the
// tests passed or not), so runs do not pile up editor profiles and workspaces in the system's
// temporary folder. MCPHOST_KEEP_TEMP=1 keeps them for a look after a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const made: string[] = [];

/** A new empty directory under the system's temporary folder, named `<prefix>XXXXXX`. */
export function tempDir(prefix: string): string {
  if (made.length === 0 && process.env.MCPHOST_KEEP_TEMP !== '1') process.once('exit', removeAll);
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes one directory made by tempDir now (a long run with many editors). Never fails a test:
 * a directory something still writes into is tried again when the run ends.
 */
export function removeTempDir(dir: string): void {
  if (process.env.MCPHOST_KEEP_TEMP === '1') return;
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Still in use; the sweep at exit tries again, and what stays is in the temporary folder.
  }
}

function removeAll(): void {
  for (const dir of made) removeTempDir(dir);
}
