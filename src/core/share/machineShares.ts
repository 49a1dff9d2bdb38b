import type { FetchLike } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import type { Agent } from 'undici';
import {
  sameRoots,
  type GuestClaim,
  type MachineShare,
  type OwnerClaim,
  type ServerRequestAnswer,
  type ShareClaim,
  type ShareEnd,
} from '../connection/machineShare';
import type { ResolvedRoot } from '../config/serverDefinition';
import type { ServerLog } from '../connection/serverLog';
import { Emitter, type Disposable } from '../events';
import { undiciLibrary } from '../lazyLibraries';
import { endpointPath } from '../gateway/gatewayAddress';
import type { GatewayHost, GatewayOffers } from '../gateway/gatewayHost';
import { carriesBearer, McpGateway } from '../gateway/mcpGateway';
import { foreignSocket, privateShareFolder, shareSocketPath } from './shareFolder';
import { joinShare, ShareWatchers, STOP_PATH, WATCH_PATH, type JoinedShare, type ShareInfo } from './shareWatch';
import type { LineSocket } from '../connection/lineSocketTransport';

export interface MachineSharesOptions {
  /** The window's host, whose servers an owner serves (known once the host is built). */
  readonly host: () => GatewayHost;
  /** MCP Host's version, for mirrors of servers that do not say theirs. */
  readonly version: string;
  readonly log: ServerLog;
  /** Where this user's windows meet; {@link privateShareFolder} without it. */
  readonly folder?: () => string;
}

/** Tries to own or join one socket before giving up (a window closing, two windows racing). */
const MAX_ATTEMPTS = 6;

/** How long a window waits for the window running a process to answer a stop for all. */
const ANSWER_MS = 10_000;

/** Windows one shared process serves at most (each a session of its endpoint). */
const MAX_GUESTS = 64;

const ROOTS_NOTE =
  'not shared with windows of other folders: the server asks for roots, and they run their own process';

/**
 * Where this user's windows share servers (`"share": "machine"`): per server, a Unix socket in a
 * folder only this user may enter. The window that listens on it owns the process and serves the
 * others there (the gateway's Streamable HTTP endpoint, and a watch telling them who runs it); the
 * others connect to it. The socket is the lock: when the owner's window goes, the socket closes and
 * a window that used it takes over. A server that asks for roots is shared only between windows of
 * the same folders: the others meet on a second socket keyed by their roots too.
 */
export class MachineShares implements MachineShare, Disposable {
  private readonly owned = new Set<OwnedShare>();

  constructor(private readonly options: MachineSharesOptions) {}

  async claim(
    serverId: string,
    key: string,
    roots: readonly ResolvedRoot[],
    onStopForAll: () => void,
  ): Promise<ShareClaim> {
    const folder = (this.options.folder ?? privateShareFolder)();
    const owner = { ...this.options, serverId, roots, onStopForAll, released: (s: OwnedShare) => this.owned.delete(s) };
    const met = await this.meet(shareSocketPath(folder, key), folder, owner, true);
    if (met !== 'other-roots') return met;
    // Its server asks for roots, and the window running it has other folders: windows of this
    // window's folders meet apart.
    const byRoots = `${key}:${JSON.stringify(roots.map((r) => r.uri).sort())}`;
    return (await this.meet(
      shareSocketPath(folder, byRoots),
      folder,
      { ...owner, note: ROOTS_NOTE },
      false,
    )) as ShareClaim;
  }

