import { withInspector } from './devInspector';
import {
  SdkError,
  SdkErrorCode,
  serializeMessage,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { promises as fs } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { RUN_MARKER_ENV } from '../process/processTree';
import {
  DEFAULT_LIMITS,
  limitsOf,
  type ResolvedServerDefinition,
  type TransportKind,
} from '../config/serverDefinition';
import type { ExecutableResolver } from '../process/executableResolver';
import type { ServerLog } from './serverLog';
import { inOwnProcessGroup, watchChildProcess, type ChildProcessRecord } from './childProcessWatch';
import { LinearReadBuffer } from './linearReadBuffer';
import { isDeliveringTransport, LineWriter, SlicedLineReader } from './lineStreams';
import { LineSocketTransport, type LineSocket } from './lineSocketTransport';
import { stdioInternals } from './stdioLibrarySeam';
import { ResultTypeDefault } from './resultTypeDefault';
import { TaskResultLift } from '../tasks/taskResults';
import type { ProcessLedger } from '../process/processLedger';
import type { StartCause } from '../process/spawnRecord';
import type { Launch, ProcessSandbox, SandboxedLaunch } from '../process/processSandbox';
import { sandboxPolicy, type SandboxPolicy } from '../process/sandboxPolicy';

/** Large resources arrive as one base64 line; the SDK's 10 MB default would drop the connection. */
export const STDIO_MAX_MESSAGE_BYTES = DEFAULT_LIMITS.maxMessageMB * 1024 * 1024;

export interface CreatedTransport {
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** The stdio child, when there is one. */
  readonly stdio?: StdioClientTransport;
  /** The stdio child's pid and, once it ended, how: kept after the transport forgets its process. */
  readonly child?: ChildProcessRecord;
  /** What the sandbox lets a sandboxed stdio server do. */
  readonly sandbox?: SandboxPolicy;
}

/** The host's sandbox, and the folders (roots) a sandboxed server may write by default. */
export interface TransportSandbox {
  readonly runtime: ProcessSandbox;
  rootPaths(): readonly string[];
}

export interface TransportExtras {
  readonly authProvider?: OAuthClientProvider;
  readonly ledger?: ProcessLedger;
  readonly sandbox?: TransportSandbox;
  /** How HTTP servers are reached (proxy, certificates); the global fetch without it. */
  readonly fetch?: FetchLike;
  /** Who asked for the start under way, for the record of spawns. */
  readonly askedBy?: () => StartCause;
  /** The process another window runs, reached as lines on a socket (instead of the definition's URL). */
  readonly lines?: LineSocket;
}

/**
 * The client library's stdio transport, as a subclass: on its exact class the library probes the
 * era on a second, short-lived copy of the server (same command, same environment and secrets,
 * a process the host never sees); on a subclass it probes on the server's own process. One
 * process per start; a server that ends on the probe is started again for the 2025 handshake
 * (see `openSession`).
 */
export class OwnedStdioTransport extends StdioClientTransport {
  constructor(params: ConstructorParameters<typeof StdioClientTransport>[0] & { maxBufferSize: number }) {
    super(params);
    // The library's line buffer is quadratic in the message size; ours is linear (same contract).
    const internals = stdioInternals(this);
    if ('_readBuffer' in internals) internals._readBuffer = new LinearReadBuffer(params.maxBufferSize);
    internals.processReadBuffer = () => this.reader.read();
  }

  /**
   * Starts the process, then lets go of the environment it was given: the library reads it only
   * to spawn, and each server's copy of the editor's whole environment would be kept as long as
   * the server runs.
   */
  override async start(): Promise<void> {
    // Started again, it would spawn the server without its variables: each start makes a transport.
    if (this.spawned)
      throw new Error('this stdio transport has started its server once; a new start needs a new transport');
    await super.start();
    this.spawned = true;
    const internals = stdioInternals(this);
    if (internals._serverParams) internals._serverParams = { ...internals._serverParams, env: undefined };
  }

  private spawned = false;

  /** Hands a message read to `onmessage` (replaced by what watches the traffic: lineStreams.ts). */
  deliver = (message: JSONRPCMessage): void => this.onmessage?.(message);

  /** Reads as the library does, but lets the event loop run between slices (lineStreams.ts). */
  private readonly reader = new SlicedLineReader(
    () => stdioInternals(this)._readBuffer,
    (message) => this.deliver(message),
    (error) => this.onerror?.(error),
  );
  private readonly writer = new LineWriter();

  /** As the library sends, but every send that finds the pipe full waits on one shared `drain` (lineStreams.ts). */
  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = stdioInternals(this)._process?.stdin;
    if (!stdin) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    return this.writer.write(stdin, serializeMessage(message));
  }

  /** Whether the linear line buffer is in place (a library update could rename the field). */
  get readsLinearly(): boolean {
    return stdioInternals(this)._readBuffer instanceof LinearReadBuffer;
  }
}

