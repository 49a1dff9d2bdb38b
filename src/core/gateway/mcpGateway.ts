import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import type { ServerLog } from '../connection/serverLog';
import type { Disposable } from '../events';
import { gatewayLibraries } from '../lazyLibraries';
import { listenServing } from '../serverListening';
import { endpointUrl, removeGatewayAddress, serverIdOfPath, type GatewayAddress } from './gatewayAddress';
import type { GatewayHost, GatewayOffers } from './gatewayHost';
import { GatewayMirror, knownLists } from './gatewayMirror';
import { RelayListener } from './relayListener';

/** How a client reaches one server's endpoint: the URL and the header that carries the secret. */
export interface GatewayEndpoint {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface McpGatewayOptions {
  readonly host: GatewayHost;
  readonly offers: GatewayOffers;
  readonly address: GatewayAddress;
  /** MCP Host's version, for mirrors of servers that do not say theirs. */
  readonly version: string;
  readonly log: ServerLog;
  /** The bearer token requests must carry; a random one without it. */
  readonly token?: string;
  /** Sessions one server may have at once; {@link MAX_SESSIONS_PER_SERVER} without it. */
  readonly maxSessionsPerServer?: number;
  /**
   * Answers requests for paths other than the MCP endpoints (after the `Origin` check, before the
   * token's): returns false for a path it does not serve.
   */
  readonly otherRoutes?: (req: IncomingMessage, res: ServerResponse, pathname: string) => boolean;
  /** A client opened or closed a session of `serverId` (see {@link McpGateway.connected}). */
  readonly sessionsChanged?: (serverId: string) => void;
  /** The clients are windows of MCP Host sharing the process: each keeps its own timeouts and follows its calls' tasks. */
  readonly clientsAreWindows?: boolean;
  /** Where the relay socket listens; `relay.sock` beside the HTTP socket without it. */
  readonly relaySocketPath?: string;
}

interface GatewaySession {
  readonly serverId: string;
  readonly transport: { close(): Promise<void> };
  /** The session's HTTP transport; none for a relay's (stdio lane). */
  readonly http?: NodeStreamableHTTPServerTransport;
  readonly mirror: GatewayMirror;
}

/**
 * The largest message a client of the gateway may send (VS Code's requests on either lane, a guest
 * window's calls to a shared process): the SDK's HTTP transport would stop at 4 MiB, less than a
 * window sends its own server.
 */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Sessions a server may have at once (VS Code opens one per window); a new one beyond ends the oldest. */
export const MAX_SESSIONS_PER_SERVER = 8;
const REFUSALS_LOGGED_EVERY_MS = 10_000;

/**
 * A kind of log line said at most once every `everyMs`, with how many it stands for: whoever
 * knocks (or a client that reconnects in a loop) cannot flood the log.
 */
class ThrottledLine {
  private saidAt = -Infinity;
  private unsaid = 0;
  constructor(
    private readonly say: (line: string) => void,
    private readonly what: string,
    private readonly everyMs = REFUSALS_LOGGED_EVERY_MS,
  ) {}
  tell(line: string): void {
    this.unsaid++;
    const now = Date.now();
    if (now - this.saidAt < this.everyMs) return;
    const more = this.unsaid > 1 ? ` (${this.unsaid} ${this.what} since the last line)` : '';
    this.say(`${line}${more}.`);
    this.saidAt = now;
    this.unsaid = 0;
  }
}

/**
 * MCP Host's gateway: a Streamable HTTP MCP endpoint per published server, on a private Unix
 * socket or 127.0.0.1, that VS Code's own MCP connects to (see src/editor/agents). Only this user
 * reaches it: the socket's folder is theirs alone, and every request must carry the gateway's
 * random bearer token; requests from a browser page (an `Origin` header), for another path or
 * for a server that is not published are refused.
 */
export class McpGateway implements Disposable {
  private readonly token: string;
  private readonly sessions = new Map<string, GatewaySession>();
  private listening?: Promise<number | undefined>;
  private http?: HttpServer;
  private disposed = false;
  private readonly refusals = new ThrottledLine((line) => this.options.log.warn(line), 'refusals');
  private readonly opened = new ThrottledLine((line) => this.options.log.info(line), 'sessions opened');
  private relay?: RelayListener;
  /** Whether the relay socket could not listen (told once). */
  private relayFailed = false;
  /** Sessions being opened, by server: their client connects now, and must not be told the server changed meanwhile. */
  private readonly opening = new Map<string, number>();

  constructor(private readonly options: McpGatewayOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
  }

