import { timingSafeEqual } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { Disposable } from '../events';
import { listenServing } from '../serverListening';

/** The first line a relay sends may be at most this long (a token and a server id). */
const HELLO_MAX_BYTES = 8 * 1024;
/** A relay that has not said hello by then is dropped. */
const HELLO_TIMEOUT_MS = 10_000;

export interface RelayListenerOptions {
  readonly socketPath: string;
  readonly token: string;
  /**
   * Takes over a relay's connection for `serverId` (newline-delimited JSON-RPC from here on): settles
   * once it reads the socket; rejects when the server is not published.
   */
  readonly attach: (serverId: string, socket: Socket) => Promise<void>;
  /** A connection that was refused, and why. */
  readonly refused: (why: string) => void;
}

/**
 * The gateway's stdio lane: a Unix socket, beside the gateway's HTTP socket in its private folder,
 * that the relay processes VS Code starts for stdio definitions connect to (src/gatewayRelay.ts).
 * A relay's first line names the server and carries the gateway's token; a wrong token, a
 * malformed or over-long line, or silence closes the connection.
 */
export class RelayListener implements Disposable {
  private listening?: Promise<void>;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: RelayListenerOptions) {}

  get socketPath(): string {
    return this.options.socketPath;
  }

  listen(): Promise<void> {
    return (this.listening ??= (async () => {
      const server = createServer((socket) => this.accept(socket));
      this.server = server;
      rmSync(this.options.socketPath, { force: true });
      await listenServing(
        server,
        (listened) => server.listen(this.options.socketPath, listened),
        (error) => this.options.refused(`a connection could not be accepted: ${error.message}`),
      ).catch((error: Error) => {
        server.close();
        throw error;
      });
      chmodSync(this.options.socketPath, 0o600);
    })());
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    const refuse = (why: string) => {
      cleanup();
      this.options.refused(why);
      socket.destroy();
    };
    const timer = setTimeout(() => refuse('no hello in time'), HELLO_TIMEOUT_MS);
    const cleanup = () => {
      clearTimeout(timer);
      socket.off('data', onData);
    };
    const onData = (chunk: Buffer) => void hear(chunk);
    const hear = async (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(0x0a);
      if (end < 0) {
        if (buffered.length > HELLO_MAX_BYTES) refuse('an over-long hello');
        return;
      }
      cleanup();
      socket.pause();
      let hello: { token?: unknown; server?: unknown };
      try {
        hello = JSON.parse(buffered.subarray(0, end).toString('utf8')) as typeof hello;
      } catch {
        return refuse('a malformed hello');
      }
      if (typeof hello.token !== 'string' || !sameToken(hello.token, this.options.token))
        return refuse('a missing or wrong token');
      if (typeof hello.server !== 'string') return refuse('no server named');
      const rest = buffered.subarray(end + 1);
      if (rest.length > 0) socket.unshift(rest);
      try {
        await this.options.attach(hello.server, socket);
      } catch (error) {
        return refuse((error as Error).message);
      }
      socket.resume();
    };
    socket.on('data', onData);
  }

  dispose(): void {
    this.server?.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
