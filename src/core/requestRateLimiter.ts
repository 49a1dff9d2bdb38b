/** At most N requests (sampling, elicitation) per server in any sliding minute; the excess is refused. */
export class RequestRateLimiter {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a request and says whether it is within the limit (`undefined` limit: no limit). */
  tryAcquire(serverId: string, maxPerMinute: number | undefined): boolean {
    if (maxPerMinute === undefined) return true;
    const now = this.now();
    const kept = this.recent.get(serverId) ?? [];
    this.recent.set(serverId, kept);
    // Oldest first: drop what left the window from the front (a storm must not cost a copy per request).
    while (kept.length > 0 && now - kept[0] >= 60_000) kept.shift();
    if (kept.length >= maxPerMinute) return false;
    kept.push(now);
    return true;
  }

  /** Milliseconds until the next request would be allowed (0 when it would be now). */
  retryAfterMs(serverId: string, maxPerMinute: number): number {
    const times = this.recent.get(serverId) ?? [];
    if (times.length < maxPerMinute) return 0;
    return Math.max(0, 60_000 - (this.now() - times[times.length - maxPerMinute]));
  }

  /** Records a request; when it is over the limit, the whole seconds until the next one is allowed. */
  refusal(serverId: string, maxPerMinute: number | undefined): number | undefined {
    if (this.tryAcquire(serverId, maxPerMinute)) return undefined;
    return Math.ceil(this.retryAfterMs(serverId, maxPerMinute!) / 1000);
  }
}
