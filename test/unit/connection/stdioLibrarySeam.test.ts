import * as assert from 'node:assert/strict';
import { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { stdioInternals } from '../../../src/core/connection/stdioLibrarySeam';
import { OwnedStdioTransport } from '../../../src/core/connection/transportFactory';
import { fixture, waitFor } from '../support/fixtures';

const INITIALIZE: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'seam', version: '1' } },
};

/** Starts `transport` on the legacy fixture and waits for the answer to initialize. */
async function answered(transport: StdioClientTransport): Promise<JSONRPCMessage> {
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void messages.push(message);
  await transport.start();
  await transport.send(INITIALIZE);
  return waitFor('the answer to initialize', () => messages.find((m) => 'id' in m && m.id === 1), 15_000);
}

describe("the seam into the client library's stdio transport (what a library update must not take away)", function () {
  this.timeout(30_000);
  const started: StdioClientTransport[] = [];
  afterEach(async () => Promise.all(started.splice(0).map((t) => t.close().catch(() => undefined))));

  it("finds the library's line buffer, reader, child and spawn parameters where the host reaches them", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fixture('legacyStdio')],
      stderr: 'pipe',
    });
    started.push(transport);
    const internals = stdioInternals(transport);
    assert.equal(typeof internals._readBuffer?.append, 'function', '_readBuffer.append');
    assert.equal(typeof internals._readBuffer?.readMessage, 'function', '_readBuffer.readMessage');
    assert.equal(typeof internals._readBuffer?.clear, 'function', '_readBuffer.clear');
    assert.equal(internals._serverParams?.command, process.execPath, '_serverParams');
    // The stdout handler calls the reader on the instance: replaced there, it is the one that runs.
    const library = internals.processReadBuffer.bind(transport);
    let reads = 0;
    internals.processReadBuffer = () => {
      reads++;
      library();
    };
    const answer = await answered(transport);
    assert.ok('result' in answer, JSON.stringify(answer));
    assert.ok(reads > 0, "the library's stdout handler calls processReadBuffer on the instance");
    assert.ok(internals._process instanceof ChildProcess, '_process is the child');
    assert.equal(internals._process.pid, transport.pid);
  });

  it("gives MCP Host's transport the linear buffer and the sliced reader, and lets go of the environment once spawned", async () => {
    const transport = new OwnedStdioTransport({
      command: process.execPath,
      args: [fixture('legacyStdio')],
      env: { ...(process.env as Record<string, string>), SEAM_SECRET: 'x' },
      stderr: 'pipe',
      maxBufferSize: 1024 * 1024,
    });
    started.push(transport);
    assert.equal(transport.readsLinearly, true);
    const answer = await answered(transport);
    assert.ok('result' in answer, JSON.stringify(answer));
    assert.equal(stdioInternals(transport)._serverParams?.env, undefined);
  });
});
