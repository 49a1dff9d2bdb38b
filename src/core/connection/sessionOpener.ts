import {
  Client,
  SdkError,
  SdkErrorCode,
  type ClientOptions,
  type FetchLike,
  type OAuthClientProvider,
  type PriorDiscovery,
} from '@modelcontextprotocol/client';
import type { ResolvedServerDefinition, TransportKind } from '../config/serverDefinition';
import { needsAuthorization } from '../auth/authorizationFailure';
import type { EraPinStore } from './eraPins';
import type { ProcessLedger } from '../process/processLedger';
import { pinFor } from './eraPins';
import type { ExecutableResolver } from '../process/executableResolver';
import type { ServerLog } from './serverLog';
import type { StartCause } from '../process/spawnRecord';
import { createTransport, traceTraffic, type CreatedTransport, type TransportSandbox } from './transportFactory';
import type { LineSocket } from './lineSocketTransport';
import { describeSandboxPolicy } from '../process/sandboxPolicy';
import { spawnsProcess, TRANSPORTS } from '../config/transportKinds';
import { terminateChild } from './childProcessWatch';

export interface OpenedSession {
  readonly client: Client;
  readonly created: CreatedTransport;
}

export interface SessionOpenerDeps {
  readonly resolver: ExecutableResolver;
  readonly eraPins: EraPinStore;
  readonly log: ServerLog;
  /** How an HTTP server's requests are authorized (MCP authorization), if the host does that. */
  readonly authProvider?: OAuthClientProvider;
  /** Where started processes are recorded, for the cleanup after a crashed window. */
  readonly ledger?: ProcessLedger;
  /** Runs servers whose settings ask for it sandboxed. */
  readonly sandbox?: TransportSandbox;
  /** Reaches HTTP servers (proxy, certificates). */
  readonly fetch?: FetchLike;
  /** Who asked for the start under way, for the record of spawns. */
  readonly askedBy?: () => StartCause;
  /** The process another window runs, reached as lines on a socket. */
  readonly lines?: LineSocket;
  /** Builds a configured client (capabilities, handlers); called once per attempt. */
  createClient(options: ClientOptions): Client;
  /** Lets the caller hook the transport (stderr, pid) before it starts. */
  onTransport?(created: CreatedTransport): void;
  /** Sees every message from the server before the SDK does (what the SDK filters out, too). */
  onIncoming?(message: unknown): void;
}

const PROBE_TIMEOUT_CAP_MS = 10_000;

/**
 * One start's time: `startTimeoutMs` in all, whatever it holds (the era probe, the handshake after
 * it, a second try with another era or transport). Before, each step had its own timeout, and a
 * server that never answered failed after the probe's 10 s and the handshake's whole timeout.
 */
class StartBudget {
  private readonly endsAt: number;
  private spentError?: SdkError;

