import { clientLibrary } from '../lazyLibraries';

/** An error and its causes, nearest first (bounded: a cause chain can loop). */
function* causes(error: unknown): Generator<unknown> {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** Whether a failure means "authorize (again)": a 401 the provider could not fix, or a 403 step-up. */
export function needsAuthorization(error: unknown): { scope?: string } | undefined {
  const { InsufficientScopeError, UnauthorizedError, SdkError, SdkErrorCode } = clientLibrary();
  for (const e of causes(error)) {
    if (e instanceof InsufficientScopeError) return { scope: e.requiredScope };
    if (e instanceof UnauthorizedError) return {};
    if (e instanceof SdkError && e.code === SdkErrorCode.ClientHttpAuthentication) return {};
  }
  return undefined;
}

/** What the user reads when a server wants a (new) sign-in. */
export function signInReason(target: string, scope: string | undefined): string {
  return scope
    ? `needs you to sign in again with more permission (scope "${scope}"); use Sign In`
    : `needs you to sign in to ${target}; use Sign In`;
}

/**
 * Why a running server now wants a sign-in, if it does: its token expired beyond refresh, or a
 * 403 asks for more scope (step-up; the scope the client library prepared says how much).
 */
export function signInReasonMidSession(error: unknown, provider: object, target: string): string | undefined {
  const wanted = needsAuthorization(error);
  if (!wanted) return undefined;
  return signInReason(target, wanted.scope ?? (provider as { pendingScope?: string }).pendingScope);
}

/**
 * How a failed start stands with authorization: the server wants a sign-in (nothing retries until
 * the user signs in), the flow itself failed (an error that says what is missing), or neither.
 */
export async function authorizationOutcome(
  error: unknown,
  target: string,
): Promise<{ readonly status: 'needs-sign-in' | 'error'; readonly reason: string } | undefined> {
  const wanted = needsAuthorization(error);
  if (wanted) return { status: 'needs-sign-in', reason: signInReason(target, wanted.scope) };
  if (isAuthorizationFlowError(error))
    return { status: 'error', reason: await describeAuthorizationFailure(error, target) };
  return undefined;
}

/** Whether a failure happened inside the OAuth flow (discovery, registration, token endpoint). */
export function isAuthorizationFlowError(error: unknown): boolean {
  const { OAuthClientFlowError, OAuthError } = clientLibrary();
  for (const e of causes(error)) if (e instanceof OAuthClientFlowError || e instanceof OAuthError) return true;
  return false;
}

/**
 * What went wrong when a server asked for authorization and the flow could not even reach a
 * sign-in: most often the server publishes no metadata at all, which the user cannot fix.
 */
export async function describeAuthorizationFailure(error: unknown, serverUrl: string): Promise<string> {
  const url = new URL(serverUrl);
  const info = await clientLibrary()
    .discoverOAuthServerInfo(url)
    .catch(() => undefined);
  if (info && !info.resourceMetadata && !info.authorizationServerMetadata) {
    const prm = `${url.origin}/.well-known/oauth-protected-resource`;
    return (
      `${serverUrl} asks for authorization (HTTP 401) but publishes no authorization metadata: nothing at ${prm}${url.pathname === '/' ? '' : url.pathname} or ${prm}, ` +
      `nor at ${url.origin}/.well-known/oauth-authorization-server, and the default endpoints failed (${(error as Error).message}). ` +
      'Ask the server\'s maintainers how to authorize, or give a token in "headers" ("Authorization": "Bearer ${input:token}")'
    );
  }
  return `signing in to ${serverUrl} failed: ${(error as Error).message}`;
}
