import { randomBytes } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../config/serverDefinition';
import { DpopKeys } from './dpopKeys';
import type { SignInRecords } from './signInRecords';

export const DEFAULT_REDIRECT_PORT = 33418;

/** The loopback address the browser returns to after sign-in (RFC 8252 §7.3). */
export function loopbackRedirectUrl(oauth: OAuthSettings | undefined): string {
  return `http://127.0.0.1:${oauth?.redirectPort ?? DEFAULT_REDIRECT_PORT}/callback`;
}

export interface ServerOAuthProviderOptions {
  /** The MCP server's URL: the protected resource, and the key its credentials are kept under. */
  readonly resource: string;
  readonly settings?: OAuthSettings;
  readonly records: SignInRecords;
  readonly clientName: string;
  /** Overrides the loopback redirect (tests, other front ends). */
  readonly redirectUrl?: string;
}

/** An authorization request the client library prepared and wants a browser to open. */
export interface PendingAuthorization {
  readonly url: URL;
  readonly state: string;
}

/**
 * The host's side of the client library's OAuth flow for one server: where credentials live
 * (per resource, per issuer), and what the redirect does. It never opens a browser itself: it
 * records the authorization URL, and a sign-in the user asked for takes it (see `signIn`).
 * Requests that meet a 401 without usable tokens therefore end in "needs sign-in", never in a
 * browser window nobody asked for.
 */
export class ServerOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private currentState?: string;
  private pending?: PendingAuthorization;
  private readonly dpopKeys: DpopKeys;

  constructor(private readonly options: ServerOAuthProviderOptions) {
    this.dpopKeys = new DpopKeys(options.records, options.resource);
  }

  /** Tokens bound to a key (DPoP) when the authorization server offers it, unless `oauth.dpop` is false. */
  async dpop(): Promise<DpopSession | undefined> {
    return this.options.settings?.dpop === false ? undefined : this.dpopKeys.session();
  }

  get resource(): string {
    return this.options.resource;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? loopbackRedirectUrl(this.options.settings);
  }

  get clientMetadataUrl(): string | undefined {
    // A pre-registered client never identifies itself by a metadata document.
    return this.options.settings?.clientId ? undefined : this.options.settings?.clientMetadataUrl;
  }

  /** Whether the client id comes from Dynamic Client Registration (neither settings nor a metadata document). */
  get registersDynamically(): boolean {
    return !this.options.settings?.clientId && !this.options.settings?.clientMetadataUrl;
  }

  /** Whether the registered client (if any) was registered for every scope in `scope`. */
  async registrationCovers(scope: string | undefined): Promise<boolean> {
    const registered = (await this.clientInformation()) as { scope?: string } | undefined;
    if (!registered?.scope || !scope) return true;
    const granted = new Set(registered.scope.split(' '));
    return scope.split(' ').every((s) => granted.has(s));
  }

  get clientMetadata(): OAuthClientMetadata {
    const settings = this.options.settings;
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: settings?.clientSecret ? 'client_secret_basic' : 'none',
      application_type: 'native',
      ...(settings?.scopes?.length ? { scope: settings.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.currentState = randomBytes(24).toString('base64url');
    return this.currentState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const settings = this.options.settings;
    if (settings?.clientId)
      return {
        client_id: settings.clientId,
        ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
      };
    const record = await this.options.records.get(this.resource);
    const issuer = ctx?.issuer ?? record.lastIssuer;
    return issuer ? record.clients[issuer] : undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer) return;
    await this.options.records.update(this.resource, (r) => ({ ...r, clients: { ...r.clients, [issuer]: info } }));
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.options.records.get(this.resource);
    const issuer = ctx?.issuer ?? record.lastIssuer;
    if (!issuer) return undefined;
    const stored = record.tokens[issuer];
    if (!stored) return undefined;
    const { savedAt: _savedAt, ...tokens } = stored;
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) return;
    await this.options.records.update(this.resource, (r) => ({
      ...r,
      lastIssuer: issuer,
      tokens: { ...r.tokens, [issuer]: { ...tokens, savedAt: Date.now() } },
    }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.pending = {
      url: authorizationUrl,
      state: authorizationUrl.searchParams.get('state') ?? this.currentState ?? '',
    };
  }

  /** The authorization request prepared last, once: a sign-in opens it in the browser. */
  takePendingAuthorization(): PendingAuthorization | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  /** The scope the last prepared authorization asked for (a 403 step-up widens it). */
  get pendingScope(): string | undefined {
    return this.pending?.url.searchParams.get('scope') ?? undefined;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is in progress for this server (no PKCE code verifier)');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.records.update(this.resource, (r) => ({ ...r, discovery: state }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.options.records.get(this.resource)).discovery;
  }

  /**
   * Forgets which authorization server the resource named and its metadata, keeping where the
   * resource's own metadata is (its 401 may have said so): the next authorization reads both again.
   */
  async rediscoverAuthorizationServer(): Promise<void> {
    // A state without `authorizationServerUrl` makes the library discover again, from this URL.
    const keep = (url: string) => ({ resourceMetadataUrl: url }) as OAuthDiscoveryState;
    await this.options.records.update(this.resource, (r) => ({
      ...r,
      discovery: r.discovery?.resourceMetadataUrl ? keep(r.discovery.resourceMetadataUrl) : undefined,
    }));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'verifier') return;
    await this.options.records.update(this.resource, (r) => {
      const issuer = r.lastIssuer;
      if (scope === 'all') return { resource: r.resource, clients: {}, tokens: {} };
      if (scope === 'discovery') return { ...r, discovery: undefined };
      if (!issuer) return r;
      const without = <T>(map: Readonly<Record<string, T>>) =>
        Object.fromEntries(Object.entries(map).filter(([key]) => key !== issuer));
      return scope === 'client' ? { ...r, clients: without(r.clients) } : { ...r, tokens: without(r.tokens) };
    });
  }
}