  /**
   * Owns the socket, or joins the window that does. A socket left by a crashed window is removed
   * and tried again; a window that is closing may drop the connection: tried again after a moment
   * (two windows may race for a socket; the loser joins the winner).
   */
  private async meet(
    socketPath: string,
    folder: string,
    owner: OwnerOptions,
    rootsMayDiffer: boolean,
  ): Promise<ShareClaim | 'other-roots'> {
    let failure: Error | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      const owned = await OwnedShare.open(socketPath, folder, owner);
      if (owned) {
        this.owned.add(owned);
        return owned;
      }
      const foreign = foreignSocket(socketPath);
      if (foreign) {
        try {
          rmSync(socketPath, { force: true });
        } catch (error) {
          throw new Error(`${foreign}, and it cannot be removed (${(error as Error).message})`);
        }
        owner.log.warn(`Share: removed what was at a share socket's path: ${foreign}. It was not joined.`);
        continue;
      }
      let joined: JoinedShare | undefined;
      try {
        joined = await joinShare(socketPath, owner.roots);
      } catch (error) {
        failure = error as Error;
        continue;
      }
      if (!joined) {
        rmSync(socketPath, { force: true });
        continue;
      }
      if (rootsMayDiffer && joined.info.asksRoots && !sameRoots(joined.info.roots, owner.roots)) {
        joined.close();
        return 'other-roots';
      }
      return new GuestShare(joined, socketPath);
    }
    throw new Error(
      failure
        ? `the window that runs it did not let this one join (${failure.message})`
        : 'another window holds its socket but neither serves it nor lets it go',
    );
  }

  dispose(): void {
    for (const share of [...this.owned]) share.release();
  }
}

interface OwnerOptions extends MachineSharesOptions {
  readonly serverId: string;
  readonly roots: readonly ResolvedRoot[];
  readonly note?: string;
  onStopForAll(): void;
  released(share: OwnedShare): void;
}

/** This window runs the process and serves the others on the socket. */
class OwnedShare implements OwnerClaim {
  readonly role = 'owner';
  private readonly token = randomBytes(32).toString('base64url');
  private pid?: number;
  private asksRoots = false;
  private readonly watchers: ShareWatchers;
  private readonly gateway: McpGateway;
  private lines?: { readonly socketPath: string };
  private done = false;

  /** Listens on the socket: this window owns the process; undefined when another window does (or did). */
  static async open(socketPath: string, folder: string, options: OwnerOptions): Promise<OwnedShare | undefined> {
    const share = new OwnedShare(socketPath, folder, options);
    try {
      await share.gateway.open();
      // The same endpoint as lines on a second socket: a call costs a quarter of one over HTTP.
      share.lines = await share.gateway.relayEndpoint(options.serverId);
      return share;
    } catch (error) {
      share.watchers.dispose();
      share.gateway.dispose();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return undefined;
      throw error;
    }
  }

  private constructor(
    socketPath: string,
    folder: string,
    private readonly options: OwnerOptions,
  ) {
    const { serverId } = options;
    this.watchers = new ShareWatchers(() => ({
      path: endpointPath(serverId),
      token: this.token,
      roots: options.roots.map((r) => ({ uri: r.uri })),
      asksRoots: this.asksRoots,
      pid: this.pid,
      ...(this.lines ? { lines: { socketPath: this.lines.socketPath, server: serverId } } : {}),
    }));
    this.gateway = new McpGateway({
      host: options.host(),
      offers: everyToolOf(serverId),
      address: { kind: 'socket', folder, socketPath, sharedFolder: true },
      version: options.version,
      log: options.log,
      token: this.token,
      maxSessionsPerServer: MAX_GUESTS,
      clientsAreWindows: true,
      relaySocketPath: linesSocketPath(socketPath),
      otherRoutes: (req, res, pathname) => {
        if (req.method !== 'POST') return false;
        if (pathname === WATCH_PATH) {
          if (this.watchers.size >= MAX_GUESTS) res.writeHead(503).end('too many windows share this server');
          else void this.watchers.accept(req, res);
          return true;
        }
        if (pathname !== STOP_PATH) return false;
        if (!carriesBearer(req.headers.authorization, this.token)) res.writeHead(401).end();
        else {
          res.writeHead(204).end();
          options.onStopForAll();
        }
        return true;
      },
    });
  }

  get guests(): number {
    return this.watchers.size;
  }

  get note(): string | undefined {
    return this.options.note;
  }

