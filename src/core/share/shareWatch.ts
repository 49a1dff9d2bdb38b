import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ShareEnd } from '../connection/machineShare';
import { Emitter, type Event } from '../events';

/**
 * The watch: how a window that uses another window's process follows it. The guest POSTs its roots
 * to `/share/watch` on the owner's socket; the owner answers with one JSON line of what the guest
 * needs, then a line at each change, and a last line saying why it ended. A watch that closes with
 * no last line means the owner's window went.
 */
export const WATCH_PATH = '/share/watch';
/** Asks the owner to stop the process for every window (POST, with the endpoint's token). */
export const STOP_PATH = '/share/stop';

/** What a guest learns first. */
export interface ShareInfo {
  /** The MCP endpoint's path on the socket, and its bearer token. */
  readonly path: string;
  readonly token: string;
  /** The owner's roots, and whether its server asked for roots. */
  readonly roots: readonly { readonly uri: string }[];
  readonly asksRoots: boolean;
  readonly pid?: number;
  /** Guests now, this one included. */
  readonly guests: number;
  /**
   * The endpoint as newline-delimited JSON-RPC (the gateway's relay socket, in the same folder;
   * its first line names `server` and carries the token); an older MCP Host offers none.
   */
  readonly lines?: { readonly socketPath: string; readonly server: string };
}

interface WatchLine {
  readonly pid?: number;
  readonly guests?: number;
  readonly ended?: ShareEnd;
}

/** Longest line or request body accepted (a few hundred roots). */
const MAX_LINE = 64 * 1024;
/** How long a guest waits for the owner's first line before it runs the server itself. */
const FIRST_LINE_MS = 10_000;

type Roots = readonly { readonly uri: string }[];

/** The owner's side: the guests following it. */
export class ShareWatchers {
  private readonly watching = new Map<ServerResponse, Roots>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly info: () => Omit<ShareInfo, 'guests'>) {}

  get size(): number {
    return this.watching.size;
  }

  /** A guest joins. */
  async accept(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let roots: Roots;
    try {
      roots = parseRoots(await readBody(req));
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    this.watching.set(res, roots);
    res.once('close', () => this.watching.delete(res) && this.announce());
    send(res, { ...this.info(), guests: this.size });
    this.announce(res);
  }

  /** Tells every guest (but `except`) the process and how many use it. */
  announce(except?: ServerResponse): void {
    const { pid } = this.info();
    for (const res of this.watching.keys()) if (res !== except) send(res, { pid, guests: this.size });
    this.changed.fire();
  }

  /** Ends the watches of the guests `which` picks (all without it), saying why; settles once they are sent. */
  end(why: ShareEnd, which: (roots: Roots) => boolean = () => true): Promise<void> {
    const ended = [...this.watching].filter(([, roots]) => which(roots));
    const sent = ended.map(
      ([res]) =>
        new Promise<void>((resolve) => {
          this.watching.delete(res);
          res.once('close', resolve);
          res.end(`${JSON.stringify({ ended: why })}\n`, resolve);
        }),
    );
    if (ended.length) this.announce();
    return Promise.all(sent).then(() => undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The guest's side of a watch. */
export interface JoinedShare {
  readonly info: ShareInfo;
  /** Fires with each later line (the process, the guests). */
  readonly onDidChange: Event<{ readonly pid?: number; readonly guests?: number }>;
  readonly ended: Promise<ShareEnd>;
  close(): void;
}

/**
 * Joins the window listening on `socketPath`; undefined when nobody listens there (a socket left
 * by a window that crashed). Throws when the owner answers wrongly or not within 10 s.
 */
export function joinShare(socketPath: string, roots: Roots): Promise<JoinedShare | undefined> {
  return new Promise((resolve, reject) => {
    const changed = new Emitter<{ pid?: number; guests?: number }>();
    let settleEnd!: (why: ShareEnd) => void;
    const ended = new Promise<ShareEnd>((r) => (settleEnd = r));
    let joined = false;
    const req = request({
      socketPath,
      path: WATCH_PATH,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`the window that runs it did not answer within ${FIRST_LINE_MS / 1000} s`));
    }, FIRST_LINE_MS);
    req.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!joined && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(undefined);
      else if (!joined) reject(error);
      settleEnd('closed');
    });
    req.once('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        res.resume();
        reject(new Error(`the window that runs it refused to share it (HTTP ${res.statusCode})`));
        return;
      }
      readLines(res, (line: WatchLine & Partial<ShareInfo>) => {
        if (!joined) {
          joined = true;
          clearTimeout(timer);
          resolve({ info: line as ShareInfo, onDidChange: changed.event, ended, close: () => req.destroy() });
        } else if (line.ended) settleEnd(line.ended);
        else changed.fire({ pid: line.pid, guests: line.guests });
      });
      res.once('close', () => {
        settleEnd('closed');
        changed.dispose();
      });
    });
    req.end(JSON.stringify({ roots: roots.map((r) => ({ uri: r.uri })) }));
  });
}

function send(res: ServerResponse, line: object): void {
  if (!res.writableEnded) res.write(`${JSON.stringify(line)}\n`);
}

/** Calls `onLine` with each JSON line of `res`; a line too long or not JSON ends the stream. */
function readLines(res: IncomingMessage, onLine: (line: never) => void): void {
  let pending = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    pending += chunk;
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      try {
        onLine(JSON.parse(text) as never);
      } catch {
        res.destroy();
        return;
      }
    }
    if (pending.length > MAX_LINE) res.destroy();
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_LINE) throw new Error('the request is too large');
  }
  return body;
}

function parseRoots(body: string): Roots {
  const roots = (JSON.parse(body) as { roots?: unknown }).roots;
  if (!Array.isArray(roots) || !roots.every((r) => typeof (r as { uri?: unknown })?.uri === 'string'))
    throw new Error('expected {"roots": [{"uri": "…"}]}');
  return roots.map((r: { uri: string }) => ({ uri: r.uri }));
}
