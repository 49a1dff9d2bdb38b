import type { Tool } from '@modelcontextprotocol/client';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../config/definitionHash';
import { listsKnown, type ServerSnapshot } from '../connection/serverSnapshot';
import type { Event } from '../events';
import type { McpHost } from '../host/mcpHost';

/** The part of the host the gateway serves from: a server's lists, its requests, its changes. */
export type GatewayHost = Pick<
  McpHost,
  | 'server'
  | 'serverIds'
  | 'definition'
  | 'start'
  | 'startOnDemand'
  | 'callTool'
  | 'getPrompt'
  | 'readResource'
  | 'complete'
  | 'freshResources'
  | 'subscribeResource'
  | 'onDidChangeServers'
  | 'onDidUpdateResource'
>;

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
 * The version VS Code keys its cache of a published server's tools by: it changes whenever what
 * an agent sees changes (the tools offered, their schemas and `_meta`, the prompts), or VS Code's
 * agents keep a stale tool list. A server whose lists are not known yet has a version that says so.
 */
export function publishedVersion(server: ServerSnapshot, offers: Pick<GatewayOffers, 'offered'>): string {
  if (!listsKnown(server)) return 'not-started';
  const seen = { tools: offeredTools(server, offers), prompts: server.prompts };
  return createHash('sha256').update(canonicalJson(seen)).digest('hex').slice(0, 16);
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
