/** What the stream needs of an open `subscriptions/listen` request. */
export interface ListenHandle {
  close(): Promise<void>;
}

/**
 * 2026-07-28 resource subscriptions: one `subscriptions/listen` stream whose `resourceSubscriptions`
 * are the URIs the user has open. When the set changes a stream with the new set opens first and
 * the old one closes after, so no update falls between them. Changes apply one at a time.
 */
export class ResourceUpdateStream {
  private readonly uris = new Set<string>();
  private current: ListenHandle | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly listen: (uris: readonly string[]) => Promise<ListenHandle>) {}

  /** Adds URIs to the stream's set; one new stream however many. */
  add(...uris: string[]): Promise<void> {
    const added = uris.filter((uri) => !this.uris.has(uri));
    if (added.length === 0) return this.queue;
    for (const uri of added) this.uris.add(uri);
    return this.reopen();
  }

  remove(...uris: string[]): Promise<void> {
    const removed = uris.filter((uri) => this.uris.delete(uri));
    if (removed.length === 0) return this.queue;
    return this.reopen();
  }

  /** The URIs the open stream asks updates for. */
  get subscribed(): readonly string[] {
    return [...this.uris];
  }

  /** Ends the stream (the session is ending); the set is forgotten. */
  close(): Promise<void> {
    this.uris.clear();
    return this.reopen();
  }

  private reopen(): Promise<void> {
    const run = this.queue.then(async () => {
      const previous = this.current;
      this.current = undefined;
      try {
        if (this.uris.size > 0) this.current = await this.listen([...this.uris]);
      } finally {
        await previous?.close().catch(() => undefined);
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
