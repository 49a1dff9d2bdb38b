import type { Resource } from '@modelcontextprotocol/client';

/** One `resources/list` answer. */
export interface ResourcePage {
  readonly resources: readonly Resource[];
  readonly nextCursor?: string;
  /** 2026-07-28: how long the page may be considered fresh. */
  readonly ttlMs?: number;
}

/**
 * A server's resource list, fetched one page at a time as the user asks for more (never the whole
 * list at once). Freshness follows the first page's `ttlMs` (re-fetched from the start once stale,
 * the spec's way to a consistent list); without a `ttlMs` the list holds until `list_changed` or
 * an explicit reload. A cursor the server rejects, or one that repeats, starts over from page one.
 */
export class ResourcePages {
  private loaded: readonly Resource[] = [];
  private cursor: string | undefined;
  private expiresAt: number | undefined;
  /** Bumped by every reload and clear: a page that arrives for an older list is dropped. */
  private generation = 0;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<ResourcePage>,
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get items(): readonly Resource[] {
    return this.loaded;
  }

  /** Whether the server has pages the host has not fetched yet. */
  get hasMore(): boolean {
    return this.cursor !== undefined;
  }

  /** Whether the server's `ttlMs` has run out since the first page arrived. */
  get isStale(): boolean {
    return this.expiresAt !== undefined && this.now() >= this.expiresAt;
  }

  /** Fetches the first page again, replacing everything loaded so far. */
  reload(): Promise<void> {
    const generation = ++this.generation;
    const run = this.fetchPage(undefined).then((page) => {
      if (generation !== this.generation) return;
      this.loaded = [...page.resources];
      this.cursor = page.nextCursor || undefined;
      this.expiresAt = freshUntil(page.ttlMs, this.now());
    });
    return this.track(run);
  }

  /** Fetches the next page and appends it; a second call while one runs waits for the same page. */
  loadMore(): Promise<void> {
    if (this.pending) return this.pending;
    if (this.cursor === undefined) return Promise.resolve();
    const generation = this.generation;
    const cursor = this.cursor;
    const run = this.fetchPage(cursor).then(
      (page) => {
        if (generation !== this.generation) return;
        this.loaded = [...this.loaded, ...page.resources];
        this.cursor = page.nextCursor || undefined;
        if (this.cursor === cursor) {
          this.warn(
            `resources/list returned the cursor it was given (${JSON.stringify(cursor)}); there is nothing more to load.`,
          );
          this.cursor = undefined;
        }
      },
      async (error: Error) => {
        if (generation !== this.generation) return;
        // The spec: a cursor that stopped working means starting over from the first page.
        this.warn(`resources/list refused a cursor (${error.message}); loading the list again from the start.`);
        await this.reload();
      },
    );
    return this.track(run);
  }

  /** Loads every remaining page, calling `onPage` after each; stops when `signal` aborts. */
  async loadAll(signal: AbortSignal, onPage: () => void): Promise<void> {
    while (this.hasMore && !signal.aborted) {
      await this.loadMore();
      onPage();
    }
  }

  /** The page in flight, so a "Load more" pressed twice fetches one page. */
  private track(run: Promise<void>): Promise<void> {
    const settled = run.finally(() => {
      if (this.pending === settled) this.pending = undefined;
    });
    settled.catch(() => undefined); // the caller of `run` hears the error
    this.pending = settled;
    return run;
  }

  clear(): void {
    this.generation++;
    this.loaded = [];
    this.cursor = undefined;
    this.expiresAt = undefined;
    this.pending = undefined;
  }
}

/** Absent `ttlMs`: no hint, hold until told; negative counts as 0 (immediately stale). */
function freshUntil(ttlMs: number | undefined, now: number): number | undefined {
  if (typeof ttlMs !== 'number' || Number.isNaN(ttlMs)) return undefined;
  return now + Math.max(0, ttlMs);
}
