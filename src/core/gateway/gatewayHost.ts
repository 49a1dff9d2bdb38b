import type { Tool } from '@modelcontextprotocol/client';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../config/definitionHash';
import { listsKnown, type ServerSnapshot } from '../connection/serverSnapshot';
import type { Event } from '../events';
import type { ResourceBrowsing, ServerCalls, ServerDirectory, ServerLifecycle } from '../host/hostPorts';

/** The part of the host the gateway serves from: a server's lists, its requests, its changes. */
export type GatewayHost = Pick<
  ServerDirectory,
  'server' | 'serverIds' | 'definition' | 'onDidChangeServers' | 'onDidLogMessage'
> &
  Pick<ServerLifecycle, 'start' | 'startOnDemand'> &
  Pick<ServerCalls, 'callTool' | 'getPrompt' | 'readResource' | 'complete' | 'passExtensionRequest'> &
  Pick<ResourceBrowsing, 'freshResources' | 'subscribeResource' | 'onDidUpdateResource'>;

/** What the user lets agents have: which servers are published, which of their tools are offered. */
export interface GatewayOffers {
  /** Whether the server is published to VS Code's agents (the settings, and not already in VS Code's own mcp.json). */
  published(serverId: string): boolean;
  /** Whether the user offers the tool to models (the Servers view's checkboxes). */
  offered(serverId: string, toolName: string): boolean;
  /** Fires when either of the above may have changed. */
  readonly onDidChange: Event<void>;
}

/** The server's tools an agent may see: those the user has not switched off. */
export function offeredTools(server: ServerSnapshot, offers: Pick<GatewayOffers, 'offered'>): Tool[] {
  return server.tools.filter((tool) => offers.offered(server.id, tool.name));
}

/**
 * What a server offers, hashed: its tools (all of them, with schemas and `_meta`) and its prompts;
 * undefined while they are not known (it has not run, or it is starting). The user's switches are
 * left out on purpose: VS Code learns of those from `list_changed` on the session it has open (see
 * {@link PublishedVersions}).
 */
export function listsHash(server: ServerSnapshot): string | undefined {
  if (!listsKnown(server)) return undefined;
  return createHash('sha256')
    .update(canonicalJson({ tools: server.tools, prompts: server.prompts }))
    .digest('hex')
    .slice(0, 16);
}

/** Statuses whose server cannot run here: an invalid entry, `"enabled": false`, a workspace server in an untrusted workspace. */
const NEVER_RUNS = new Set<ServerSnapshot['status']>(['invalid', 'disabled', 'untrusted']);

/**
 * Whether a server is offered to VS Code's agents: publishing is on (the global setting and the
 * server's `publish`), the server may run here, and VS Code's own mcp.json does not already run
 * the same thing (agents would see it twice; they use VS Code's).
 */
export function mayPublish(
  server: ServerSnapshot,
  publish: { readonly all: boolean; readonly server: boolean },
  alsoInVsCode: boolean,
): boolean {
  return publish.all && publish.server && !NEVER_RUNS.has(server.status) && !alsoInVsCode;
}
