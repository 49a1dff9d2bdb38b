/**
 * Subscriptions to resources the user has open: one subscription per server and URI however many
 * editors show it, dropped when the last one closes. Failures are the caller's to report; the
 * count stays right either way.
 */
export class ResourceSubscriptions {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly subscribe: (serverId: string, uri: string) => Promise<void>,
    private readonly unsubscribe: (serverId: string, uri: string) => Promise<void>,
  ) {}

  /** An editor opened the resource; subscribes on the first. */
  async open(serverId: string, uri: string): Promise<void> {
    const key = keyOf(serverId, uri);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count === 1) await this.subscribe(serverId, uri);
  }

  /** An editor closed it; unsubscribes after the last. */
  async close(serverId: string, uri: string): Promise<void> {
    const key = keyOf(serverId, uri);
    const count = (this.counts.get(key) ?? 0) - 1;
    if (count > 0) {
      this.counts.set(key, count);
      return;
    }
    if (!this.counts.delete(key)) return;
    await this.unsubscribe(serverId, uri);
  }

  isSubscribed(serverId: string, uri: string): boolean {
    return this.counts.has(keyOf(serverId, uri));
  }
}

const keyOf = (serverId: string, uri: string) => `${serverId}\u0000${uri}`;
