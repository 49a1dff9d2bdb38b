import type { ServerDefinition } from './serverDefinition';
import { spawnsProcess } from './transportKinds';
import { sameRegistry } from './registryAddress';

/** An entry of `chat.mcp.allowedServers` or `chat.mcp.deniedServers`: exactly one of the three. */
export interface ServerMatcher {
  readonly serverName?: string;
  readonly serverUrl?: string;
  readonly serverCommand?: readonly string[];
}

/** Who set a value: an administrator's policy, or the user's (or workspace's) settings. */
export type PolicySource = 'policy' | 'settings';

/**
 * The editor's MCP policies, as VS Code reads them (`chat.mcp.access`, `chat.mcp.allowedServers`,
 * `chat.mcp.deniedServers`; each may be set as an organisation policy): what MCP Host follows too.
 */
export interface McpPolicy {
  /** `"all"` runs any server; `"registry"` only servers installed from the configured registry; `"none"` none. */
  readonly access: 'all' | 'registry' | 'none';
  /** When set, only servers that match an entry run. */
  readonly allowed?: readonly ServerMatcher[];
  /** Servers that match an entry never run (a deny wins over an allow). */
  readonly denied?: readonly ServerMatcher[];
  /** The registry the editor is set to (`chat.mcp.gallery.serviceUrl`), when set: under `"registry"`, servers must come from it. */
  readonly registry?: string;
  /** Who set each of them, for the reason a server gives. */
  readonly sources?: {
    readonly access?: PolicySource;
    readonly allowed?: PolicySource;
    readonly denied?: PolicySource;
  };
}

/** No policy: every server may run. */
export const OPEN_POLICY: McpPolicy = { access: 'all' };

/** A server as the policies see it, as VS Code identifies it: its name, and its URL or its command line. */
export interface PolicyIdentity {
  readonly name: string;
  readonly url?: string;
  readonly command?: readonly string[];
  /** The registry Add Server installed it from, while its entry is the one it wrote. */
  readonly registry?: string;
}

export function policyIdentity(
  def: Pick<ServerDefinition, 'id' | 'transport' | 'url' | 'command' | 'args'>,
  registry?: string,
): PolicyIdentity {
  const from = registry === undefined ? {} : { registry };
  return spawnsProcess(def.transport)
    ? { name: def.id, command: [def.command ?? '', ...def.args], ...from }
    : { name: def.id, url: def.url, ...from };
}

/**
 * Why the editor's MCP policies keep a server from running, naming the setting; undefined when
 * they allow it. Matched as VS Code matches: a name exactly, a command line item by item, a URL by
 * its origin, path and query without case (`*` in an entry stands for any text); a deny wins.
 * Under `"registry"`, a server runs when Add Server installed it from the registry (from the one
 * the editor is set to, when it is set) and its entry is unchanged since.
 */
export function policyBlock(server: PolicyIdentity, policy: McpPolicy): string | undefined {
  const by = (source: PolicySource | undefined) =>
    source === 'policy' ? "your organisation's policy" : 'your settings';
  if (policy.access === 'none') return `blocked by ${by(policy.sources?.access)}: chat.mcp.access is "none"`;
  if (policy.access === 'registry' && server.registry === undefined)
    return `blocked by ${by(policy.sources?.access)}: chat.mcp.access is "registry", and this server was not installed from the registry (or its entry changed since)`;
  if (policy.access === 'registry' && policy.registry && !sameRegistry(server.registry!, policy.registry))
    return `blocked by ${by(policy.sources?.access)}: chat.mcp.access is "registry", and this server comes from ${server.registry}, not from ${policy.registry} (chat.mcp.gallery.serviceUrl)`;
  const denied = policy.denied?.find((m) => matches(m, server));
  if (denied)
    return `blocked by ${by(policy.sources?.denied)}: it matches ${JSON.stringify(denied)} in chat.mcp.deniedServers`;
  if (policy.allowed && !policy.allowed.some((m) => matches(m, server)))
    return `blocked by ${by(policy.sources?.allowed)}: it is not in chat.mcp.allowedServers`;
  return undefined;
}

/** Keeps the well-formed entries of a list setting (exactly one non-empty key, as VS Code does); undefined when it is not a list. */
export function serverMatchers(value: unknown): ServerMatcher[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is ServerMatcher => {
    if (typeof item !== 'object' || item === null) return false;
    const { serverName, serverUrl, serverCommand } = item as Record<string, unknown>;
    const name = typeof serverName === 'string' && serverName.length > 0;
    const url = typeof serverUrl === 'string' && serverUrl.length > 0;
    const command =
      Array.isArray(serverCommand) && serverCommand.length > 0 && serverCommand.every((s) => typeof s === 'string');
    return Number(name) + Number(url) + Number(command) === 1;
  });
}

function matches(matcher: ServerMatcher, server: PolicyIdentity): boolean {
  if (typeof matcher.serverName === 'string') return matcher.serverName === server.name;
  if (typeof matcher.serverUrl === 'string')
    return server.url !== undefined && urlMatches(matcher.serverUrl, server.url);
  if (Array.isArray(matcher.serverCommand))
    return (
      server.command !== undefined &&
      matcher.serverCommand.length === server.command.length &&
      matcher.serverCommand.every((part, i) => part === server.command![i])
    );
  return false;
}

function urlMatches(pattern: string, url: string): boolean {
  const target = comparableUrl(url);
  if (target === undefined) return false;
  if (!pattern.includes('*')) return comparableUrl(pattern)?.toLowerCase() === target.toLowerCase();
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(target);
}

/** A URL as policies compare it: origin, path and query (no credentials, no fragment). */
function comparableUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}${url.search}` : text;
  } catch {
    return undefined;
  }
}
