import * as vscode from 'vscode';
import { affectsHostSettings, hostSetting } from '../config/hostSettings';
import { mayPublish, type GatewayHost, type GatewayOffers } from '../../core/gateway/gatewayHost';
import { PublishedVersions } from '../../core/gateway/publishedVersions';
import { privateGatewayAddress } from '../../core/gateway/gatewayAddress';
import { McpGateway } from '../../core/gateway/mcpGateway';
import { knownLists } from '../../core/gateway/gatewayMirror';
import type { ServerLog } from '../../core/connection/serverLog';
import type { ServerDefinition } from '../../core/config/serverDefinition';
import { Emitter } from '../../core/events';

/** The provider's id, as package.json's `contributes.mcpServerDefinitionProviders` declares it. */
export const AGENT_PROVIDER_ID = 'mcpHost.servers';

/**
 * The label VS Code shows for a published server (its MCP server id is `<extension id>/<label>`):
 * the server's id, as VS Code's own mcp.json servers are labelled with theirs. VS Code names the
 * server's tools after it until it has connected once (`mcp_<label>_<tool>`), so a suffix would
 * garble them; MCP: List Servers shows the server under "MCP Host" (the provider's label).
 */
export const publishedLabel = (serverId: string) => serverId;

export interface AgentServerDeps {
  readonly host: GatewayHost;
  /** Whether the user offers a tool to models (the Servers view's checkboxes). */
  readonly offered: (serverId: string, toolName: string) => boolean;
  readonly onDidChangeOffered: vscode.Event<void>;
  /** Whether VS Code's own mcp.json runs the same server. */
  readonly alsoInVsCode: (definition: ServerDefinition) => boolean;
  readonly onDidChangeVsCodeServers: vscode.Event<void>;
  readonly version: string;
  readonly log: ServerLog;
  /** The relay VS Code runs for a stdio definition (dist/gatewayRelay.js), for `mcpHost.agents.lane` "stdio". */
  readonly relayScript: string;
}

/**
 * Publishes every MCP Host server to VS Code's MCP (`lm.registerMcpServerDefinitionProvider`) as an
 * HTTP server whose endpoint is MCP Host's gateway: VS Code's agents then see each tool with its
 * schema, and its prompts, resources and apps, while MCP Host runs the server behind.
 */
