import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { ServerDefinition, ResolvedServerDefinition } from '../../../src/core/config/serverDefinition';
import { DEFAULT_RESTART, DEFAULT_SAMPLING_POLICY, NO_TOOL_POLICY } from '../../../src/core/config/serverDefinition';
import type { HostLogLevel, ServerLog } from '../../../src/core/connection/serverLog';
import { tempDir } from '../../support/tempDir';

export const FIXTURES = path.resolve(__dirname, '../../fixtures/servers');
export const REPO = path.resolve(__dirname, '../../../..');
export const EVERYTHING = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export function fixture(name: 'legacyStdio' | 'modernStdio' | 'silentStdio' | 'httpServer' | 'oauthServer'): string {
  return path.join(FIXTURES, `${name}.js`);
}

const BASE = {
  scope: 'user',
  args: [],
  env: {},
  headers: {},
  apps: false,
  publish: true,
  share: 'window',
  enabled: true,
  autoStart: 'startup',
  requestTimeoutMs: 10_000,
  startTimeoutMs: 30_000,
  maxTotalTimeoutMs: 60_000,
  restart: { ...DEFAULT_RESTART, initialDelayMs: 100, maxDelayMs: 400 },
  toolPolicy: NO_TOOL_POLICY,
  samplingPolicy: DEFAULT_SAMPLING_POLICY,
  elicitationsPerMinute: 30,
} as const;

/** A stdio definition running one of our fixtures with node. */
export function stdioDefinition(
  id: string,
  script: string,
  extra: Partial<ServerDefinition> & { args?: string[] } = {},
): ResolvedServerDefinition {
  return {
    ...BASE,
    id,
    transport: 'stdio',
    command: process.execPath,
    ...extra,
    args: [script, ...(extra.args ?? [])],
    roots: undefined,
  } as ResolvedServerDefinition;
}

/** A file our fixture servers append a line to each time they are spawned (`FIXTURE_SPAWN_LOG`), and how many lines it has. */
export function spawnLog(): { readonly file: string; count(): number } {
  const file = path.join(tempDir('mcp-spawns-'), 'spawns');
  writeFileSync(file, '');
  return { file, count: () => readFileSync(file, 'utf8').split('\n').filter(Boolean).length };
}

export function httpDefinition(id: string, url: string, transport: 'http' | 'sse' = 'http'): ResolvedServerDefinition {
  return { ...BASE, id, transport, url };
}

/** A log that keeps its lines, so tests can assert on what the user would read. */
export class RecordingLog implements ServerLog {
  readonly lines: string[] = [];
  private listeners = new Set<(level: HostLogLevel) => void>();
  constructor(public level: HostLogLevel = 'info') {}
  setLevel(level: HostLogLevel): void {
    this.level = level;
    for (const l of this.listeners) l(level);
  }
  onDidChangeLevel(listener: (level: HostLogLevel) => void) {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }
  trace(m: string) {
    this.lines.push(`trace ${m}`);
  }
  debug(m: string) {
    this.lines.push(`debug ${m}`);
  }
  info(m: string) {
    this.lines.push(`info ${m}`);
  }
  warn(m: string) {
    this.lines.push(`warn ${m}`);
  }
  error(m: string) {
    this.lines.push(`error ${m}`);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts our HTTP fixture on a free loopback port. */
export function startHttpFixture(args: string[] = []): Promise<RunningProcess> {
  return startListening(process.execPath, [fixture('httpServer'), ...args], {}, /^listening (\d+)/);
}

/**
 * server-everything's legacy HTTP+SSE transport (a third-party 2024-11-05 style server).
 * It listens on a port it is given and says "running" even when the bind failed (Express 5 calls
 * the listen callback with the error), so we take a port the system reports free and only return
 * once the port accepts connections — trying another port when another socket took it meanwhile.
 */
export async function startEverythingSse(): Promise<RunningProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const running = await startListening(
      process.execPath,
      [EVERYTHING, 'sse'],
      { PORT: String(port) },
      /running on port (\d+)/i,
    );
    try {
      await waitFor(`server-everything listening on ${port}`, () => accepts(port), 3_000);
      return running;
    } catch (error) {
      lastError = error;
      await running.stop();
    }
  }
  throw lastError;
}

/** A port nothing listens on (the system's choice, released again): free for a server, refused for a client. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A free port below the system's ephemeral range, for a listener that closes and listens again on
 * the same port (the editor's control channel across window reloads): a port of that range may be
 * taken meanwhile as the local port of any outgoing connection, and then listening fails with
 * EADDRINUSE for as long as that connection lives.
 */
export async function portOutsideEphemeralRange(): Promise<number> {
  const [low] = ephemeralRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between 10000 and ${low}`);
}

/**
 * A port for a client to find refused: outside the ephemeral range, so no server of the same run
 * listening on port 0 (nor an outgoing connection) takes it between the choice and the connect.
 */
export const refusedPort = portOutsideEphemeralRange;

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > 11_000 && high >= low) return [low, high];
  } catch {
    // not Linux: the IANA range
  }
  return [49_152, 65_535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function startListening(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  onReady?: (match: RegExpExecArray) => void,
): Promise<RunningProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), 20_000);
    const onLine = (line: string) => {
      const match = ready.exec(line);
      if (!match) return;
      clearTimeout(timer);
      onReady?.(match);
      resolve({
        child,
        port: Number(match[1]),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    readline.createInterface({ input: child.stdout! }).on('line', onLine);
    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      if (process.env.MCPHOST_FIXTURE_STDERR) process.stderr.write(`[fixture] ${line}\n`);
      onLine(line);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
