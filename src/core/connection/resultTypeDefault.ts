/** Requests whose answer is awaited at once, at most (a bound on what is remembered). */
const MAX_PENDING = 10_000;
/** The `_meta` key a 2026-07-28 request carries its protocol revision under. */
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/**
 * Reads a 2026-07-28 result without `resultType` as complete, the way the specification says a
 * client must read an absent `resultType`: the client library rejects such a result outright.
 * Remembers which outgoing requests were made at a 2026-07-28 (or later) revision, fills in
 * `resultType: "complete"` on their answers that lack it, and says so once per method.
 */
export class ResultTypeDefault {
  private readonly pending = new Map<string | number, string>();
  private readonly told = new Set<string>();

  constructor(private readonly warn: (message: string) => void) {}

  /** Notes an outgoing request made at a 2026-07-28 or later revision. */
  sent(message: unknown): void {
    const m = message as { id?: string | number; method?: string; params?: { _meta?: Record<string, unknown> } };
    if (m.id === undefined || typeof m.method !== 'string') return;
    const revision = m.params?._meta?.[PROTOCOL_VERSION_META];
    if (typeof revision !== 'string' || revision < '2026-07-28') return;
    this.pending.set(m.id, m.method);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }

  /** An answer to such a request that has no `resultType` gets `"complete"`. */
  received<T>(message: T): T {
    const m = message as { id?: string | number; method?: string; result?: Record<string, unknown> };
    if (m.method !== undefined || m.id === undefined) return message;
    const method = this.pending.get(m.id);
    if (method === undefined) return message;
    this.pending.delete(m.id);
    const result = m.result;
    if (typeof result !== 'object' || result === null || Array.isArray(result) || 'resultType' in result)
      return message;
    if (!this.told.has(method)) {
      this.told.add(method);
      this.warn(
        `The server answered ${method} without "resultType", which protocol revision 2026-07-28 requires; MCP Host reads it as "complete", as the specification says a client must.`,
      );
    }
    return { ...message, result: { ...result, resultType: 'complete' } } as T;
  }
}
