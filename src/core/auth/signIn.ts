import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';
import type { ServerOAuthProvider } from './serverOAuthProvider';

/** Shows the user an authorization page and brings back where the browser was sent afterwards. */
export interface AuthorizationBrowser {
  /**
   * Opens `url` (the editor: the user's browser; headless: follows it without one) and resolves
   * with the query of the redirect to `redirectUrl` (code, state, iss, or error).
   */
  authorize(
    request: { readonly serverId: string; readonly url: URL; readonly redirectUrl: string },
    signal: AbortSignal,
  ): Promise<URLSearchParams>;
}

/** Sign-in failed in a way the user should read; says what to do. */
export class SignInError extends Error {
  constructor(
    message: string,
    /** The `error` code of the authorization response, when it carried one. */
    readonly oauthError?: string,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

export interface SignInRequest {
  readonly serverId: string;
  readonly serverUrl: string;
  /** Scopes from settings; joined with what the server's last challenge asked for. */
  readonly scopes?: readonly string[];
  readonly browser: AuthorizationBrowser;
  readonly signal: AbortSignal;
  /** Reaches the authorization server (the editor's proxy and certificates). */
  readonly fetchFn?: FetchLike;
}

/**
 * One interactive sign-in, driven by the client library's `auth()`: discovery, registration and
 * PKCE happen there; here the browser round trip, and the `state` check the library leaves to
 * its caller. The scope is the union of the settings and the server's last challenge (a 403
 * `insufficient_scope` step-up widens it).
 */
export async function signIn(provider: ServerOAuthProvider, request: SignInRequest): Promise<void> {
  const scope = clientLibrary().computeScopeUnion(request.scopes?.join(' '), provider.pendingScope);
  // The server's protected-resource metadata is read afresh: it may now name another authorization
  // server (SEP-2352), and a client registered with the old one must not be presented to the new
  // one. Registrations and tokens stay kept per issuer.
  await provider.rediscoverAuthorizationServer();
  // A client registered for fewer scopes than this sign-in asks for is registered again first.
  if (provider.registersDynamically && !(await provider.registrationCovers(scope)))
    await provider.invalidateCredentials('client');
  try {
    await signInOnce(provider, request, scope);
  } catch (error) {
    // A dynamically registered client may be limited to the scopes it registered with: a step-up
    // then meets invalid_scope. Registering again, for the wider scope, is what fixes that.
    if (!(error instanceof SignInError && error.oauthError === 'invalid_scope') || !provider.registersDynamically)
      throw error;
    await provider.invalidateCredentials('client');
    await signInOnce(provider, request, scope);
  }
}

async function signInOnce(
  provider: ServerOAuthProvider,
  request: SignInRequest,
  scope: string | undefined,
): Promise<void> {
  provider.takePendingAuthorization();
  const first = await clientLibrary().auth(provider, {
    serverUrl: request.serverUrl,
    scope,
    forceReauthorization: true,
    fetchFn: request.fetchFn,
  });
  if (first === 'AUTHORIZED') return;
  const pending = provider.takePendingAuthorization();
  if (!pending)
    throw new SignInError('the client library asked for a browser sign-in but prepared no authorization request');
  const params = await request.browser.authorize(
    { serverId: request.serverId, url: pending.url, redirectUrl: provider.redirectUrl },
    request.signal,
  );
  if (request.signal.aborted) throw new SignInError('sign-in was cancelled');
  if (params.get('state') !== pending.state) {
    throw new SignInError(
      'the browser came back with a response that does not belong to this sign-in (its "state" differs); nothing was saved. Sign in again.',
    );
  }
  const code = params.get('code');
  if (!code) {
    // The error text of a response is attacker-controlled in a mix-up attack: show its code only.
    const raw = params.get('error');
    const error =
      raw === null ? null : /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(raw) ? raw : 'an error code that is not one';
    throw new SignInError(
      error === 'access_denied'
        ? 'you declined the sign-in at the authorization server'
        : `the authorization server did not sign you in (${error ?? 'its answer had no authorization code'})`,
      error ?? undefined,
    );
  }
  const result = await clientLibrary().auth(provider, {
    serverUrl: request.serverUrl,
    authorizationCode: code,
    iss: params.get('iss') ?? undefined,
    fetchFn: request.fetchFn,
  });
  if (result !== 'AUTHORIZED')
    throw new SignInError('the authorization server did not issue a token for the code it returned');
}

/** Non-interactive grants (client credentials, cross-app access): one `auth()` call, no browser. */
export async function authorizeWithoutBrowser(
  provider: OAuthClientProvider,
  serverUrl: string,
  scopes?: readonly string[],
  fetchFn?: FetchLike,
): Promise<void> {
  const result = await clientLibrary().auth(provider, { serverUrl, scope: scopes?.join(' ') || undefined, fetchFn });
  if (result !== 'AUTHORIZED')
    throw new SignInError('the authorization server asked for a browser sign-in, which this grant cannot do');
}
