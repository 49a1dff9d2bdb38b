import { Client, ProtocolError, type ClientOptions } from '@modelcontextprotocol/client';
import { RequestRateLimiter } from '../host/requestRateLimiter';
import { logServerMessage, type ServerLog } from './serverLog';
import type { ServerConnectionDeps } from './serverConnectionDeps';

export interface HostClientHooks {
  readonly listChanged: ClientOptions['listChanged'];
  /** Runs work during which the server waits for the host (its idle timeout stands still). */
  whileHostWaits<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The client library's client as the host configures it for one server: the capabilities it has
 * answers for (roots always; sampling and elicitation when the host routes them) and the
 * handlers for what the server sends.
 */
export function createHostClient(deps: ServerConnectionDeps, options: ClientOptions, hooks: HostClientHooks): Client {
  const client = new Client(deps.clientInfo, {
    ...options,
    capabilities: {
      roots: { listChanged: true },
      ...(deps.sampling ? { sampling: { tools: {} } } : {}),
      ...(deps.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    },
    listChanged: hooks.listChanged,
  });
  const limited = rateLimited(deps.log);
  client.setRequestHandler('roots/list', async () => limited('roots/list', () => ({ roots: deps.roots().map((r) => ({ uri: r.uri, name: r.name })) })));
  client.setRequestHandler('ping', async () => limited('ping', () => ({})));
  const sampling = deps.sampling;
  if (sampling) client.setRequestHandler('sampling/createMessage', (request, ctx) => hooks.whileHostWaits(() => sampling(request.params, ctx.mcpReq.signal)));
  const elicitation = deps.elicitation;
  if (elicitation) {
    client.setRequestHandler('elicitation/create', (request, ctx) => hooks.whileHostWaits(() => elicitation.handle(request.params, ctx.mcpReq.signal)));
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => elicitation.complete(notification.params.elicitationId));
  }
  // Protocol noise (non-JSON stdout lines, unknown ids) is worth seeing but never fatal.
  client.onerror = (error) => deps.log.warn(`Protocol: ${error.message}`);
  client.setNotificationHandler('notifications/resources/updated', (notification) => deps.onResourceUpdated?.(notification.params.uri));
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    logServerMessage(deps.log, level, logger, data);
  });
  return client;
}

/** How many `roots/list` (and, apart, `ping`) requests one server may send in any minute. */
export const SERVER_REQUESTS_PER_MINUTE = 600;

/**
 * Answers within {@link SERVER_REQUESTS_PER_MINUTE} per method and refuses the excess with an
 * error the server can read; the log gets one line per burst, not one per refused request.
 */
function rateLimited(log: ServerLog) {
  const limiter = new RequestRateLimiter();
  const refusing = new Set<string>();
  return <T>(method: string, answer: () => T): T => {
    const wait = limiter.refusal(method, SERVER_REQUESTS_PER_MINUTE);
    if (wait === undefined) {
      refusing.delete(method);
      return answer();
    }
    if (!refusing.has(method)) log.warn(`The server sent more than ${SERVER_REQUESTS_PER_MINUTE} ${method} requests in a minute; MCP Host refuses the rest for ${wait} s.`);
    refusing.add(method);
    throw new ProtocolError(-32603, `Too many ${method} requests: MCP Host answers at most ${SERVER_REQUESTS_PER_MINUTE} a minute (next in ${wait} s).`);
  };
}
