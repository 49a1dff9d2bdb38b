import type { webcrypto } from 'node:crypto';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** Where the host keeps credentials: the editor's SecretStorage, memory when headless. */
export interface CredentialStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What the host keeps for one protected resource (an MCP server URL), by authorization server. */
export interface SignInRecord {
  readonly resource: string;
  /** Registered (or metadata-document) clients, by issuer: a client id belongs to one issuer. */
  readonly clients: Readonly<Record<string, StoredOAuthClientInformation>>;
  /** Tokens by issuer, with when they were saved (to tell how old a sign-in is). */
  readonly tokens: Readonly<Record<string, StoredOAuthTokens & { readonly savedAt: number }>>;
  /** The issuer whose tokens were saved last: the one requests use. */
  readonly lastIssuer?: string;
  readonly discovery?: OAuthDiscoveryState;
  /** DPoP signing keys by issuer (RFC 9449): the tokens an issuer binds to a key need that key. */
  readonly dpopKeys?: Readonly<Record<string, StoredDpopKey>>;
}

/** A DPoP key pair as kept in the credential store (JWKs; the private one never leaves it but to sign). */
export interface StoredDpopKey {
  readonly alg: string;
  readonly privateJwk: webcrypto.JsonWebKey;
  readonly publicJwk: webcrypto.JsonWebKey;
  readonly thumbprint: string;
}

const RECORD_PREFIX = 'mcpHost.oauth:';
const INDEX_KEY = 'mcpHost.oauth.index';
/** A corrupt or hostile entry never grows without bound. */
const MAX_RECORD_CHARS = 256 * 1024;

/**
 * Sign-in records in a credential store, one JSON entry per resource plus an index of resources.
 * Reads are cached and writes to one resource are serialized, so concurrent saves (client
 * information, then tokens) never lose each other.
 */
export class SignInRecords {
  private readonly cache = new Map<string, Promise<SignInRecord>>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: CredentialStore) {}

  get(resource: string): Promise<SignInRecord> {
    let record = this.cache.get(resource);
    if (!record) {
      record = this.load(resource);
      this.cache.set(resource, record);
    }
    return record;
  }

  /** Applies a change to one resource's record and persists it (in order with other writes). */
  update(resource: string, change: (record: SignInRecord) => SignInRecord): Promise<SignInRecord> {
    const run = this.writes.then(async () => {
      const next = change(await this.get(resource));
      this.cache.set(resource, Promise.resolve(next));
      const empty = Object.keys(next.clients).length === 0 && Object.keys(next.tokens).length === 0 && !next.discovery;
      if (empty) await this.store.delete(RECORD_PREFIX + resource);
      else await this.store.set(RECORD_PREFIX + resource, JSON.stringify(next));
      await this.index(resource, !empty);
      return next;
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Every resource with something stored, for "Manage Sign-ins". */
  async resources(): Promise<string[]> {
    return parseList(await this.store.get(INDEX_KEY));
  }

  async forget(resource: string): Promise<void> {
    await this.update(resource, () => emptyRecord(resource));
  }

  private async load(resource: string): Promise<SignInRecord> {
    const text = await this.store.get(RECORD_PREFIX + resource);
    if (!text || text.length > MAX_RECORD_CHARS) return emptyRecord(resource);
    try {
      const parsed = JSON.parse(text) as Partial<SignInRecord>;
      return { ...emptyRecord(resource), ...parsed, resource };
    } catch {
      return emptyRecord(resource);
    }
  }

  private async index(resource: string, present: boolean): Promise<void> {
    const list = parseList(await this.store.get(INDEX_KEY));
    const has = list.includes(resource);
    if (present === has) return;
    const next = present ? [...list, resource] : list.filter((r) => r !== resource);
    await this.store.set(INDEX_KEY, JSON.stringify(next));
  }
}

export function emptyRecord(resource: string): SignInRecord {
  return { resource, clients: {}, tokens: {} };
}

function parseList(text: string | undefined): string[] {
  try {
    const list = JSON.parse(text ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** A credential store in memory: headless clients and tests. */
export class MemoryCredentialStore implements CredentialStore {
  readonly entries = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    this.entries.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}
