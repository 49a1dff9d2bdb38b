// Requests to a running server's session, with its time limits: every failure comes back as an
// error that names the server and says why, its secrets as placeholders; a refusal for want of
// authorization ends the session with a state that says what to do.
import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { signInReasonMidSession } from '../auth/authorizationFailure';
import type { ResolvedServerDefinition } from '../config/serverDefinition';
import { clientLibrary } from '../lazyLibraries';
import { shownText } from '../shownText';
import { HostWaits } from './hostWaits';
import type { ServerConnectionDeps } from './serverConnectionDeps';
import { describeRequestError, McpRequestError, type RequestTimeLimit, ServerUnavailableError } from './serverErrors';
import { mcpLevelFor } from './serverLog';
import type { EndedStatus, ServerStatus } from './serverSnapshot';
import type { OpenedSession } from './sessionOpener';
import { credentialsRefusal, credentialsRefusalCause, givenHeaders } from './startFailure';

/** What the requests need of their connection. */
export interface RequestsPort {
  readonly definition: ResolvedServerDefinition;
  /** The command line or URL as shown to the user. */
  readonly target: string;
  readonly deps: Pick<ServerConnectionDeps, 'log' | 'authorization' | 'secrets'>;
  /** The session, while there is one. */
  session(): OpenedSession | undefined;
  status(): ServerStatus;
  reason(): string | undefined;
  /** Ends the session in this state (the server refused the host mid-session). */
  stop(reason: string, status: Exclude<EndedStatus, 'stopped'>, cause?: string): Promise<void>;
}

export class SessionRequests {
  /** Whether the server waits for the host (its sampling request is with the user or a model). */
  readonly hostWaits = new HostWaits();
  private sent = 0;

  constructor(private readonly port: RequestsPort) {}

  /** Requests sent and not answered yet (a shared server's requests route by them). */
  get underWay(): number {
    return this.sent;
  }

  /**
   * Runs a request against the live session with this server's timeouts. Every failure comes back
   * as an error naming the server; a server that dies mid-request fails the request at once.
   * `callerTimesOut`: the caller is another window, which keeps its own idle timeout and cancels;
   * here only the total cap bounds the request (one timeout, the caller's).
   */
  async run<T>(
    label: string,
    run: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
    onProgress?: RequestOptions['onprogress'],
    callerTimesOut = false,
  ): Promise<T> {
    const session = this.requireRunning();
    const { id, maxTotalTimeoutMs } = this.port.definition;
    this.sent++;
    // The idle timeout is ours (it stands still while the server waits for the host); the SDK
    // keeps the total cap. (The limits are named only when one is met: this runs for every call.)
    const idle = this.hostWaits.deadline(
      callerTimesOut ? maxTotalTimeoutMs : this.port.definition.requestTimeoutMs,
      signal,
    );
    try {
      return await run(session.client, idle.requestOptions(maxTotalTimeoutMs, onProgress));
    } catch (error) {
      if (idle.signal.aborted && !signal?.aborted) {
        const { SdkError, SdkErrorCode } = clientLibrary();
        throw describeRequestError(
          id,
          label,
          new SdkError(SdkErrorCode.RequestTimeout, 'idle timeout'),
          callerTimesOut
            ? this.totalLimit()
            : { ms: this.port.definition.requestTimeoutMs, setting: 'requestTimeoutMs' },
        );
      }
      const refused = await this.refusedMidSession(error);
      if (refused)
        throw new McpRequestError(id, `MCP server "${id}"${refused.signIn ? ' ' : ': '}${refused.reason}.`, undefined, {
          cause: error,
        });
      const stopping = this.port.status() === 'stopping' ? this.port.reason() : undefined;
      throw this.redacted(
        describeRequestError(id, label, error, this.totalLimit(), signal?.aborted === true, stopping),
      );
    } finally {
      this.sent--;
      idle.dispose();
    }
  }

  /** The total cap, the only limit the client library holds. */
  private totalLimit(): RequestTimeLimit {
    return { ms: this.port.definition.maxTotalTimeoutMs, setting: 'maxTotalTimeoutMs' };
  }

  /**
   * A request refused for want of authorization ends the session with a state that says what to
   * do: sign in (MCP authorization), or fix the credentials in `headers` (nothing signs in for
   * those). Returns that reason; undefined for any other failure.
   */
  async refusedMidSession(error: unknown): Promise<{ reason: string; signIn: boolean } | undefined> {
    const { log, authorization } = this.port.deps;
    const why = authorization && signInReasonMidSession(error, authorization, this.port.target);
    const headers = givenHeaders(this.port.definition);
    const refusal = why ? undefined : credentialsRefusal(error, this.port.target, headers);
    if (!why && !refusal) return undefined;
    if (this.port.status() === 'running') {
      log[why ? 'warn' : 'error'](
        why ? `The server asks for authorization: ${why}.` : `The server refused its credentials: ${refusal}.`,
      );
      await this.port.stop(
        (why ?? refusal)!,
        why ? 'needs-sign-in' : 'error',
        refusal && credentialsRefusalCause(error, headers),
      );
    }
    return { reason: (why ?? refusal)!, signIn: why !== undefined };
  }

  /** The live session, or an error that names the server and why it cannot answer. */
  requireRunning(): OpenedSession {
    const session = this.port.session();
    const status = this.port.status();
    if (!session || status !== 'running')
      throw new ServerUnavailableError(this.port.definition.id, status, this.port.reason());
    return session;
  }

  /** `_meta` for outgoing requests: the 2026-07-28 era carries the log level per request. */
  meta(): Record<string, unknown> | undefined {
    const level = this.port.deps.log.level;
    if (this.port.session()?.client.getProtocolEra() !== 'modern' || level === 'off') return undefined;
    return { [clientLibrary().LOG_LEVEL_META_KEY]: mcpLevelFor(level) };
  }

  /** An error as the user sees it: a secret it echoes (a URL in an HTTP body) as its placeholder, a page of text cut short. */
  redacted(error: McpRequestError): McpRequestError {
    const message = shownText(error.message, this.port.deps.secrets ?? []);
    return message === error.message
      ? error
      : new McpRequestError(error.serverId, message, error.code, { cause: error.cause });
  }
}
