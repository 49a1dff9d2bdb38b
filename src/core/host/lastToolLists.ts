import type { Tool } from '@modelcontextprotocol/client';
import { boundedInstructions } from '../connection/serverSnapshot';

/** What is kept per server: the hash of what it ran (whenever it started), and its tools and instructions then. */
export interface StoredToolList {
  readonly hash: string;
  readonly tools: readonly Tool[];
  readonly instructions?: string;
}

/** A server's last run as read back: tools (never empty) and the instructions that go with them. */
export interface LastRun {
  readonly tools: readonly Tool[];
  readonly instructions?: string;
}

/** Where the lists are kept (the editor's global state); values read back are untrusted. */
export interface ToolListStore {
  get(serverId: string): unknown;
  set(serverId: string, value: StoredToolList): Promise<void> | void;
}

/** A server's last run is kept only up to this size (as JSON); a longer one is forgotten instead. */
export const MAX_KEPT_TOOL_LIST_CHARS = 500_000;

/**
 * The tools each server had when it last ran, with its instructions for models, under the hash of
 * the definition it ran: a server that starts when needed shows them and offers them to models
 * (instructions included) before it starts again, as long as its definition is the same. Calls
 * still go to the started server's own, current tools.
 */
export class LastToolLists {
  private readonly read = new Map<string, StoredToolList | undefined>();
  private readonly kept = new Map<string, LastRun>();

  constructor(private readonly store: ToolListStore) {}

  /** What `serverId` had when it last ran the definition of `hash`, when its tools are known and not empty. */
  lastRunOf(serverId: string, hash: string): LastRun | undefined {
    if (!this.read.has(serverId)) this.read.set(serverId, wellFormed(this.store.get(serverId)));
    const stored = this.read.get(serverId);
    return stored?.hash === hash && stored.tools.length > 0 ? { tools: stored.tools, ...(stored.instructions ? { instructions: stored.instructions } : {}) } : undefined;
  }

  /** Keeps the tools and instructions of a running server (once: the same ones again write nothing). */
  remember(serverId: string, hash: string, { tools, instructions }: LastRun): void {
    const kept = this.kept.get(serverId);
    if (kept?.tools === tools && kept.instructions === instructions) return;
    this.kept.set(serverId, { tools, instructions });
    const whole = { hash, tools, ...(instructions ? { instructions } : {}) };
    const value = JSON.stringify(whole).length <= MAX_KEPT_TOOL_LIST_CHARS ? whole : { hash, tools: [] };
    this.read.set(serverId, value);
    void Promise.resolve(this.store.set(serverId, value)).catch(() => undefined);
  }
}

/** Stored data may come from another version or be damaged: keep only tools with a name and an object schema, and bounded instructions. */
function wellFormed(value: unknown): StoredToolList | undefined {
  const stored = value as Partial<StoredToolList> | undefined;
  if (typeof stored !== 'object' || stored === null || typeof stored.hash !== 'string' || !Array.isArray(stored.tools)) return undefined;
  const tools = stored.tools.filter(
    (t): t is Tool => typeof t === 'object' && t !== null && typeof t.name === 'string' && typeof t.inputSchema === 'object' && t.inputSchema !== null && !Array.isArray(t.inputSchema),
  );
  const instructions = typeof stored.instructions === 'string' ? boundedInstructions(stored.instructions) : undefined;
  return { hash: stored.hash, tools, ...(instructions ? { instructions } : {}) };
}