export class AgentServerProvider
  implements vscode.McpServerDefinitionProvider<vscode.McpServerDefinition>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly offersChanged = new Emitter<void>();
  readonly offers: GatewayOffers;
  private readonly gateway: McpGateway;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** What was last handed to VS Code (labels and versions): a change fires only when this differs. */
  private handedOut = '';
  private readonly versions = new PublishedVersions();
  /** The servers last published, to end the sessions of one that no longer is. */
  private publishedIds = new Set<string>();

  constructor(private readonly deps: AgentServerDeps) {
    this.offers = {
      published: (id) => this.isPublished(id),
      offered: deps.offered,
      onDidChange: this.offersChanged.event,
    };
    this.gateway = new McpGateway({
      host: deps.host,
      offers: this.offers,
      address: privateGatewayAddress(),
      version: deps.version,
      log: deps.log,
      // A version held while VS Code was connected may move on once it is not.
      sessionsChanged: () => this.refresh(),
    });
    const offersChanged = () => {
      this.offersChanged.fire();
      this.refresh();
    };
    this.subscriptions.push(
      deps.host.onDidChangeServers(() => this.refresh()),
      deps.onDidChangeOffered(offersChanged),
      deps.onDidChangeVsCodeServers(offersChanged),
      vscode.workspace.onDidChangeConfiguration((e) => affectsHostSettings(e, 'publish') && offersChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => affectsHostSettings(e, 'agentsLane') && this.refresh()),
    );
  }

  isPublished(serverId: string): boolean {
    const server = this.deps.host.server(serverId);
    const definition = this.deps.host.definition(serverId);
    if (!server || !definition) return false;
    const all = hostSetting('publish');
    return mayPublish(server, { all, server: definition.publish }, this.deps.alsoInVsCode(definition));
  }

  /** The published servers with their versions, in the host's order. */
  private published(): { id: string; label: string; version: string }[] {
    return this.deps.host
      .serverIds()
      .filter((id) => this.isPublished(id))
      .map((id) => ({ id, label: publishedLabel(id), version: this.versionOf(id) }));
  }

  private versionOf(id: string): string {
    return this.versions.versionOf(this.deps.host.server(id)!, this.gateway.connected(id));
  }

  /** Tells VS Code when the published servers or what one offers changed; ends the sessions of servers no longer published. */
  private refresh(): void {
    const published = this.published();
    const ids = new Set(published.map((p) => p.id));
    const unpublished = [...this.publishedIds].filter((id) => !ids.has(id));
    this.versions.keepOnly(ids);
    this.publishedIds = ids;
    for (const id of unpublished) this.gateway.closeSessions(id);
    const handedOut = JSON.stringify([this.lane, published.map(({ label, version }) => [label, version])]);
    if (handedOut === this.handedOut) return;
    this.handedOut = handedOut;
    this.changed.fire();
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpServerDefinition[]> {
    const published = this.published();
    this.publishedIds = new Set(published.map((p) => p.id));
    this.handedOut = JSON.stringify([this.lane, published.map(({ label, version }) => [label, version])]);
    return Promise.all(published.map(({ id, label, version }) => this.definitionOf(id, label, version)));
  }

  /** Which way VS Code reaches the servers (`mcpHost.agents.lane`; stdio unless set to HTTP). */
  private get lane(): 'stdio' | 'http' {
    return hostSetting('agentsLane') === 'http' ? 'http' : 'stdio';
  }

  /**
   * A server as VS Code is handed it: an HTTP definition of its gateway endpoint, or (the stdio
   * lane, where the gateway has a private folder) a stdio definition of the relay to it, run by
   * the editor's own Node.
   */
  private async definitionOf(id: string, label: string, version: string): Promise<vscode.McpServerDefinition> {
    const relay = this.lane === 'stdio' ? await this.gateway.relayEndpoint(id) : undefined;
    if (relay)
      return new vscode.McpStdioServerDefinition(
        label,
        process.execPath,
        [this.deps.relayScript, relay.socketPath],
        { MCPHOST_GATEWAY_TOKEN: relay.token, MCPHOST_GATEWAY_SERVER: id, ELECTRON_RUN_AS_NODE: '1' },
        version,
      );
    const endpoint = await this.gateway.endpoint(id);
    return new vscode.McpHttpServerDefinition(label, vscode.Uri.parse(endpoint.url), { ...endpoint.headers }, version);
  }

  /**
   * VS Code is about to connect: a server whose lists are not known starts now (asking consent if it
   * needs it; one known from its last run starts with its first call); a failure is told by the endpoint itself.
   */
  async resolveMcpServerDefinition(
    definition: vscode.McpServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<vscode.McpServerDefinition> {
    const id = this.deps.host.serverIds().find((candidate) => publishedLabel(candidate) === definition.label);
    if (id && this.isPublished(id)) {
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => abort.abort());
      await knownLists(this.deps.host, id, abort.signal).catch((error: Error) =>
        this.deps.log.warn(`Gateway: "${id}" did not start for VS Code's agents: ${error.message}`),
      );
      cancelled.dispose();
    }
    return definition;
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.gateway.dispose();
    this.changed.dispose();
    this.offersChanged.dispose();
  }
}

/** Registers the provider where the editor has the API (VS Code 1.101 and later); returns nothing to dispose elsewhere. */
export function registerAgentServers(deps: AgentServerDeps): {
  readonly provider?: AgentServerProvider;
  readonly disposables: vscode.Disposable[];
} {
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') return { disposables: [] };
  const provider = new AgentServerProvider(deps);
  return {
    provider,
    disposables: [provider, vscode.lm.registerMcpServerDefinitionProvider(AGENT_PROVIDER_ID, provider)],
  };
}
