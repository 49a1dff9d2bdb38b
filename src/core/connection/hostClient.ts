import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import { clientLibrary, protocolError } from '../lazyLibraries';
import { RequestRateLimiter } from '../requestRateLimiter';
import { logServerMessage, type ServerLog } from './serverLog';
import type { ServerConnectionDeps } from './serverConnectionDeps';
import { TASKS_EXTENSION } from '../tasks/taskResults';
import { APP_MIME_TYPE, APPS_EXTENSION } from '../apps/appToolMeta';
import { SKILLS_EXTENSION } from '../skills/serverSkills';

export interface HostClientHooks {
  readonly listChanged: ClientOptions['listChanged'];
  /** Runs work during which the server waits for the host (its idle timeout stands still). */
  whileHostWaits<T>(work: () => Promise<T>): Promise<T>;
  /** `roots/list` and `ping` requests answered per minute each (`limits.serverRequestsPerMinute`). */
  readonly serverRequestsPerMinute: number;
  /** The server asked for roots (a window sharing it learns that its folders matter). */
  onRootsAsked?(): void;
  /** Another window answers this sampling or elicitation request (a shared server); undefined: this one does. */
  askerFor?(method: string): ((params: unknown, signal: AbortSignal) => Promise<unknown>) | undefined;
}

/** Answers one kind of server request: roots, ping, sampling, elicitation. */
type Answer = (params: unknown, signal: AbortSignal) => Promise<unknown>;
const answerers = new WeakMap<Client, Readonly<Record<string, Answer>>>();

/**
 * Answers a server request the way this client's handlers do; for requests that arrive outside
 * the library's flow (a task's `inputRequests`). Refuses methods the host has no answer for.
 */
export function answerServerRequest(
  client: Client,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const answer = answerers.get(client)?.[method];
  if (!answer) return Promise.reject(new Error(`MCP Host cannot answer a "${method}" request`));
  return answer(params, signal);
}

/**
 * The client library's client as the host configures it for one server: the capabilities it has
 * answers for (roots always; sampling and elicitation when the host routes them) and the
 * handlers for what the server sends.
 */
export function createHostClient(deps: ServerConnectionDeps, options: ClientOptions, hooks: HostClientHooks): Client {
  const client = new (clientLibrary().Client)(deps.clientInfo, {
    ...options,
    capabilities: {
      roots: { listChanged: true },
      ...(deps.sampling ? { sampling: { tools: {} } } : {}),
      ...(deps.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
      // Any tools/call may come back as a task (2026-07-28, SEP-2663); the host follows it.
      // Apps: tools may come with an interactive HTML view (SEP-1865), which the editor shows.
      // Skills: the server may offer skills (SEP-2640), listed at connect and read only when loaded.
      extensions: {
        [TASKS_EXTENSION]: {},
        [SKILLS_EXTENSION]: {},
        ...(deps.apps ? { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } : {}),
      },
    },
    listChanged: hooks.listChanged,
  });
  const limited = rateLimited(deps.log, hooks.serverRequestsPerMinute);
  const answers: Record<string, Answer> = {
    'roots/list': async () =>
      limited('roots/list', () => {
        hooks.onRootsAsked?.();
        return { roots: deps.roots().map((r) => ({ uri: r.uri, name: r.name })) };
      }),
    ping: async () => limited('ping', () => ({})),
  };
  const sampling = deps.sampling;
  // A shared server's request during another window's call is answered there (hooks.askerFor).
  const here =
    (method: string, answer: Answer): Answer =>
    (params, signal) =>
      hooks.whileHostWaits(() => (hooks.askerFor?.(method) ?? answer)(params, signal));
  if (sampling)
    answers['sampling/createMessage'] = here('sampling/createMessage', (params, signal) =>
      sampling(params as never, signal),
    );
  const elicitation = deps.elicitation;
  if (elicitation) {
    answers['elicitation/create'] = here('elicitation/create', (params, signal) =>
      elicitation.handle(params as never, signal),
    );
    client.setNotificationHandler('notifications/elicitation/complete', (notification) =>
      elicitation.complete(notification.params.elicitationId),
    );
  }
  for (const [method, answer] of Object.entries(answers))
    client.setRequestHandler(method as 'ping', (request, ctx) => answer(request.params, ctx.mcpReq.signal) as never);
  answerers.set(client, answers);
  // Protocol noise (non-JSON stdout lines, unknown ids) is worth seeing but never fatal.
  client.onerror = (error) => deps.log.warn(`Protocol: ${error.message}`);
  client.setNotificationHandler('notifications/resources/updated', (notification) =>
    deps.onResourceUpdated?.(notification.params.uri),
  );
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    logServerMessage(deps.log, level, logger, data);
    deps.onLogMessage?.(notification.params);
  });
  return client;
}

/**
 * Answers `perMinute` requests per method in any minute and refuses the excess with an error the
 * server can read; the log gets one line per burst, not one per refused request.
 */
function rateLimited(log: ServerLog, perMinute: number) {
  const limiter = new RequestRateLimiter();
  const refusing = new Set<string>();
  return <T>(method: string, answer: () => T): T => {
    const wait = limiter.refusal(method, perMinute);
    if (wait === undefined) {
      refusing.delete(method);
      return answer();
    }
    if (!refusing.has(method))
      log.warn(
        `The server sent more than ${perMinute} ${method} requests in a minute; MCP Host refuses the rest for ${wait} s (limits.serverRequestsPerMinute).`,
      );
    refusing.add(method);
    throw protocolError(
      -32603,
      `Too many ${method} requests: MCP Host answers at most ${perMinute} a minute (next in ${wait} s).`,
    );
  };
}
