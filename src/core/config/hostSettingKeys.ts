/** The official MCP Registry, where Add Server looks unless `mcpHost.registry.url` says otherwise. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** The tools one `@mcp` request offers its model unless `mcpHost.chat.maxTools` says otherwise. */
export const DEFAULT_MAX_MODEL_TOOLS = 128;

/** The value of each global `mcpHost.*` setting, by the name the code uses for it. */
export interface HostSettingValues {
  readonly servers: Readonly<Record<string, unknown>>;
  readonly autoStart: string;
  readonly learnInBackground: boolean;
  readonly readLive: boolean;
  readonly publish: boolean;
  readonly agentsLane: 'stdio' | 'http';
  readonly appsEnabled: boolean;
  readonly chatMaxTools: number;
  readonly registryUrl: string;
}

export type HostSettingName = keyof HostSettingValues;

/**
 * Every global `mcpHost.*` setting: its key and its default, once. `package.json` declares them
 * for the Settings editor; a unit test keeps the two in step. (`servers` has no default there: an
 * empty object here.)
 */
export const HOST_SETTINGS: {
  readonly [N in HostSettingName]: { readonly key: string; readonly default: HostSettingValues[N] };
} = {
  servers: { key: 'mcpHost.servers', default: {} },
  autoStart: { key: 'mcpHost.autoStart', default: 'onDemand' },
  learnInBackground: { key: 'mcpHost.learnInBackground', default: true },
  readLive: { key: 'mcpHost.otherHosts.readLive', default: false },
  publish: { key: 'mcpHost.agents.publish', default: true },
  agentsLane: { key: 'mcpHost.agents.lane', default: 'stdio' },
  appsEnabled: { key: 'mcpHost.apps.enabled', default: true },
  chatMaxTools: { key: 'mcpHost.chat.maxTools', default: DEFAULT_MAX_MODEL_TOOLS },
  registryUrl: { key: 'mcpHost.registry.url', default: DEFAULT_REGISTRY_URL },
};
