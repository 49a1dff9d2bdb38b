import { clientLibrary } from '../lazyLibraries';
import { programName, type ResolvedServerDefinition, type TransportKind } from '../config/serverDefinition';
import { spawnsProcess } from '../config/transportKinds';
import { CommandNotFoundError } from '../process/executableResolver';
import { lastOutput, outputCause } from './outputCause';
import { safeUrl } from './safeUrl';

/** How a stdio server's process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** What was tried when a start failed, to say what happened in the user's terms. */
export interface StartFailureContext {
  readonly kind: TransportKind;
  readonly url?: string;
  readonly exit?: ProcessExit;
  /** The server's last stderr lines, oldest first. */
  readonly stderrTail: readonly string[];
  readonly startTimeoutMs: number;
  /** The headers the settings give (never their values). */
  readonly headers?: GivenHeaders;
  /** A stdio server's command line as the settings give it, to tell a package runner's first download. */
  readonly command?: { readonly command: string; readonly args: readonly string[] };
}

/** The settings' `headers` as a reason may name them: never their values. */
export interface GivenHeaders {
  readonly names: readonly string[];
  /** Those whose value as written holds a `$NAME` that was not expanded. */
  readonly unexpanded?: readonly string[];
}

/** What a definition's `headers` let a reason say. */
export function givenHeaders(definition: Pick<ResolvedServerDefinition, 'headers' | 'unexpanded'>): GivenHeaders {
  const unexpanded = (definition.unexpanded ?? []).flatMap((field) =>
    field.startsWith('headers.') ? [field.slice('headers.'.length)] : [],
  );
  return { names: Object.keys(definition.headers), unexpanded };
}

/** What the server's log says at start of fields whose `$NAME` was not expanded; undefined when there are none. */
export function unexpandedWarning(definition: Pick<ResolvedServerDefinition, 'unexpanded'>): string | undefined {
  const fields = definition.unexpanded ?? [];
  return fields.length === 0 ? undefined : `${notExpanded(fields)}.`;
}

/** Says that these fields (or headers) hold a `$NAME` that stays as written, and how to read a variable. */
function notExpanded(names: readonly string[]): string {
  return `${quotedList(names)} ${names.length > 1 ? 'hold' : 'holds'} a $NAME as written, which MCP Host does not expand: to read an environment variable, write \${env:NAME}`;
}

interface ErrorNode {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
  readonly status?: unknown;
  readonly hostname?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
  readonly data?: { readonly statusText?: unknown };
}

/**
 * A start failure as the user should read it: the exit code or signal with the last stderr
 * lines, the network cause with host and port, or the HTTP status with what it means. Never a
 * bare "fetch failed" or "Connection closed".
 */
export function describeStartFailure(error: unknown, ctx: StartFailureContext): string {
  const chain = causeChain(error);
  if (ctx.exit) {
    const container = containerWithoutInput(ctx.command);
    const hint = container
      ? `; \`${container}\` without "-i" gives the server no input, so it ends at once: add "-i" to "args" before the image`
      : '';
    return `${describeExit(ctx.exit)}${lastOutput(ctx.stderrTail)}${hint}`;
  }
  const reason =
    networkReason(chain, ctx) ?? httpReason(chain, ctx) ?? timeoutReason(chain, ctx) ?? otherReason(error, chain, ctx);
  return spawnsProcess(ctx.kind) ? `${reason}${lastOutput(ctx.stderrTail, reason)}` : reason;
}

export function describeExit(exit: ProcessExit): string {
  if (exit.signal) return `the process was killed by ${exit.signal}`;
  return `the process exited with code ${exit.code ?? 'unknown'}`;
}

/**
 * Why a running server's session ended by itself: it stopped answering (`hung`, or its pipe
 * stalled), its process ended, or it just closed; with the cause from its last output.
 */
export function describeEnd(
  hung: string | undefined,
  child: ChildEnd | undefined,
  stderrTail: readonly string[],
): string {
  const stalled = hung ?? child?.ended;
  const why = stalled
    ? `the server stopped answering: ${stalled}`
    : child?.exit
      ? describeExit(child.exit)
      : 'the server stopped unexpectedly';
  return `${why}${lastOutput(stderrTail)}`;
}

/** What a process that ended left to say about it. */
interface ChildEnd {
  readonly exit?: ProcessExit;
  readonly ended?: string;
}

/**
 * A failed start's cause in a few words for its row: the line of its output that says why, a
 * whole command line written in "command" (the reason says how to split it), or what an HTTP
 * server's status means (where the reason names its URL first).
 */
export function startFailureCause(error: unknown, ctx: StartFailureContext): string | undefined {
  if (error instanceof CommandNotFoundError) return error.inFewWords;
  const chain = causeChain(error);
  if (spawnsProcess(ctx.kind)) {
    const container = ctx.exit && containerWithoutInput(ctx.command);
    return (
      outputCause(ctx.stderrTail) ??
      (container ? `${container} needs "-i" in "args"` : undefined) ??
      timeoutCause(chain, ctx)
    );
  }
  return networkReason(chain, ctx) === undefined
    ? (httpCause(chain, ctx.headers) ?? timeoutCause(chain, ctx))
    : undefined;
}

