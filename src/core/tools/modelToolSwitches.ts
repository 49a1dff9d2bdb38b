import { Emitter } from '../events';

/** What is switched off, as stored: server ids, and `server/tool` pairs. */
export interface SwitchedOff {
  readonly servers: readonly string[];
  readonly tools: readonly { readonly server: string; readonly tool: string }[];
}

/** Where the switches live (workspace storage in the editor). */
export interface SwitchStore {
  load(): SwitchedOff | undefined;
  save(value: SwitchedOff): Promise<void> | void;
}

/** More entries than this are not kept (the oldest go first). */
export const MAX_SWITCHES = 10_000;

/**
 * Which tools are offered to language models (`@mcp`, the language-model tools), per workspace.
 * Everything is offered until the user switches a server or a tool off; switched-off tools stay
 * runnable by the user from the palette.
 */
export class ModelToolSwitches {
  private readonly offServers: Set<string>;
  private readonly offTools: Map<string, { server: string; tool: string }>;
  /** Renames already followed (`server, old, new`): the user's later switch stands. */
  private readonly followed = new Set<string>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly store: SwitchStore) {
    const stored = sanitize(store.load());
    this.offServers = new Set(stored.servers);
    this.offTools = new Map(stored.tools.map((t) => [key(t.server, t.tool), t]));
  }

  /** Whether the server is offered at all (its own switch). */
  isServerOffered(serverId: string): boolean {
    return !this.offServers.has(serverId);
  }

  /** Whether the tool's own switch is on (regardless of its server's). */
  isToolSwitchedOn(serverId: string, toolName: string): boolean {
    return !this.offTools.has(key(serverId, toolName));
  }

  /** Whether a model may see and call the tool: its server and the tool are both switched on. */
  isOffered(serverId: string, toolName: string): boolean {
    return this.isServerOffered(serverId) && this.isToolSwitchedOn(serverId, toolName);
  }

  setServer(serverId: string, offered: boolean): Promise<void> {
    if (offered === this.isServerOffered(serverId)) return Promise.resolve();
    if (offered) this.offServers.delete(serverId);
    else this.offServers.add(serverId);
    return this.persist();
  }

  setTool(serverId: string, toolName: string, offered: boolean): Promise<void> {
    if (offered === this.isToolSwitchedOn(serverId, toolName)) return Promise.resolve();
    if (offered) this.offTools.delete(key(serverId, toolName));
    else this.offTools.set(key(serverId, toolName), { server: serverId, tool: toolName });
    return this.persist();
  }

  /**
   * A tool the server renamed keeps the switch of the name the user knew: switched off under its
   * old name, it is switched off under the new one (once per rename; the user may switch it on).
   */
  followRenames(serverId: string, renamed: Readonly<Record<string, string>> | undefined): Promise<void> {
    const off: string[] = [];
    for (const [name, old] of Object.entries(renamed ?? {})) {
      const pair = `${key(serverId, old)}\u0000${name}`;
      if (this.followed.has(pair)) continue;
      this.followed.add(pair);
      if (!this.isToolSwitchedOn(serverId, old) && this.isToolSwitchedOn(serverId, name)) off.push(name);
    }
    if (off.length === 0) return Promise.resolve();
    for (const name of off) this.offTools.set(key(serverId, name), { server: serverId, tool: name });
    return this.persist();
  }

  private async persist(): Promise<void> {
    const value = sanitize({ servers: [...this.offServers], tools: [...this.offTools.values()] });
    this.changed.fire();
    await this.store.save(value);
  }
}

function key(serverId: string, toolName: string): string {
  return `${serverId}\u0000${toolName}`;
}

/** Stored data is untrusted (another version may have written it): keep only well-formed, bounded entries. */
function sanitize(value: SwitchedOff | undefined): SwitchedOff {
  const servers = Array.isArray(value?.servers) ? value.servers.filter((s): s is string => typeof s === 'string') : [];
  const tools = Array.isArray(value?.tools)
    ? value.tools.filter((t) => typeof t?.server === 'string' && typeof t?.tool === 'string')
    : [];
  return { servers: servers.slice(-MAX_SWITCHES), tools: tools.slice(-MAX_SWITCHES) };
}
