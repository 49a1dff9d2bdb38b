import type { Tool } from '@modelcontextprotocol/client';

/** What is kept per server: the hash of what it ran (whenever it started), and its tools then. */
export interface StoredToolList {
  readonly hash: string;
  readonly tools: readonly Tool[];
}

/** Where the lists are kept (the editor's global state); values read back are untrusted. */
export interface ToolListStore {
  get(serverId: string): unknown;
  set(serverId: string, value: StoredToolList): Promise<void> | void;
}

/** A server's list is kept only up to this size (as JSON); a longer one is forgotten instead. */
export const MAX_KEPT_TOOL_LIST_CHARS = 500_000;

/**
 * The tools each server had when it last ran, under the hash of the definition it ran: a server
 * that starts when needed shows them and offers them to models before it starts again, as long
 * as its definition is the same. Calls still go to the started server's own, current tools.
 */
export class LastToolLists {
  private readonly read = new Map<string, StoredToolList | undefined>();
  private readonly kept = new Map<string, readonly Tool[]>();

  constructor(private readonly store: ToolListStore) {}

  /** The tools `serverId` had when it last ran the definition of `hash`, when known and not empty. */
  toolsOf(serverId: string, hash: string): readonly Tool[] | undefined {
    if (!this.read.has(serverId)) this.read.set(serverId, wellFormed(this.store.get(serverId)));
    const stored = this.read.get(serverId);
    return stored?.hash === hash && stored.tools.length > 0 ? stored.tools : undefined;
  }

  /** Keeps the tools of a running server (once per list: the same list again writes nothing). */
  remember(serverId: string, hash: string, tools: readonly Tool[]): void {
    if (this.kept.get(serverId) === tools) return;
    this.kept.set(serverId, tools);
    const value = JSON.stringify(tools).length <= MAX_KEPT_TOOL_LIST_CHARS ? { hash, tools } : { hash, tools: [] };
    this.read.set(serverId, value);
    void Promise.resolve(this.store.set(serverId, value)).catch(() => undefined);
  }
}

/** Stored data may come from another version or be damaged: keep only tools with a name and an object schema. */
function wellFormed(value: unknown): StoredToolList | undefined {
  const stored = value as Partial<StoredToolList> | undefined;
  if (typeof stored !== 'object' || stored === null || typeof stored.hash !== 'string' || !Array.isArray(stored.tools)) return undefined;
  const tools = stored.tools.filter(
    (t): t is Tool => typeof t === 'object' && t !== null && typeof t.name === 'string' && typeof t.inputSchema === 'object' && t.inputSchema !== null && !Array.isArray(t.inputSchema),
  );
  return { hash: stored.hash, tools };
}