/** A start that ran out of time, in a few words: how long it waited, and a package runner's likely download. */
function timeoutCause(chain: readonly ErrorNode[], ctx: StartFailureContext): string | undefined {
  if (!timedOut(chain)) return undefined;
  const runner = ctx.command && packageRunner(ctx.command.command, ctx.command.args);
  const waited = `no answer within ${Math.round(ctx.startTimeoutMs / 1000)} s`;
  // The likely cause first: the side bar shows a row's first words.
  return runner ? `${runner} may still be fetching it (${waited})` : waited;
}

function timedOut(chain: readonly ErrorNode[]): boolean {
  const { SdkError, SdkErrorCode } = clientLibrary();
  return chain.some((node) => node instanceof SdkError && node.code === SdkErrorCode.RequestTimeout);
}

/** What a refusal of credentials (see {@link credentialsRefusal}) means, in a few words for the row. */
export function credentialsRefusalCause(error: unknown, headers: GivenHeaders): string | undefined {
  return httpCause(causeChain(error), headers);
}

/** What an HTTP status of a failed start means, in a few words, the status last. */
function httpCause(chain: readonly ErrorNode[], headers: GivenHeaders = NO_HEADERS): string | undefined {
  const found = httpStatus(chain);
  if (!found || found.status < 400) return undefined;
  const status = `HTTP ${found.status}`;
  if (found.status === 404) return `no MCP endpoint at this "url" (${status})`;
  if (found.status === 401 || found.status === 403)
    return headers.unexpanded?.length
      ? `$NAME unexpanded (${status})`
      : credentialHeaders(headers.names).length > 0
        ? `"headers" refused (${status})`
        : `needs credentials (${status})`;
  if (found.status >= 500) return `the server failed (${status})`;
  return `refused (${status})`;
}

function causeChain(error: unknown): ErrorNode[] {
  const chain: ErrorNode[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 12) {
    const next = queue.shift();
    if (next === null || typeof next !== 'object' || chain.includes(next as ErrorNode)) continue;
    const node = next as ErrorNode;
    chain.push(node);
    queue.push(node.cause);
    if (Array.isArray(node.errors)) queue.push(...node.errors);
  }
  return chain;
}

function endpoint(node: ErrorNode, ctx: StartFailureContext): string {
  const url = ctx.url ? safeUrl(ctx.url) : undefined;
  const host =
    typeof node.address === 'string' ? node.address : typeof node.hostname === 'string' ? node.hostname : url?.hostname;
  const port =
    typeof node.port === 'number'
      ? node.port
      : url
        ? url.port || (url.protocol === 'https:' ? '443' : '80')
        : undefined;
  return port !== undefined ? `${host}:${port}` : `${host}`;
}

function networkReason(chain: readonly ErrorNode[], ctx: StartFailureContext): string | undefined {
  for (const node of chain) {
    if (node.name === 'ProxyRefusedError' && typeof node.message === 'string') return node.message;
    const code = typeof node.code === 'string' ? node.code : undefined;
    if (!code) continue;
    if (code === 'ECONNREFUSED')
      return `connection refused: nothing is listening at ${endpoint(node, ctx)} (ECONNREFUSED); is the server running?`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return `the host name "${typeof node.hostname === 'string' ? node.hostname : safeUrl(ctx.url ?? '')?.hostname}" could not be resolved (${code}); check the URL and your network`;
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
      return `connecting to ${endpoint(node, ctx)} timed out (${code})`;
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
      return `${endpoint(node, ctx)} closed the connection (${code})`;
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${endpoint(node, ctx)} cannot be reached (${code})`;
    if (
      /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED)$/.test(
        code,
      )
    ) {
      return `the certificate of ${endpoint(node, ctx)} is not trusted (${code}): add the certificate that signed it to the system's trusted certificates or to NODE_EXTRA_CA_CERTS, or (not recommended) turn off "http.proxyStrictSSL"`;
    }
    if (/^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) {
      const hint =
        code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? '; does the server speak plain http:// instead of https://?' : '';
      return `the TLS connection to ${endpoint(node, ctx)} failed (${code})${hint}`;
    }
  }
  return undefined;
}

const NO_HEADERS: GivenHeaders = { names: [] };

const quotedList = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/** The headers that carry credentials, by their names: `Authorization`, `X-API-Key`, `Cookie`, `X-Auth-Token` … */
const credentialHeaders = (names: readonly string[]) =>
  names.filter((name) => /auth|token|key|secret|cookie|session|credential|password/i.test(name));

/**
 * Why a server refused credentials it was given in `headers` (an HTTP 401 or 403 anywhere in the
 * error's causes), as at start: what to fix. Undefined for any other failure.
 */
