import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { StderrTail } from '../../../src/core/connection/stderrTail';
import type { CreatedTransport } from '../../../src/core/connection/transportFactory';
import { RecordingLog } from '../support/fixtures';

/** Follows the stderr of a real process running `code`, until it ends. */
async function followed(code: string): Promise<{ tail: StderrTail; log: RecordingLog }> {
  const log = new RecordingLog();
  const tail = new StderrTail(log);
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
  tail.follow({ stdio: { stderr: child.stderr } } as unknown as CreatedTransport);
  await once(child.stderr, 'end');
  return { tail, log };
}

describe("a stdio server's stderr kept to explain a failure", () => {
  it('keeps the first lines and the last ones: a program that says why first and prints its usage after', async () => {
    const { tail, log } = await followed(
      'console.error("Error: No access token was provided."); for (let i = 1; i <= 40; i++) console.error("  --flag-" + i)',
    );
    assert.deepEqual(tail.lines, [
      'Error: No access token was provided.',
      ...Array.from({ length: 4 }, (_, i) => `  --flag-${i + 1}`),
      ...Array.from({ length: 20 }, (_, i) => `  --flag-${i + 21}`),
    ]);
    // A server that ran a while: its first lines are from its start, only the last ones say why it ended.
    assert.deepEqual(
      tail.recentLines,
      Array.from({ length: 20 }, (_, i) => `  --flag-${i + 21}`),
    );
    // The log has every line.
    assert.equal(log.lines.filter((line) => line.includes('[stderr]')).length, 41);
  });

  it('keeps short output whole, once', async () => {
    const { tail } = await followed('console.error("reading settings"); console.error("error: API_KEY is not set")');
    assert.deepEqual(tail.lines, ['reading settings', 'error: API_KEY is not set']);
    assert.deepEqual(tail.recentLines, tail.lines);
  });

  it("takes a terminal's colours out of the lines, in the log too (a program that colours its errors)", async () => {
    const { tail, log } = await followed(
      'console.error("\\u001b[31mERROR\\u001b[39m APIFY_TOKEN is required"); console.error("\\u001b[1m\\u001b[0m")',
    );
    assert.deepEqual(tail.lines, ['ERROR APIFY_TOKEN is required']);
    assert.ok(
      log.lines.some((line) => line.endsWith('[stderr] ERROR APIFY_TOKEN is required')),
      log.lines.join('\n'),
    );
    assert.ok(!log.lines.some((line) => line.includes('\u001b')));
  });

  it('cuts output that never ends a line into bounded pieces', async () => {
    const { tail } = await followed('process.stderr.write("x".repeat(100 * 1024))');
    assert.ok(tail.lines.length >= 6, `${tail.lines.length} pieces`);
    assert.ok(
      tail.lines.every((line) => line.length <= 16 * 1024),
      `longest ${Math.max(...tail.lines.map((l) => l.length))}`,
    );
    assert.equal(tail.lines.join('').length, 100 * 1024);
  });
});
