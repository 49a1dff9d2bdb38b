import * as assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import * as path from 'node:path';
import { LineSocketTransport } from '../../../src/core/connection/lineSocketTransport';
import { tempDir } from '../../support/tempDir';

/** A Unix socket whose peer `serve` gets each connection, as another window's gateway would. */
async function listening(serve: (socket: Socket) => void): Promise<{ server: Server; socketPath: string }> {
  const socketPath = path.join(tempDir('mcp-lines-'), 'peer.lines');
  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { server, socketPath };
}

describe('LineSocketTransport (a window reaching the process another window runs)', () => {
  it('sends its hello first, and hands a burst of 50,000 messages from the other window on in order', async () => {
    let hello = '';
    const { server, socketPath } = await listening((socket) => {
      socket.once('data', (chunk) => {
        hello = chunk.toString('utf8');
        socket.write(
          `${Array.from({ length: 50_000 }, (_, i) =>
            JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } }),
          ).join('\n')}\n`,
        );
      });
    });
    const transport = new LineSocketTransport({ socketPath, hello: '{"token":"t","server":"s"}' }, 64 * 1024 * 1024);
    const seen: number[] = [];
    const all = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        seen.push((message as unknown as { params: { data: number } }).params.data);
        if (seen.length === 50_000) resolve();
      };
    });
    try {
      await transport.start();
      await all;
      assert.equal(hello, '{"token":"t","server":"s"}\n');
      assert.ok(
        seen.every((n, i) => n === i),
        'in order',
      );
    } finally {
      await transport.close();
      server.close();
    }
  });

  it('ends a send that waits for a full socket when the other window goes, and refuses sends after', async () => {
    const peers: Socket[] = [];
    // A peer that never reads: the socket fills.
    const { server, socketPath } = await listening((socket) => {
      socket.pause();
      peers.push(socket);
    });
    const transport = new LineSocketTransport({ socketPath, hello: 'hello' }, 1024 * 1024);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    transport.onerror = () => undefined;
    try {
      await transport.start();
      const big = 'x'.repeat(256 * 1024);
      let waiting: Promise<void> | undefined;
      for (let i = 0; i < 1000 && !waiting; i++) {
        const sent = transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { data: big } });
        // A send that does not resolve at once waits for the socket to drain.
        const settledAtOnce = await Promise.race([sent.then(() => true), Promise.resolve(false)]);
        if (!settledAtOnce) waiting = sent;
      }
      assert.ok(waiting, 'the socket filled');
      peers[0].destroy();
      await waiting;
      await closed;
      await assert.rejects(
        transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} }),
        /the connection to the other window has closed/,
      );
    } finally {
      await transport.close();
      server.close();
    }
  });
});
