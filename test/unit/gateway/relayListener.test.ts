import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RelayListener } from '../../../src/core/gateway/relayListener';
import { waitFor } from '../support/fixtures';

describe('RelayListener', () => {
  let folder: string;
  let listener: RelayListener | undefined;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'relay-listener-'));
  });
  afterEach(() => {
    listener?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it('goes on listening after a connection it could not accept, and says why', async () => {
    const refusals: string[] = [];
    const attached: string[] = [];
    listener = new RelayListener({
      socketPath: path.join(folder, 'relay.sock'),
      token: 'secret',
      attach: async (serverId, socket) => {
        attached.push(serverId);
        socket.end();
      },
      refused: (why) => refusals.push(why),
    });
    await listener.listen();
    // What Node reports when accept(2) fails (no file descriptor left, say): the server's own error event.
    (listener as unknown as { server: Server }).server.emit('error', new Error('accept EMFILE'));
    assert.deepEqual(refusals, ['a connection could not be accepted: accept EMFILE']);
    const socket = connect(listener.socketPath);
    socket.on('error', () => undefined);
    socket.write(`${JSON.stringify({ token: 'secret', server: 'memory' })}\n`);
    await waitFor('the next relay attached', () => attached.length === 1);
    assert.deepEqual(attached, ['memory']);
    socket.destroy();
  });
});
