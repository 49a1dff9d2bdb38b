import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';
import type { OAuthSettings, ResolvedServerDefinition } from '../config/serverDefinition';
import { ServerOAuthProvider } from './serverOAuthProvider';
import { authorizeWithoutBrowser, signIn, type AuthorizationBrowser } from './signIn';
import { SignInRecords, type CredentialStore } from './signInRecords';
import { WorkloadIdentityProvider } from './workloadIdentityProvider';
import { spawnsProcess } from '../config/transportKinds';

export interface HostAuthorizationOptions {
  readonly store: CredentialStore;
  readonly browser: AuthorizationBrowser;
  /** The `client_name` the host registers with. */
  readonly clientName: string;
  /** Reaches authorization servers (the editor's proxy and certificates); the global fetch without it. */
  readonly fetch?: FetchLike;
  /** Overrides every server's loopback redirect (a front end with its own callback). */
  readonly redirectUrl?: string;
}

/** What is stored for one resource, as "Manage Sign-ins" lists it (never a token). */
export interface StoredSignIn {
  readonly resource: string;
  readonly issuers: readonly string[];
  readonly savedAt?: number;
  readonly scope?: string;
}

/**
 * Authorization for every HTTP server of a host: one OAuth provider per server (kept so a
 * sign-in sees what the server's last 401 or 403 asked for), credentials in a store, and at most
 * one sign-in per resource at a time however many requests or clicks ask for one.
 */
export class HostAuthorization {
  readonly records: SignInRecords;
  private readonly providers = new Map<string, OAuthClientProvider>();
  private readonly signIns = new Map<string, Promise<void>>();

  constructor(private readonly options: HostAuthorizationOptions) {
    this.records = new SignInRecords(options.store);
  }

  /**
   * The provider a server's transport authorizes with, or none: stdio servers, and servers whose
   * settings give their own `Authorization` header (a 401 then means that header is wrong).
   */
  providerFor(def: ResolvedServerDefinition): OAuthClientProvider | undefined {
    if (spawnsProcess(def.transport) || !def.url) return undefined;
    if (Object.keys(def.headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
    const provider = this.createProvider(def.url, def.oauth ?? {});
    this.providers.set(def.id, provider);
    return provider;
  }

  /** Whether signing in to this server opens a browser (the authorization code grant). */
  isInteractive(def: { readonly oauth?: OAuthSettings }): boolean {
    return (def.oauth?.grant ?? 'authorizationCode') === 'authorizationCode';
  }

  /** Signs in to a server's authorization server; concurrent calls for one resource share it. */
  signIn(def: ResolvedServerDefinition, signal: AbortSignal): Promise<void> {
    const resource = def.url;
    if (!resource) return Promise.reject(new Error(`MCP server "${def.id}" is not an HTTP server; only those sign in`));
    const running = this.signIns.get(resource);
    if (running) return running;
    const provider = this.providers.get(def.id) ?? this.providerFor(def);
    if (!provider)
      return Promise.reject(
        new Error(
          `MCP server "${def.id}" sends its own "Authorization" header; remove it from "headers" to sign in with OAuth`,
        ),
      );
    const flight = (
      provider instanceof ServerOAuthProvider
        ? signIn(provider, {
            serverId: def.id,
            serverUrl: resource,
            scopes: def.oauth?.scopes,
            browser: this.options.browser,
            signal,
            fetchFn: this.options.fetch,
          })
        : authorizeWithoutBrowser(provider, resource, def.oauth?.scopes, this.options.fetch)
    ).finally(() => this.signIns.delete(resource));
    this.signIns.set(resource, flight);
    return flight;
  }

  /** Forgets what is stored for a server's URL: tokens and registered clients, every issuer. */
  async signOut(resource: string): Promise<void> {
    await this.records.forget(resource);
  }

  async stored(): Promise<StoredSignIn[]> {
    const found: StoredSignIn[] = [];
    for (const resource of await this.records.resources()) {
      const record = await this.records.get(resource);
      // Discovery results alone are no sign-in.
      if (Object.keys(record.tokens).length + Object.keys(record.clients).length === 0) continue;
      const latest = record.lastIssuer ? record.tokens[record.lastIssuer] : undefined;
      found.push({
        resource,
        issuers: [...new Set([...Object.keys(record.tokens), ...Object.keys(record.clients)])],
        savedAt: latest?.savedAt,
        scope: latest?.scope,
      });
    }
    return found;
  }

  private createProvider(resource: string, oauth: OAuthSettings): OAuthClientProvider {
    const scope = oauth.scopes?.join(' ') || undefined;
    const grant = oauth.grant ?? 'authorizationCode';
    const { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } =
      clientLibrary();
    if (grant === 'clientCredentials') {
      const clientId = required(oauth.clientId, 'oauth.clientId', grant);
      if (oauth.privateKey)
        return new PrivateKeyJwtProvider({
          clientId,
          privateKey: oauth.privateKey,
          algorithm: oauth.signingAlgorithm ?? 'ES256',
          clientName: this.options.clientName,
          scope,
        });
      return new ClientCredentialsProvider({
        clientId,
        clientSecret: required(oauth.clientSecret, 'oauth.clientSecret (or oauth.privateKey)', grant),
        clientName: this.options.clientName,
        scope,
      });
    }
    if (grant === 'workloadIdentity') {
      return new WorkloadIdentityProvider({
        clientId: required(oauth.clientId, 'oauth.clientId', grant),
        clientName: this.options.clientName,
        assertion: oauth.assertion,
        assertionFile: oauth.assertionFile,
        scope,
      });
    }
    if (grant === 'crossAppAccess') {
      const idp = oauth.idp;
      if (!idp) throw new Error('"oauth.idp" is required for the crossAppAccess grant');
      return new CrossAppAccessProvider({
        clientId: required(oauth.clientId, 'oauth.clientId', grant),
        clientSecret: required(oauth.clientSecret, 'oauth.clientSecret', grant),
        clientName: this.options.clientName,
        assertion: async (ctx) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: idp.tokenEndpoint,
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken: idp.idToken,
              clientId: idp.clientId,
              clientSecret: idp.clientSecret,
              scope: ctx.scope,
              fetchFn: ctx.fetchFn,
            })
          ).jwtAuthGrant,
      });
    }
    return new ServerOAuthProvider({
      resource,
      settings: oauth,
      records: this.records,
      clientName: this.options.clientName,
      redirectUrl: this.options.redirectUrl,
    });
  }
}

function required(value: string | undefined, field: string, grant: string): string {
  if (!value) throw new Error(`"${field}" is required for the ${grant} grant`);
  return value;
}
