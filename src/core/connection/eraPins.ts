import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';

/**
 * Remembers the protocol era a definition negotiated, so the next connect skips the probe
 * (on stdio, `auto` probes with a second short-lived process). Keyed by definition hash.
 */
export interface EraPinStore {
  get(definitionHash: string): PriorDiscovery | undefined;
  set(definitionHash: string, prior: PriorDiscovery): Promise<void> | void;
  delete(definitionHash: string): Promise<void> | void;
}

export class InMemoryEraPinStore implements EraPinStore {
  private readonly pins = new Map<string, PriorDiscovery>();
  get(hash: string): PriorDiscovery | undefined {
    return this.pins.get(hash);
  }
  set(hash: string, prior: PriorDiscovery): void {
    this.pins.set(hash, prior);
  }
  delete(hash: string): void {
    this.pins.delete(hash);
  }
}

export function pinFor(
  era: 'legacy' | 'modern' | undefined,
  discover: DiscoverResult | undefined,
): PriorDiscovery | undefined {
  if (era === 'legacy') return { kind: 'legacy' };
  if (era === 'modern' && discover) return { kind: 'modern', discover };
  return undefined;
}
