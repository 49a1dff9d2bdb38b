import { Client, ProtocolError, type ClientOptions } from '@modelcontextprotocol/client';
import { RequestRateLimiter } from '../host/requestRateLimiter';
import { logServerMessage, type ServerLog } from './serverLog';
import type { ServerConnectionDeps } from './serverConnectionDeps';

export interface HostClientHooks {
  readonly listChanged: ClientOptions['listChanged'];
  /** Runs work during which the server waits for the host (its idle timeout stands still). */
  whileHostWaits<T>(work: () => Promise<T>): Promise<T>;
  /** `roots/list` and `ping` requests answered per minute each (`limits.serverRequestsPerMinute`). */
  readonly serverRequestsPerMinute: number;
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
  const limited = rateLimited(deps.log, hooks.serverRequestsPerMinute);
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
    if (!refusing.has(method)) log.warn(`The server sent more than ${perMinute} ${method} requests in a minute; MCP Host refuses the rest for ${wait} s (limits.serverRequestsPerMinute).`);
    refusing.add(method);
    throw new ProtocolError(-32603, `Too many ${method} requests: MCP Host answers at most ${perMinute} a minute (next in ${wait} s).`);
  };
}
