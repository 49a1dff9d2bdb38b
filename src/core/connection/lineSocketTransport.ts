import { serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { connect, type Socket } from 'node:net';
import { LinearReadBuffer } from './linearReadBuffer';
import { LineWriter, SlicedLineReader, type DeliveringTransport } from './lineStreams';

/** Where a window reaches the process another window runs, as newline-delimited JSON-RPC. */
export interface LineSocket {
  readonly socketPath: string;
  /** The first line: the endpoint's token and the server, as the owner's gateway expects. */
  readonly hello: string;
}

/**
 * A client transport over a Unix socket that carries newline-delimited JSON-RPC, as stdio does:
 * how a window reaches the process another window runs (the owner's gateway serves its endpoint
 * there, as it does for VS Code's relays; four times faster a call than Streamable HTTP on the
 * same socket). The connection closing ends the transport, failing what is in flight. Lines are
 * read and written as on a server's stdio (lineStreams.ts).
 */
export class LineSocketTransport implements Transport, DeliveringTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  deliver = (message: JSONRPCMessage): void => this.onmessage?.(message);
  private socket?: Socket;
  private readonly buffer: LinearReadBuffer;
  private readonly reader: SlicedLineReader;
  private readonly writer = new LineWriter();
  private closed = false;

  constructor(
    private readonly target: LineSocket,
    maxMessageBytes: number,
  ) {
    this.buffer = new LinearReadBuffer(maxMessageBytes);
    this.reader = new SlicedLineReader(
      () => (this.closed ? undefined : this.buffer),
      (message) => this.deliver(message),
      (error) => this.onerror?.(error),
    );
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.target.socketPath);
      this.socket = socket;
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.on('error', (error) => this.onerror?.(error));
        socket.write(`${this.target.hello}\n`);
        resolve();
      });
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => this.read(chunk));
      socket.once('close', () => this.ended());
    });
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // More pending than one message may hold: the exchange cannot go on in step.
      this.onerror?.(error as Error);
      this.socket?.destroy();
      return;
    }
    this.reader.read();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || this.closed) return Promise.reject(new Error('the connection to the other window has closed'));
    return this.writer.write(socket, serializeMessage(message));
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    this.ended();
  }

  private ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
