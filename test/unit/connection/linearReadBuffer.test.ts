import * as assert from 'node:assert/strict';
import { ReadBuffer } from '@modelcontextprotocol/client';
import { LinearReadBuffer } from '../../../src/core/connection/linearReadBuffer';
import { createTransport } from '../../../src/core/connection/transportFactory';
import { ExecutableResolver } from '../../../src/core/process/executableResolver';
import { fixture, stdioDefinition } from '../support/fixtures';

/** Feeds the same bytes, cut the same way, to a buffer and collects what it reads. */
function readAll(buffer: ReadBuffer, pieces: Buffer[]): unknown[] {
  const out: unknown[] = [];
  for (const piece of pieces) {
    buffer.append(piece);
    for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  }
  return out;
}

function cut(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return pieces;
}

describe('LinearReadBuffer (stdio lines in linear time)', () => {
  // Multi-byte characters split across chunks; tiny chunks get a smaller message (the library's
  // buffer, the reference here, is quadratic).
  const streamOf = (big: string) =>
    'a banner, not JSON\n' +
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: big } })}\r\n` +
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n` +
    `${JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} })}\n` +
    '{"jsonrpc":"2.0","id":3,"res';

  for (const size of [1, 7, 4096, 65_536, 10_000_000]) {
    it(`reads exactly what the library's buffer reads, in chunks of ${size} bytes`, () => {
      const pieces = cut(streamOf('é'.repeat(size < 100 ? 3_000 : 300_000)), size);
      const expected = readAll(new ReadBuffer({ maxBufferSize: 1 << 24 }), pieces);
      const actual = readAll(new LinearReadBuffer(1 << 24), pieces);
      assert.equal(actual.length, 3);
      assert.deepEqual(actual, expected);
    });
  }

  it('keeps the unfinished line and completes it later', () => {
    const buffer = new LinearReadBuffer(1 << 20);
    buffer.append(Buffer.from('{"jsonrpc":"2.0","id":3,"res'));
    assert.equal(buffer.readMessage(), null);
    buffer.append(Buffer.from('ult":{}}\n'));
    assert.deepEqual(buffer.readMessage(), { jsonrpc: '2.0', id: 3, result: {} });
    assert.equal(buffer.readMessage(), null);
  });

  it('refuses more pending bytes than allowed, as the library does, and starts over', () => {
    const buffer = new LinearReadBuffer(10);
    buffer.append(Buffer.from('12345'));
    assert.throws(() => buffer.append(Buffer.from('678901')), /^Error: ReadBuffer exceeded maximum size of 10 bytes$/);
    buffer.append(Buffer.from('{"a":1}'));
    assert.equal(buffer.readMessage(), null);
  });

  it('throws on a line that is JSON but not JSON-RPC, like the library', () => {
    const buffer = new LinearReadBuffer(1 << 20);
    buffer.append(Buffer.from('{"hello":"world"}\n'));
    assert.throws(() => buffer.readMessage());
  });

  it("is what the host's stdio transport reads with", async () => {
    const created = await createTransport(stdioDefinition('s', fixture('legacyStdio')), new ExecutableResolver());
    assert.equal((created.stdio as unknown as { readsLinearly: boolean }).readsLinearly, true);
  });

  it('hands a burst of 50,000 messages from a server on in order', async () => {
    // A "server" that writes 50,000 notifications in one go, then waits.
    const burst = `process.stdout.write(Array.from({ length: 50000 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } })).join('\\n') + '\\n'); setInterval(() => undefined, 1000);`;
    const def = { ...stdioDefinition('burst', fixture('legacyStdio')), args: ['-e', burst] };
    const created = await createTransport(def, new ExecutableResolver());
    const seen: number[] = [];
    const all = new Promise<void>((resolve) => {
      created.transport.onmessage = (message) => {
        seen.push((message as unknown as { params: { data: number } }).params.data);
        if (seen.length === 50_000) resolve();
      };
    });
    await created.transport.start();
    await all;
    await created.transport.close();
    assert.deepEqual(seen.slice(0, 3), [0, 1, 2]);
    assert.ok(
      seen.every((n, i) => n === i),
      'in order',
    );
  });
});