/** Builds the SDK transport a definition asks for. `kind` overrides the definition (SSE fallback). */
export async function createTransport(
  def: ResolvedServerDefinition,
  resolver: ExecutableResolver,
  kind: TransportKind = def.transport,
  extras: TransportExtras = {},
): Promise<CreatedTransport> {
  const { authProvider, ledger, fetch } = extras;
  if (extras.lines)
    return { transport: new LineSocketTransport(extras.lines, limitsOf(def).maxMessageMB * 1024 * 1024), kind };
  if (kind === 'stdio') {
    const cwdProblem = def.cwd === undefined ? undefined : await folderProblem(def.cwd);
    if (cwdProblem)
      throw new Error(`the working directory "${def.cwd}" ${cwdProblem}; set "cwd" to an existing folder`);
    const searchPath = await resolver.searchPath();
    const command = await resolver.resolve(def.command ?? '', def.cwd, searchPath);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    env.PATH = searchPath;
    for (const [name, value] of Object.entries(def.env)) {
      if (value === null) delete env[name];
      else env[name] = value;
    }
    const runMarker = randomBytes(12).toString('hex');
    env[RUN_MARKER_ENV] = runMarker;
    // Dev mode's debugging: Node starts with its inspector on loopback, for the editor to attach.
    let launch: Launch = {
      command,
      args: def.dev?.debug ? withInspector(command, def.args) : def.args,
      env,
      cwd: def.cwd,
    };
    let policy: SandboxPolicy | undefined;
    if (def.sandbox) {
      if (!extras.sandbox)
        throw new Error(
          '"sandbox" is set, but this host cannot sandbox servers; remove it to run the server unsandboxed',
        );
      policy = sandboxPolicy(def.sandbox, extras.sandbox.rootPaths(), def.cwd);
      launch = await extras.sandbox.runtime.wrap(launch, policy);
    }
    const group = inOwnProcessGroup(launch.command, launch.args);
    const stdio = new OwnedStdioTransport({
      command: group.command,
      args: group.args,
      env: { ...launch.env },
      cwd: def.cwd,
      stderr: 'pipe',
      maxBufferSize: limitsOf(def).maxMessageMB * 1024 * 1024,
    });
    const recorded = ledger && {
      add: (pid: number) => ledger.add(pid, def.id),
      remove: (pid: number) => ledger.remove(pid),
      spawned: (pid: number) =>
        ledger.spawned({
          pid,
          server: def.id,
          command,
          args: { count: def.args.length, sha256: createHash('sha256').update(JSON.stringify(def.args)).digest('hex') },
          cwd: def.cwd,
          sandboxed: policy !== undefined,
          askedBy: extras.askedBy?.() ?? 'this window',
        }),
      ended: (pid: number, how: string) => ledger.ended({ pid, server: def.id, ended: how }),
    };
    const child = watchChildProcess(stdio, group.ownGroup, recorded, runMarker);
    if ('release' in launch) void child.exited.then((launch as SandboxedLaunch).release);
    return { transport: stdio, kind, stdio, child, sandbox: policy };
  }
  const url = new URL(def.url ?? '');
  const requestInit: RequestInit = { headers: { ...def.headers } };
  if (kind === 'sse') return { transport: new SSEClientTransport(url, { requestInit, authProvider, fetch }), kind };
  return { transport: new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch }), kind };
}

/**
 * Mirrors JSON-RPC traffic into the log at trace level, lifts task handles answering
 * tools/call (see taskResults.ts), and reads a 2026-07-28 result without `resultType` as
 * complete (resultTypeDefault.ts). Patches the instance rather than wrapping
 * it, so the SDK still sees its own StdioClientTransport (it only probes on that exact class).
 */
export function traceTraffic(transport: Transport, log: ServerLog, onIncoming?: (message: unknown) => void): void {
  const send = transport.send.bind(transport);
  const tasks = new TaskResultLift();
  const resultTypes = new ResultTypeDefault((message) => log.warn(message));
  transport.send = (message, options) => {
    tasks.sent(message);
    resultTypes.sent(message);
    if (log.level === 'trace') log.trace(`→ ${JSON.stringify(message)}`);
    return send(message, options);
  };
  const receive = (next: NonNullable<Transport['onmessage']>, message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if (log.level === 'trace') log.trace(`← ${JSON.stringify(message)}`);
    onIncoming?.(message);
    next(tasks.received(resultTypes.received(message)), extra);
  };
  if (isDeliveringTransport(transport)) {
    transport.deliver = (message) => transport.onmessage && receive(transport.onmessage, message);
    return;
  }
  // The library's own transports (HTTP): `onmessage` becomes an accessor that wraps what is set.
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = next && ((message, extra) => receive(next, message, extra));
    },
  });
}

/** Why a folder cannot be a process's working directory, or undefined when it can. */
async function folderProblem(dir: string): Promise<string | undefined> {
  try {
    return (await fs.stat(dir)).isDirectory() ? undefined : 'is a file, not a folder';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'cannot be reached (permission denied)' : 'does not exist';
  }
}