  /** How to reach `serverId`'s endpoint; the gateway starts listening with the first call. */
  async endpoint(serverId: string): Promise<GatewayEndpoint> {
    const port = await this.listen();
    return {
      url: endpointUrl(this.options.address, port, serverId),
      headers: { Authorization: `Bearer ${this.token}` },
    };
  }

  /**
   * How a relay process reaches `serverId` on the stdio lane (src/gatewayRelay.ts): the relay
   * socket, beside the HTTP one, and the token its first line carries; undefined where the gateway
   * has no private folder (loopback) or the relay socket could not listen (then HTTP serves).
   */
  async relayEndpoint(serverId: string): Promise<{ socketPath: string; token: string; serverId: string } | undefined> {
    const { address } = this.options;
    if (address.kind !== 'socket' || this.disposed || this.relayFailed) return undefined;
    this.relay ??= new RelayListener({
      socketPath: this.options.relaySocketPath ?? path.join(path.dirname(address.socketPath), 'relay.sock'),
      token: this.token,
      attach: (id, socket) => this.attachRelay(id, socket),
      refused: (why) => this.logRefusal('a relay', why),
    });
    try {
      await this.relay.listen();
    } catch (error) {
      // What cannot listen on its socket (a directory or another user's file in the way) costs the
      // lines, not the server: clients reach it over Streamable HTTP, as before the relay existed.
      if (!this.relayFailed)
        this.options.log.warn(
          `Could not listen on ${this.relay.socketPath} (${(error as Error).message}); clients reach the servers over Streamable HTTP instead.`,
        );
      this.relayFailed = true;
      return undefined;
    }
    return { socketPath: this.relay.socketPath, token: this.token, serverId };
  }

  /** A relay's connection becomes a session of `serverId`, its messages newline-delimited JSON-RPC. */
  private async attachRelay(serverId: string, socket: Socket): Promise<void> {
    const { host, offers, version } = this.options;
    if (!host.server(serverId) || !offers.published(serverId))
      throw new Error(`no MCP server "${serverId}" is published`);
    this.opening.set(serverId, (this.opening.get(serverId) ?? 0) + 1);
    try {
      // As for an HTTP session: a server whose lists are not known starts now (what cannot start
      // is told by the lists' requests, which fail with why).
      await knownLists(host, serverId).catch(() => undefined);
      const mirror = new GatewayMirror(host, offers, serverId, version, this.options.clientsAreWindows);
      const transport = new (gatewayLibraries().StdioServerTransport)(socket, socket, {
        maxBufferSize: MAX_CLIENT_MESSAGE_BYTES,
      });
      const id = randomUUID();
      transport.onclose = () => {
        if (this.sessions.delete(id)) this.options.sessionsChanged?.(serverId);
        mirror.dispose();
        socket.destroy();
      };
      socket.once('close', () => void transport.close().catch(() => undefined));
      await mirror.connect(transport);
      this.adopt(id, { serverId, transport, mirror });
    } finally {
      const left = (this.opening.get(serverId) ?? 1) - 1;
      if (left > 0) this.opening.set(serverId, left);
      else this.opening.delete(serverId);
      this.options.sessionsChanged?.(serverId);
    }
  }

  /** Ends the sessions of a server that is no longer published (or of every server). */
  closeSessions(serverId?: string): void {
    for (const [id, session] of this.sessions)
      if (serverId === undefined || session.serverId === serverId) this.endSession(id);
  }

  /** The mirrors of a server's open sessions. */
  mirrors(serverId: string): GatewayMirror[] {
    return [...this.sessions.values()].filter((s) => s.serverId === serverId).map((s) => s.mirror);
  }

  /** The sessions open per server (for the view and tests). */
  sessionCount(serverId: string): number {
    return [...this.sessions.values()].filter((s) => s.serverId === serverId).length;
  }

  /** Whether a client has a session of `serverId` open, or is opening one. */
  connected(serverId: string): boolean {
    return (this.opening.get(serverId) ?? 0) > 0 || this.sessionCount(serverId) > 0;
  }

  /** Listens now (it otherwise listens with the first endpoint asked for); fails as `listen` does (a socket in use). */
  async open(): Promise<void> {
    await this.listen();
  }

