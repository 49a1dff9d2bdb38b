import { resourceKey } from './resourceUris';

/**
 * Subscriptions to resources the user has open, and who watches each: one subscription per server
 * and URI however many watchers (editors) there are, dropped when the last one stops. A watcher
 * may watch the same resource more than once (the editor asks per consumer); each watch counts.
 * Failures are the caller's to report; the bookkeeping stays right either way.
 */
export class ResourceSubscriptions {
  /** Per `resourceKey`: one entry per watch, so a watcher watching twice is still there after one stop. */
  private readonly watches = new Map<string, string[]>();

  constructor(
    private readonly subscribe: (serverId: string, uri: string) => Promise<void>,
    private readonly unsubscribe: (serverId: string, uri: string) => Promise<void>,
  ) {}

  /** `watcher` (an editor) shows the resource; subscribes on the first. */
  async open(serverId: string, uri: string, watcher: string): Promise<void> {
    const key = resourceKey({ serverId, uri });
    const watchers = this.watches.get(key) ?? [];
    watchers.push(watcher);
    this.watches.set(key, watchers);
    if (watchers.length === 1) await this.subscribe(serverId, uri);
  }

  /** One watch of `watcher` ended; unsubscribes after the last. A close without its open changes nothing. */
  async close(serverId: string, uri: string, watcher: string): Promise<void> {
    const key = resourceKey({ serverId, uri });
    const watchers = this.watches.get(key);
    const index = watchers?.indexOf(watcher) ?? -1;
    if (!watchers || index < 0) return;
    watchers.splice(index, 1);
    if (watchers.length > 0) return;
    this.watches.delete(key);
    await this.unsubscribe(serverId, uri);
  }

  /** Who watches the resource now, each once. */
  watchersOf(serverId: string, uri: string): readonly string[] {
    return [...new Set(this.watches.get(resourceKey({ serverId, uri })))];
  }

  isSubscribed(serverId: string, uri: string): boolean {
    return this.watches.has(resourceKey({ serverId, uri }));
  }
}