  constructor(readonly totalMs: number) {
    this.endsAt = Date.now() + totalMs;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /** The error of a start that ran out of time: a timeout, as the library's own would be. */
  spent(cause?: unknown): SdkError {
    this.spentError = new SdkError(
      SdkErrorCode.RequestTimeout,
      `The server did not finish the handshake within "startTimeoutMs" (${this.totalMs} ms), the era probe included.`,
      { timeout: this.totalMs },
      cause === undefined ? undefined : { cause },
    );
    return this.spentError;
  }

  /** Whether the start ran out of time: nothing is tried again, nothing learned is forgotten. */
  isSpent(error: unknown): boolean {
    return this.spentError !== undefined && error === this.spentError;
  }
}

/**
 * Connects to a server: with the era pinned for this definition when one is known (no probe),
 * else with `auto` negotiation. A failing pin is forgotten and the server probed again. A
 * Streamable HTTP endpoint that answers the first POST with 4xx is retried as HTTP+SSE
 * (2025-03-26 backwards compatibility).
 */
export async function openSession(
  def: ResolvedServerDefinition,
  hash: string,
  deps: SessionOpenerDeps,
  signal: AbortSignal,
): Promise<OpenedSession> {
  const budget = new StartBudget(def.startTimeoutMs);
  const pinned = deps.eraPins.get(hash);
  if (pinned) {
    deps.log.info(`This definition connected in the ${pinned.kind} era before.`);
    try {
      const session = await connectOnce(def, deps, def.transport, pinned, signal, budget);
      // A modern pin connects with zero round trips; one discover proves the server still speaks it.
      if (pinned.kind === 'modern') await verify(session, budget, signal);
      return session;
    } catch (error) {
      if (signal.aborted || needsAuthorization(error) || budget.isSpent(error)) throw error;
      deps.log.warn(
        `Connecting with the remembered ${pinned.kind} protocol era failed (${(error as Error).message}); probing again.`,
      );
      await deps.eraPins.delete(hash);
    }
  }
  let session: OpenedSession;
  try {
    session = await connectOnce(def, deps, def.transport, undefined, signal, budget);
  } catch (error) {
    if (budget.isSpent(error)) throw error;
    if (spawnsProcess(def.transport) && !signal.aborted && endedOnProbe(error)) {
      // Some 2025 servers exit on any request before `initialize`: start it again, legacy era.
      deps.log.info(
        'The server ended during the 2026-07-28 probe (some 2025 servers exit on it); starting it again for the 2025 initialize handshake.',
      );
      session = await connectOnce(def, deps, 'stdio', { kind: 'legacy' }, signal, budget);
      const pin = pinFor(session.client.getProtocolEra(), session.client.getDiscoverResult());
      if (pin) await deps.eraPins.set(hash, pin);
      return session;
    }
    if (needsAuthorization(error)) throw error;
    const status = httpStatusOf(error);
    // 401 and 403 ask for authorization: the legacy transport would only hide that.
    if (
      !TRANSPORTS[def.transport].fallsBackToSse ||
      status === undefined ||
      status < 400 ||
      status >= 500 ||
      status === 401 ||
      status === 403 ||
      signal.aborted
    )
      throw error;
    deps.log.info(`Streamable HTTP answered ${status}; trying the legacy HTTP+SSE transport.`);
    try {
      session = await connectOnce(def, deps, 'sse', undefined, signal, budget);
    } catch (sseError) {
      // What the user needs is why the endpoint refused Streamable HTTP, not the fallback's own failure.
      deps.log.info(`The legacy HTTP+SSE transport failed too: ${(sseError as Error).message}`);
      throw error;
    }
  }
  const pin = pinFor(session.client.getProtocolEra(), session.client.getDiscoverResult());
  if (pin) await deps.eraPins.set(hash, pin);
  return session;
}

async function connectOnce(
  def: ResolvedServerDefinition,
  deps: SessionOpenerDeps,
  kind: TransportKind,
  prior: PriorDiscovery | undefined,
  signal: AbortSignal,
  budget: StartBudget,
): Promise<OpenedSession> {
  if (budget.remainingMs() === 0) throw budget.spent();
  // Finding the program (the login shell's PATH) and preparing a sandbox count in the start's time.
  const created = await createTransport(def, deps.resolver, kind, deps);
  const remainingMs = budget.remainingMs();
  if (remainingMs === 0) {
    await created.transport.close().catch(() => undefined);
    throw budget.spent();
  }
  const client = deps.createClient({
    versionNegotiation: {
      mode: 'auto',
      probe: { timeoutMs: probeTimeoutMs(kind, remainingMs) },
    },
  });
  if (created.sandbox) deps.log.info(`Sandboxed: ${describeSandboxPolicy(created.sandbox)}.`);
  traceTraffic(created.transport, deps.log, deps.onIncoming);
  deps.onTransport?.(created);
  deps.log.info(
    prior
      ? `Protocol: the ${prior.kind} era, without a probe.`
      : `Protocol: negotiating the era over ${deps.lines ? 'the socket of the window that runs it' : TRANSPORTS[kind].label} (2026-07-28 server/discover, else the 2025 initialize handshake).`,
  );
  // The library's era probe does not follow the signal: a stop during it closes the transport,
  // which ends the probe at once (it would otherwise wait out its timeout). So does the end of the
  // start's time, which the library's own timeouts (probe, then handshake) could overrun.
  const closeTransport = () => void created.transport.close().catch(() => undefined);
  signal.addEventListener('abort', closeTransport, { once: true });
  let outOfTime = false;
  const deadline = setTimeout(() => {
    outOfTime = true;
    closeTransport();
    // Closed, a stdio server gets seconds to exit on its own; one that never answered has no
    // session to end, so it is ended at once and the start's failure shows when its time is up.
    if (created.child) void terminateChild(created.child);
  }, remainingMs);
  try {
    signal.throwIfAborted();
    await client.connect(created.transport, { prior, timeout: remainingMs, signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw outOfTime && !signal.aborted ? budget.spent(error) : error;
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', closeTransport);
  }
  return { client, created };
}

/**
 * How long the era probe may wait: at most 10 s. Over stdio a probe that gets no answer means a
 * 2025 server, which then needs time for its handshake, so it takes at most half of what is left.
 */
function probeTimeoutMs(kind: TransportKind, remainingMs: number): number {
  const share = spawnsProcess(kind) ? Math.ceil(remainingMs / 2) : remainingMs;
  return Math.min(share, PROBE_TIMEOUT_CAP_MS);
}

async function verify(session: OpenedSession, budget: StartBudget, signal: AbortSignal): Promise<void> {
  try {
    const timeout = Math.min(budget.remainingMs(), PROBE_TIMEOUT_CAP_MS);
    if (timeout === 0) throw budget.spent();
    await session.client.discover({ timeout, signal });
  } catch (error) {
    await session.client.close().catch(() => undefined);
    throw error;
  }
}

/** The connection closed during the era probe (the process exited on it), not any other failure. */
function endedOnProbe(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (
      e.code === SdkErrorCode.ConnectionClosed ||
      (typeof e.message === 'string' && /connection closed/i.test(e.message))
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

function httpStatusOf(error: unknown): number | undefined {
  for (
    let e = error as { status?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.status === 'number') return e.status;
    const match =
      typeof e.message === 'string'
        ? /\bHTTP (\d{3})\b|\bstatus(?: code)?:? (\d{3})\b|\((\d{3})\)/i.exec(e.message)
        : null;
    if (match) return Number(match[1] ?? match[2] ?? match[3]);
    e = e.cause as typeof e;
  }
  return undefined;
}