  private listen(): Promise<number | undefined> {
    if (this.disposed) return Promise.reject(new Error("MCP Host's gateway has closed"));
    return (this.listening ??= (async () => {
      const http = createServer(
        (req, res) => void this.handle(req, res).catch((error: Error) => this.failed(res, error)),
      );
      this.http = http;
      const { address } = this.options;
      await listenServing(
        http,
        (listened) =>
          address.kind === 'socket' ? http.listen(address.socketPath, listened) : http.listen(0, '127.0.0.1', listened),
        (error) => this.logRefusal('a connection', `it could not be accepted: ${error.message}`),
      );
      if (address.kind === 'socket') {
        chmodSync(address.socketPath, 0o600);
        return undefined;
      }
      return (http.address() as AddressInfo).port;
    })());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // VS Code's extension host sends no Origin; a page in a browser always does.
    if (req.headers.origin !== undefined) return this.refuse(res, 403, 'requests from web pages are not served');
    const pathname = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (this.options.otherRoutes?.(req, res, pathname)) return;
    if (!carriesBearer(req.headers.authorization, this.token))
      return this.refuse(res, 401, 'missing or wrong bearer token');
    const serverId = serverIdOfPath(pathname);
    const { host, offers } = this.options;
    if (serverId === undefined || !host.server(serverId) || !offers.published(serverId))
      return this.refuse(res, 404, 'no MCP server is published at this path');
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session?.http || session.serverId !== serverId) return this.refuse(res, 404, 'session not found', -32001);
      return session.http.handleRequest(req, res);
    }
    if (req.method !== 'POST') return this.refuse(res, 405, 'a session starts with a POST of initialize');
    await this.newSession(serverId, req, res);
  }

  /**
   * A client's first request (initialize): a server whose lists are not known is started now, so
   * the client learns its name and instructions; one known from its last run starts with its first call.
   */
  private async newSession(serverId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { host } = this.options;
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    this.opening.set(serverId, (this.opening.get(serverId) ?? 0) + 1);
    try {
      try {
        await knownLists(host, serverId, abort.signal);
      } catch (error) {
        return this.refuse(res, 503, (error as Error).message, -32603);
      }
      await this.openSession(serverId, req, res);
    } finally {
      const left = (this.opening.get(serverId) ?? 1) - 1;
      if (left > 0) this.opening.set(serverId, left);
      else this.opening.delete(serverId);
      this.options.sessionsChanged?.(serverId);
    }
  }

  private async openSession(serverId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { host, offers, version } = this.options;
    const { NodeStreamableHTTPServerTransport } = gatewayLibraries();
    const mirror = new GatewayMirror(host, offers, serverId, version, this.options.clientsAreWindows);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_CLIENT_MESSAGE_BYTES,
      onsessioninitialized: (id) => this.adopt(id, { serverId, transport, http: transport, mirror }),
    });
    transport.onclose = () => {
      if (transport.sessionId && this.sessions.delete(transport.sessionId)) this.options.sessionsChanged?.(serverId);
      mirror.dispose();
    };
    await mirror.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) mirror.dispose(); // not an initialize: nothing to keep
  }

  private adopt(id: string, session: GatewaySession): void {
    const ofServer = [...this.sessions].filter(([, s]) => s.serverId === session.serverId);
    const most = this.options.maxSessionsPerServer ?? MAX_SESSIONS_PER_SERVER;
    for (const [oldest] of ofServer.slice(0, Math.max(0, ofServer.length - most + 1))) this.endSession(oldest);
    this.sessions.set(id, session);
    this.opened.tell(`Gateway: a client opened a session of "${session.serverId}"`);
  }

  private endSession(id: string): void {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    if (!session) return;
    void session.transport.close().catch(() => undefined);
    session.mirror.dispose();
    this.options.sessionsChanged?.(session.serverId);
  }

  private refuse(res: ServerResponse, status: number, why: string, code = -32600): void {
    if (status === 401 || status === 403) this.logRefusal(`a request (${status})`, why);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 401) headers['www-authenticate'] = 'Bearer';
    res
      .writeHead(status, headers)
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message: `MCP Host's gateway: ${why}` }, id: null }));
  }

  /** A refusal in the log, throttled: whoever knocks cannot flood the log. */
  private logRefusal(what: string, why: string): void {
    this.refusals.tell(`Gateway: refused ${what}: ${why}`);
  }

  private failed(res: ServerResponse, error: Error): void {
    this.options.log.error(`Gateway: a request failed: ${error.message}`);
    if (!res.headersSent) this.refuse(res, 500, error.message, -32603);
    else res.end();
  }

  /**
   * Stops listening and ends every session. The connections themselves close at once, or once
   * `flushing` settles (what other routes still send; a second at most).
   */
  dispose(flushing?: Promise<unknown>): void {
    this.disposed = true;
    this.closeSessions();
    this.relay?.dispose();
    const http = this.http;
    http?.close();
    if (!flushing) http?.closeAllConnections();
    else
      void Promise.race([flushing, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]).then(() =>
        http?.closeAllConnections(),
      );
    removeGatewayAddress(this.options.address);
  }
}

/** Whether an `Authorization` header carries `token` as its bearer token (compared in constant time). */
export function carriesBearer(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
