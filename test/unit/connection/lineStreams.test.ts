import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { LinearReadBuffer } from '../../../src/core/connection/linearReadBuffer';
import { LineWriter, SlicedLineReader } from '../../../src/core/connection/lineStreams';

const notification = (i: number) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });

describe('lineStreams (newline-delimited JSON-RPC on stdio pipes and window sockets)', () => {
  it('hands a burst that arrived at once on in order, and lets the event loop run before the end of it', async () => {
    const buffer = new LinearReadBuffer(64 * 1024 * 1024);
    // 50,000 messages in one chunk: reading them all takes far longer than a slice.
    buffer.append(Buffer.from(`${Array.from({ length: 50_000 }, (_, i) => notification(i)).join('\n')}\n`));
    const seen: number[] = [];
    const failures: Error[] = [];
    const all = new Promise<void>((resolve) => {
      const reader = new SlicedLineReader(
        () => buffer,
        (message) => {
          seen.push((message as unknown as { params: { data: number } }).params.data);
          if (seen.length === 50_000) resolve();
        },
        (error) => failures.push(error),
      );
      reader.read();
    });
    const inFirstSlice = seen.length;
    assert.ok(inFirstSlice > 0 && inFirstSlice < 50_000, `${inFirstSlice} of 50,000 read before the loop could run`);
    await all;
    assert.ok(
      seen.every((n, i) => n === i),
      'in order',
    );
    assert.deepEqual(failures, []);
  });

  it('skips a line that is JSON but not JSON-RPC, telling why, and reads on', () => {
    const buffer = new LinearReadBuffer(1024);
    buffer.append(Buffer.from(`{"not":"json-rpc"}\n${notification(1)}\n`));
    const seen: unknown[] = [];
    const failures: Error[] = [];
    new SlicedLineReader(
      () => buffer,
      (m) => seen.push(m),
      (e) => failures.push(e),
    ).read();
    assert.equal(seen.length, 1);
    assert.equal(failures.length, 1);
  });

  it('makes every write that finds the stream full wait for one drain, and ends the wait when the stream closes', async () => {
    const stream = new PassThrough({ highWaterMark: 16 });
    const writer = new LineWriter();
    assert.equal(await Promise.race([writer.write(stream, 'a\n'), Promise.resolve('pending')]), undefined);
    const first = writer.write(stream, `${'x'.repeat(64)}\n`);
    const second = writer.write(stream, 'y\n');
    assert.equal(first, second, 'one wait for both');
    assert.equal(await Promise.race([first.then(() => 'drained'), Promise.resolve('pending')]), 'pending');
    assert.equal(stream.listenerCount('drain'), 1);
    stream.destroy();
    await first;
    assert.equal(stream.listenerCount('drain'), 0);
  });
});
