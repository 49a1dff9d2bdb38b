import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { boundedInstructions } from '../connection/serverSnapshot';

/** What is kept per server: the hash of what it ran (whenever it started), and its tools, prompts and instructions then. */
export interface StoredRun {
  readonly hash: string;
  readonly tools: readonly Tool[];
  /** Absent in what the first version kept (tools only). */
  readonly prompts?: readonly Prompt[];
  readonly instructions?: string;
  /** It offered resources or resource templates (not kept themselves); absent when it did not, and in what earlier versions kept. */
  readonly resources?: true;
}

/**
 * A server's last run as read back: tools and prompts, the instructions that go with them, and
 * whether it offered resources (not all of them missing).
 */
export interface LastRun {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly instructions?: string;
  readonly resources?: true;
}

/** Where the runs are kept (the editor's global state); values read back are untrusted. */
export interface RunStore {
  get(serverId: string): unknown;
  set(serverId: string, value: StoredRun): Promise<void> | void;
}

/** A server's last run is kept only up to this size (as JSON); a longer one is forgotten instead. */
export const MAX_KEPT_RUN_CHARS = 500_000;

/**
 * The tools and prompts each server had when it last ran, with its instructions for models and
 * whether it offered resources, under the hash of the definition it ran: a server that starts when
 * needed shows them and offers them (to models, Run Tool, Run Prompt and `@mcp` slash commands)
 * before it starts again, as long as its definition is the same, and the Resources view lists it
 * when it offered resources. Calls and prompts still go to the started server's current ones.
 */
export class LastRuns {
  private readonly read = new Map<string, StoredRun | undefined>();
  private readonly kept = new Map<string, LastRun>();

  constructor(private readonly store: RunStore) {}

  /** What `serverId` had when it last ran the definition of `hash`, when it had tools or prompts. */
  lastRunOf(serverId: string, hash: string): LastRun | undefined {
    if (!this.read.has(serverId)) this.read.set(serverId, wellFormed(this.store.get(serverId)));
    const stored = this.read.get(serverId);
    if (stored?.hash !== hash) return undefined;
    const prompts = stored.prompts ?? [];
    if (stored.tools.length === 0 && prompts.length === 0 && !stored.resources) return undefined;
    return {
      tools: stored.tools,
      prompts,
      ...(stored.instructions ? { instructions: stored.instructions } : {}),
      ...(stored.resources ? { resources: true } : {}),
    };
  }

  /**
   * Keeps the tools, prompts and instructions of a running server, and whether it offers
   * resources. The same ones again write nothing, nor do the ones its last window kept: a window's
   * starts would otherwise write every server's lists back unchanged, and the editor copies and
   * sends its whole record on each write.
   */
  remember(serverId: string, hash: string, { tools, prompts, instructions, resources }: LastRun): void {
    const kept = this.kept.get(serverId);
    if (
      kept?.tools === tools &&
      kept.prompts === prompts &&
      kept.instructions === instructions &&
      kept.resources === resources
    )
      return;
    this.kept.set(serverId, { tools, prompts, instructions, resources });
    const whole = {
      hash,
      tools,
      prompts,
      ...(instructions ? { instructions } : {}),
      ...(resources ? { resources } : {}),
    };
    const json = JSON.stringify(whole);
    const value = json.length <= MAX_KEPT_RUN_CHARS ? whole : { hash, tools: [], prompts: [] };
    // Compared as JSON: what the store gives back went through JSON, with the same key order.
    if (!kept && (value === whole ? json : JSON.stringify(value)) === JSON.stringify(this.store.get(serverId))) return;
    this.read.set(serverId, value);
    void Promise.resolve(this.store.set(serverId, value)).catch(() => undefined);
  }
}

/**
 * Stored data may come from another version or be damaged: keep only tools with a name and an
 * object schema, prompts with a name and named arguments, texts that are strings, and bounded
 * instructions.
 */
function wellFormed(value: unknown): StoredRun | undefined {
  const stored = value as Partial<StoredRun> | undefined;
  if (typeof stored !== 'object' || stored === null || typeof stored.hash !== 'string' || !Array.isArray(stored.tools))
    return undefined;
  const tools = stored.tools.filter(
    (t: unknown): t is Tool =>
      named(t) && typeof t.inputSchema === 'object' && t.inputSchema !== null && !Array.isArray(t.inputSchema),
  );
  const prompts = Array.isArray(stored.prompts)
    ? stored.prompts.filter(
        (p: unknown): p is Prompt =>
          named(p) && (p.arguments === undefined || (Array.isArray(p.arguments) && p.arguments.every(named))),
      )
    : [];
  const instructions = typeof stored.instructions === 'string' ? boundedInstructions(stored.instructions) : undefined;
  return {
    hash: stored.hash,
    tools,
    prompts,
    ...(instructions ? { instructions } : {}),
    ...(stored.resources === true ? { resources: true } : {}),
  };
}

/** An object with a string name, and a title and description that are strings when there. */
function named(value: unknown): value is Record<string, unknown> & { name: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { name, title, description } = value as Record<string, unknown>;
  return (
    typeof name === 'string' &&
    (title === undefined || typeof title === 'string') &&
    (description === undefined || typeof description === 'string')
  );
}