  get onDidChange() {
    return this.watchers.onDidChange;
  }

  running(pid: number | undefined): void {
    this.pid = pid;
    this.watchers.announce();
  }

  askerFor(method: string, ownRequests: number): ServerRequestAnswer | undefined {
    const busy = this.gateway.mirrors(this.options.serverId).filter((mirror) => mirror.requestsUnderWay > 0);
    if (busy.length !== 1 || ownRequests > busy[0].requestsUnderWay) return undefined;
    return busy[0].askClient(method);
  }

  rootsAsked(): void {
    if (this.asksRoots) return;
    this.asksRoots = true;
    void this.watchers.end('asks-roots', (roots) => !sameRoots(roots, this.options.roots));
  }

  release(forAll = false): void {
    if (this.done) return;
    this.done = true;
    // The other windows must read why before the connections close (stopped for all, they stop too).
    const told = this.watchers.end(forAll ? 'stopped-for-all' : 'closed');
    this.watchers.dispose();
    this.gateway.dispose(told);
    this.options.released(this);
  }
}

/** Another window runs the process; this one reaches it over the socket. */
class GuestShare implements GuestClaim {
  readonly role = 'guest';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly lines?: LineSocket;
  readonly ended: Promise<ShareEnd>;
  private readonly agent: Agent;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  pid?: number;
  otherWindows: number;

  constructor(
    private readonly joined: JoinedShare,
    private readonly socketPath: string,
  ) {
    const { info } = joined;
    this.url = `http://localhost${info.path}`;
    this.headers = { Authorization: `Bearer ${info.token}` };
    this.lines = linesOf(info, socketPath);
    this.pid = info.pid;
    this.otherWindows = info.guests;
    this.ended = joined.ended;
    this.agent = new (undiciLibrary().Agent)({ connect: { socketPath } });
    joined.onDidChange(({ pid, guests }) => {
      this.pid = pid ?? this.pid;
      this.otherWindows = guests ?? this.otherWindows;
      this.changed.fire();
    });
  }

  readonly fetch: FetchLike = async (url, init) =>
    (await undiciLibrary().fetch(url, { ...(init as object), dispatcher: this.agent })) as unknown as Response;

  stopForAll(): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request({ socketPath: this.socketPath, path: STOP_PATH, method: 'POST', headers: this.headers });
      req.setTimeout(ANSWER_MS, () => req.destroy(new Error(`no answer within ${ANSWER_MS / 1000} s`)));
      req.once('error', reject);
      req.once('response', (res) => {
        res.resume();
        if (res.statusCode === 204) resolve();
        else reject(new Error(`the window that runs it refused to stop it (HTTP ${res.statusCode})`));
      });
      req.end();
    });
  }

  release(): void {
    this.joined.close();
    this.changed.dispose();
    void this.agent.destroy().catch(() => undefined);
  }
}

/** Where the owner of the share socket `socketPath` serves its endpoint as lines: beside it, in the same folder. */
function linesSocketPath(socketPath: string): string {
  return socketPath.replace(/\.sock$/, '.lines');
}

/**
 * The owner's endpoint as lines, when it offers it at the path this window expects, a socket of
 * this user's; undefined otherwise (the guest uses HTTP on the share socket).
 */
function linesOf(info: ShareInfo, socketPath: string): LineSocket | undefined {
  const lines = info.lines;
  if (typeof lines?.server !== 'string' || lines.socketPath !== linesSocketPath(socketPath)) return undefined;
  if (foreignSocket(lines.socketPath)) return undefined;
  return { socketPath: lines.socketPath, hello: JSON.stringify({ token: info.token, server: lines.server }) };
}

/** Offers for the other windows: the server, all its tools (each window applies its own switches). */
function everyToolOf(serverId: string): GatewayOffers {
  return {
    published: (id) => id === serverId,
    offered: () => true,
    onDidChange: () => ({ dispose: () => undefined }),
  };
}
