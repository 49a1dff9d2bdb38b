import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { logServerMessage } from './serverLog';
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
  client.setRequestHandler('roots/list', async () => ({ roots: deps.roots().map((r) => ({ uri: r.uri, name: r.name })) }));
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
