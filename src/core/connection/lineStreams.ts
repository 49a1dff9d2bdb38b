// Newline-delimited JSON-RPC on a byte stream, both ways: what a server's stdio pipes and the
// socket to another window's process share (transportFactory.ts, lineSocketTransport.ts).
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { performance } from 'node:perf_hooks';
import type { Writable } from 'node:stream';

/** How long a reader hands on messages before it lets the event loop run. */
const READ_SLICE_MS = 10;

/**
 * Writes lines to a stream; every write that finds it full waits on one shared `drain` (a listener
 * per message makes answering a storm of thousands of requests quadratic in their number). A
 * stream that closes meanwhile ends the wait too: nothing waits for a drain that cannot come.
 */
export class LineWriter {
  private drained?: Promise<void>;

  write(stream: Writable, line: string): Promise<void> {
    if (stream.write(line) && !this.drained) return Promise.resolve();
    this.drained ??= new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done).off('close', done);
        this.drained = undefined;
        resolve();
      };
      stream.once('drain', done).once('close', done);
    });
    return this.drained;
  }
}

/**
 * A transport of ours that hands each message it reads to `deliver`, which calls `onmessage`:
 * what watches the traffic replaces `deliver` (a plain field) instead of turning `onmessage`
 * into an accessor, which would put the transport's properties in a slow dictionary.
 */
export interface DeliveringTransport {
  onmessage?: (message: JSONRPCMessage) => void;
  deliver: (message: JSONRPCMessage) => void;
}

export function isDeliveringTransport(transport: object): transport is DeliveringTransport {
  return typeof (transport as Partial<DeliveringTransport>).deliver === 'function';
}

/**
 * Hands on the messages of a line buffer in order, but yields to the event loop every
 * {@link READ_SLICE_MS}: a peer that sends thousands of messages at once never stalls the
 * extension host for longer than a slice. A message that is not valid JSON-RPC is told to
 * `failed` and skipped, as the client library does.
 */
export class SlicedLineReader {
  private resumeScheduled = false;

  constructor(
    private readonly buffer: () => { readMessage(): JSONRPCMessage | null } | undefined,
    private readonly deliver: (message: JSONRPCMessage) => void,
    private readonly failed: (error: Error) => void,
  ) {}

  /** Reads what the buffer holds now (called after each chunk). */
  read(): void {
    const buffer = this.buffer();
    if (this.resumeScheduled || !buffer) return;
    const until = performance.now() + READ_SLICE_MS;
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = buffer.readMessage();
      } catch (error) {
        this.failed(error as Error);
        continue;
      }
      if (message === null) return;
      this.deliver(message);
      if (performance.now() > until) {
        this.resumeScheduled = true;
        setImmediate(() => {
          this.resumeScheduled = false;
          this.read();
        });
        return;
      }
    }
  }
}
