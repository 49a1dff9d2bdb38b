/** How long a completion for a flow the host does not know yet is remembered. */
export const EARLY_COMPLETION_MEMORY_MS = 60_000;
/** At most this many such completions are kept per server (the oldest go first). */
export const EARLY_COMPLETIONS_PER_SERVER = 32;

/**
 * `notifications/elicitation/complete` for ids the host does not know yet. A server may report a
 * flow complete right after the `-32042` error that lists it, and both can arrive in one read:
 * the notification is handled before the error has made its way to the code that waits for it.
 * Such completions have no effect (the spec's "ignore unknown ids"), but are remembered briefly so
 * that the error arriving just after finds its flow already done.
 */
export class EarlyCompletions {
  private readonly seen = new Map<string, Map<string, number>>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(serverId: string, elicitationId: string): void {
    const ids = this.fresh(serverId);
    ids.delete(elicitationId);
    ids.set(elicitationId, this.now());
    for (const oldest of ids.keys()) {
      if (ids.size <= EARLY_COMPLETIONS_PER_SERVER) break;
      ids.delete(oldest);
    }
    this.seen.set(serverId, ids);
  }

  /** True (once) when the server reported this flow complete a moment ago. */
  take(serverId: string, elicitationId: string): boolean {
    return this.fresh(serverId).delete(elicitationId);
  }

  private fresh(serverId: string): Map<string, number> {
    const ids = this.seen.get(serverId) ?? new Map<string, number>();
    const now = this.now();
    for (const [id, at] of ids) if (now - at >= EARLY_COMPLETION_MEMORY_MS) ids.delete(id);
    if (ids.size === 0) this.seen.delete(serverId);
    return ids;
  }
}
