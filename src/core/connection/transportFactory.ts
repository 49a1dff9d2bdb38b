import { SSEClientTransport, StreamableHTTPClientTransport, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { promises as fs } from 'node:fs';
import type { ResolvedServerDefinition, TransportKind } from '../config/serverDefinition';
import type { ExecutableResolver } from './executableResolver';
import type { ServerLog } from './serverLog';
import { inOwnProcessGroup, watchChildProcess, type ChildProcessRecord } from './childProcessWatch';
import { LinearReadBuffer } from './linearReadBuffer';
import type { ProcessLedger } from './processLedger';

/** Large resources arrive as one base64 line; the SDK's 10 MB default would drop the connection. */
export const STDIO_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface CreatedTransport {
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** The stdio child, when there is one. */
  readonly stdio?: StdioClientTransport;
  /** The stdio child's pid and, once it ended, how: kept after the transport forgets its process. */
  readonly child?: ChildProcessRecord;
}

/**
 * The client library's stdio transport, as a subclass: on its exact class the library probes the
 * era on a second, short-lived copy of the server (same command, same environment and secrets,
 * a process the host never sees); on a subclass it probes on the server's own process. One
 * process per start; a server that ends on the probe is started again for the 2025 handshake
 * (see `openSession`).
 */
class OwnedStdioTransport extends StdioClientTransport {
  constructor(params: ConstructorParameters<typeof StdioClientTransport>[0] & { maxBufferSize: number }) {
    super(params);
    // The library's line buffer is quadratic in the message size; ours is linear (same contract).
    const self = this as unknown as { _readBuffer?: unknown };
    if ('_readBuffer' in self) self._readBuffer = new LinearReadBuffer(params.maxBufferSize);
  }

  /** Whether the linear line buffer is in place (a library update could rename the field). */
  get readsLinearly(): boolean {
    return (this as unknown as { _readBuffer?: unknown })._readBuffer instanceof LinearReadBuffer;
  }
}

/** Builds the SDK transport a definition asks for. `kind` overrides the definition (SSE fallback). */
export async function createTransport(
  def: ResolvedServerDefinition,
  resolver: ExecutableResolver,
  kind: TransportKind = def.transport,
  extras: { readonly authProvider?: OAuthClientProvider; readonly ledger?: ProcessLedger } = {},
): Promise<CreatedTransport> {
  const { authProvider, ledger } = extras;
  if (kind === 'stdio') {
    if (def.cwd !== undefined && !(await isDirectory(def.cwd))) {
      throw new Error(`the working directory "${def.cwd}" does not exist; set "cwd" to an existing folder`);
    }
    const searchPath = await resolver.searchPath();
    const command = await resolver.resolve(def.command ?? '', def.cwd, searchPath);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    env.PATH = searchPath;
    for (const [name, value] of Object.entries(def.env)) {
      if (value === null) delete env[name];
      else env[name] = value;
    }
    const launch = inOwnProcessGroup(command, def.args);
    const stdio = new OwnedStdioTransport({ command: launch.command, args: launch.args, env, cwd: def.cwd, stderr: 'pipe', maxBufferSize: STDIO_MAX_MESSAGE_BYTES });
    const recorded = ledger && { add: (pid: number) => ledger.add(pid, def.id), remove: (pid: number) => ledger.remove(pid) };
    return { transport: stdio, kind, stdio, child: watchChildProcess(stdio, launch.ownGroup, recorded) };
  }
  const url = new URL(def.url ?? '');
  const requestInit: RequestInit = { headers: { ...def.headers } };
  if (kind === 'sse') return { transport: new SSEClientTransport(url, { requestInit, authProvider }), kind };
  return { transport: new StreamableHTTPClientTransport(url, { requestInit, authProvider }), kind };
}

/**
 * Mirrors JSON-RPC traffic into the log at trace level. Patches the instance rather than wrapping
 * it, so the SDK still sees its own StdioClientTransport (it only probes on that exact class).
 */
export function traceTraffic(transport: Transport, log: ServerLog, onIncoming?: (message: unknown) => void): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (log.level === 'trace') log.trace(`→ ${JSON.stringify(message)}`);
    return send(message, options);
  };
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler =
        next &&
        ((message, extra) => {
          if (log.level === 'trace') log.trace(`← ${JSON.stringify(message)}`);
          onIncoming?.(message);
          next(message, extra);
        });
    },
  });
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
