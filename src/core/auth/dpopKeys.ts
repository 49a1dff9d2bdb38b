import type { webcrypto } from 'node:crypto';
import type { DpopAlg, DpopKeyPair, DpopSession, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';
import type { SignInRecords, StoredDpopKey } from './signInRecords';

/** The DPoP algorithms MCP Host signs with, best first: elliptic curves, whose keys it can keep as JWKs. */
const CURVES: Readonly<Partial<Record<DpopAlg, string>>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

/**
 * The DPoP session (RFC 9449, SEP-1932) for one resource's current authorization server, when that
 * server advertises DPoP (`dpop_signing_alg_values_supported`) with an algorithm MCP Host signs
 * with: one key pair per authorization server, kept in the credential store so tokens bound to it
 * stay usable in the next window. Undefined otherwise: plain Bearer tokens.
 */
export class DpopKeys {
  private readonly sessions = new Map<string, Promise<DpopSession>>();

  constructor(
    private readonly records: SignInRecords,
    private readonly resource: string,
  ) {}

  async session(): Promise<DpopSession | undefined> {
    const record = await this.records.get(this.resource);
    const server = advertised(record.discovery);
    if (!server) return undefined;
    let session = this.sessions.get(server.issuer);
    if (!session) {
      session = this.load(server.issuer, record.dpopKeys?.[server.issuer], server.alg);
      this.sessions.set(server.issuer, session);
      session.catch(() => this.sessions.delete(server.issuer));
    }
    return session;
  }

  private async load(issuer: string, stored: StoredDpopKey | undefined, alg: DpopAlg): Promise<DpopSession> {
    const { DpopSession, generateDpopKeyPair } = clientLibrary();
    if (stored && CURVES[stored.alg as DpopAlg]) return DpopSession.create({ keyPair: await imported(stored) });
    // Extractable, to be kept in the credential store (the editor's secret storage), and only there.
    const pair = await generateDpopKeyPair({ alg, extractable: true });
    const key: StoredDpopKey = {
      alg,
      privateJwk: await crypto.subtle.exportKey('jwk', pair.privateKey),
      publicJwk: pair.publicJwk as webcrypto.JsonWebKey,
      thumbprint: pair.thumbprint,
    };
    await this.records.update(this.resource, (r) => ({ ...r, dpopKeys: { ...r.dpopKeys, [issuer]: key } }));
    return DpopSession.create({ keyPair: pair });
  }
}

/** The current authorization server's issuer and the algorithm to sign with, if it advertises DPoP. */
function advertised(discovery: OAuthDiscoveryState | undefined): { issuer: string; alg: DpopAlg } | undefined {
  const metadata = discovery?.authorizationServerMetadata as
    { issuer?: unknown; dpop_signing_alg_values_supported?: unknown } | undefined;
  const offered = metadata?.dpop_signing_alg_values_supported;
  if (!Array.isArray(offered)) return undefined;
  const alg = (Object.keys(CURVES) as DpopAlg[]).find((a) => offered.includes(a));
  const issuer = typeof metadata?.issuer === 'string' ? metadata.issuer : discovery?.authorizationServerUrl;
  return alg && issuer ? { issuer, alg } : undefined;
}

async function imported(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const algorithm = { name: 'ECDSA', namedCurve: CURVES[stored.alg as DpopAlg]! };
  return {
    privateKey: await crypto.subtle.importKey('jwk', stored.privateJwk, algorithm, false, ['sign']),
    publicKey: await crypto.subtle.importKey('jwk', stored.publicJwk, algorithm, true, ['verify']),
    publicJwk: stored.publicJwk as DpopKeyPair['publicJwk'],
    thumbprint: stored.thumbprint,
    alg: stored.alg as DpopAlg,
  };
}