export function credentialsRefusal(
  error: unknown,
  url: string,
  headers: GivenHeaders = NO_HEADERS,
): string | undefined {
  const found = httpStatus(causeChain(error));
  if (found?.status !== 401 && found?.status !== 403) return undefined;
  return httpReason(causeChain(error), { kind: 'http', url, stderrTail: [], startTimeoutMs: 0, headers });
}

function httpStatus(chain: readonly ErrorNode[]): { status: number; text?: string } | undefined {
  for (const node of chain) {
    const text =
      typeof node.data?.statusText === 'string' && node.data.statusText !== '' ? node.data.statusText : undefined;
    if (typeof node.status === 'number') return { status: node.status, text };
    if (typeof node.code === 'number' && node.code >= 400 && node.code < 600) return { status: node.code, text };
    const match =
      typeof node.message === 'string' ? /\bHTTP (\d{3})\b|\bstatus code \((\d{3})\)/i.exec(node.message) : null;
    if (match) return { status: Number(match[1] ?? match[2]), text };
  }
  return undefined;
}

/** Whether a URL names no path, as a server's address copied without its endpoint does. */
function atRoot(url: string | undefined): boolean {
  const parsed = url === undefined ? undefined : safeUrl(url);
  return parsed !== undefined && parsed.pathname.replace(/\/+$/, '') === '' && parsed.search === '';
}

function httpReason(chain: readonly ErrorNode[], ctx: StartFailureContext): string | undefined {
  const found = httpStatus(chain);
  if (!found || found.status < 400) return undefined;
  const status = `HTTP ${found.status}${found.text ? ` ${found.text}` : ''}`;
  const url = ctx.url ?? 'the server';
  if (found.status === 404)
    return `no MCP endpoint at ${url} (${status}); check the path in "url"${atRoot(ctx.url) ? ' (servers usually answer at /mcp, or /sse for the legacy transport)' : ''}`;
  if (found.status === 401 || found.status === 403) {
    const unexpanded = ctx.headers?.unexpanded ?? [];
    if (unexpanded.length > 0)
      return `${url} refused the credentials in "headers" (${status}); ${notExpanded(unexpanded)}`;
    const given = credentialHeaders(ctx.headers?.names ?? []);
    if (given.length > 0)
      return `${url} refused the credentials in "headers" (${status}); check the value of ${quotedList(given)}: is the token or key expired, revoked or short of permission?`;
    return `${url} needs sign-in (${status}); give credentials in "headers" (for example "Authorization": "Bearer \${input:token}")`;
  }
  if (found.status >= 500) return `the server at ${url} failed (${status}); see its own logs`;
  return `${url} refused the connection (${status}); is this an MCP endpoint?`;
}

function timeoutReason(chain: readonly ErrorNode[], ctx: StartFailureContext): string | undefined {
  if (!timedOut(chain)) return undefined;
  const reason = `the server did not answer the handshake within ${Math.round(ctx.startTimeoutMs / 1000)} s ("startTimeoutMs")`;
  const runner = ctx.command && packageRunner(ctx.command.command, ctx.command.args);
  return runner
    ? `${reason}; \`${runner}\` may still have been fetching it (its first run downloads the server): Restart it, or raise "startTimeoutMs"`
    : reason;
}

/**
 * `docker run` (or `podman run`) without `-i`, which leaves the container's input closed: a stdio
 * server in it reads the end of its input and ends. Undefined for any other command line.
 */
function containerWithoutInput(commandLine: StartFailureContext['command']): string | undefined {
  if (!commandLine) return undefined;
  const runner = packageRunner(commandLine.command, commandLine.args);
  if (runner !== 'docker run' && runner !== 'podman run') return undefined;
  const interactive = commandLine.args.some(
    (arg) => arg === '--interactive' || arg === '--interactive=true' || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(arg),
  );
  return interactive ? undefined : runner;
}

/**
 * The package runner a command line starts (`npx`, `uvx`, `pnpm dlx`, `docker run` …), which
 * downloads the server on its first run and stays silent meanwhile; undefined for anything else.
 */
export function packageRunner(command: string, args: readonly string[]): string | undefined {
  const name = programName(command);
  if (['npx', 'bunx', 'uvx'].includes(name)) return name;
  const sub = args.find((a) => !a.startsWith('-'));
  const runs: Record<string, string> = {
    pnpm: 'dlx',
    yarn: 'dlx',
    pipx: 'run',
    docker: 'run',
    podman: 'run',
    npm: 'exec',
  };
  return runs[name] !== undefined && sub === runs[name] ? `${name} ${sub}` : undefined;
}

function otherReason(error: unknown, chain: readonly ErrorNode[], ctx: StartFailureContext): string {
  const { SdkError, SdkErrorCode } = clientLibrary();
  const closed = chain.some(
    (node) =>
      node instanceof SdkError &&
      (node.code === SdkErrorCode.ConnectionClosed || node.code === SdkErrorCode.NotConnected),
  );
  if (closed)
    return spawnsProcess(ctx.kind)
      ? 'the process closed its output before the handshake finished'
      : `the connection to ${ctx.url} closed before the handshake finished`;
  return error instanceof Error ? error.message : String(error);
}
