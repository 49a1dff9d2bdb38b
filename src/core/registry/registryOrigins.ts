import { createHash } from 'node:crypto';
import { canonicalJson } from '../config/definitionHash';

/** Where Add Server installed a server from, and the entry it wrote. */
export interface RegistryOrigin {
  /** The registry's address (`mcpHost.registry.url` when it was added). */
  readonly registry: string;
  /** The server's name in the registry, and the version written. */
  readonly name: string;
  readonly version?: string;
  /** A digest of the settings entry Add Server wrote: an entry changed since is not the registry's. */
  readonly fingerprint: string;
}

/** Where the origins live (the editor's global state). */
export interface RegistryOriginStore {
  get(serverId: string): RegistryOrigin | undefined;
  set(serverId: string, origin: RegistryOrigin): Promise<void>;
}

/**
 * Which servers came from an MCP registry, as `chat.mcp.access: "registry"` asks: recorded when
 * Add Server writes an entry from the registry, and true only while the entry is the one it
 * wrote. A hand-written entry, or one edited since, is not from the registry; a field in
 * settings cannot claim it.
 */
export class RegistryOrigins {
  constructor(private readonly store: RegistryOriginStore) {}

  remember(serverId: string, entry: unknown, origin: Omit<RegistryOrigin, 'fingerprint'>): Promise<void> {
    return this.store.set(serverId, { ...origin, fingerprint: fingerprint(entry) });
  }

  /** The registry the entry `raw` of `serverId` was installed from, when it is the entry Add Server wrote. */
  registryOf(serverId: string, raw: unknown): string | undefined {
    const origin = this.store.get(serverId);
    return origin && typeof origin.registry === 'string' && origin.fingerprint === fingerprint(raw)
      ? origin.registry
      : undefined;
  }
}

function fingerprint(entry: unknown): string {
  return createHash('sha256').update(canonicalJson(entry)).digest('hex');
}
