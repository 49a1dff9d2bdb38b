import * as assert from 'node:assert/strict';
import { createTransport } from '../../../src/core/connection/transportFactory';
import { ExecutableResolver } from '../../../src/core/process/executableResolver';
import { fixture, stdioDefinition } from '../support/fixtures';

/** Whether `value` is reachable from `root` through own properties, `depth` steps deep at most. */
function holds(root: unknown, value: string, depth: number, seen = new Set<unknown>()): boolean {
  if (root === value) return true;
  if (depth === 0 || root === null || typeof root !== 'object' || seen.has(root)) return false;
  seen.add(root);
  return Object.keys(root).some((key) => holds((root as Record<string, unknown>)[key], value, depth - 1, seen));
}

describe("The host's stdio transport", () => {
  it('hands the server its environment, and keeps no copy of it once the process runs', async () => {
    const secret = `value-${process.pid}-${Date.now()}`;
    // A "server" that reports the variable it was given, then waits for the end of its input.
    const report = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: process.env.MCP_HOST_TEST_VALUE } }) + '\\n'); process.stdin.resume().on('end', () => process.exit(0));`;
    const def = {
      ...stdioDefinition('env', fixture('legacyStdio')),
      args: ['-e', report],
      env: { MCP_HOST_TEST_VALUE: secret },
    };
    const created = await createTransport(def, new ExecutableResolver());
    try {
      // Before the start the transport holds what it spawns with (the check finds a value where there is one).
      assert.ok(holds(created.transport, secret, 3), 'the environment is there to spawn with');
      const heard = new Promise<unknown>((resolve) => {
        created.transport.onmessage = (message) =>
          resolve((message as unknown as { params: { data: unknown } }).params.data);
      });
      await created.transport.start();
      assert.equal(await heard, secret, 'the server got its environment');
      assert.ok(
        !holds(created.transport, secret, 3),
        "the transport still holds the environment (the whole of the editor's, for each server)",
      );
    } finally {
      await created.transport.close();
    }
    // A second start would spawn the server without its variables: it is refused.
    await assert.rejects(created.transport.start(), /has started its server once; a new start needs a new transport/);
  });
});
