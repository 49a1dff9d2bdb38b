import type { AuthorizationBrowser } from '../core/auth/signIn';

const MAX_HOPS = 10;

/**
 * The browser step without a browser, as the conformance suite's reference client does it:
 * request the authorization URL, follow redirects by hand until one points at the redirect URL,
 * and read the answer from it. Works with authorization servers that approve without a login
 * page (test servers); anything else ends with a clear error.
 */
export class RedirectFollowingBrowser implements AuthorizationBrowser {
  async authorize(
    request: { readonly url: URL; readonly redirectUrl: string },
    signal: AbortSignal,
  ): Promise<URLSearchParams> {
    let next = request.url;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const response = await fetch(next, { redirect: 'manual', signal });
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location)
        throw new Error(
          `the authorization page at ${next.origin}${next.pathname} wants a person (HTTP ${response.status}, no redirect)`,
        );
      const target = new URL(location, next);
      if (
        `${target.origin}${target.pathname}` ===
        new URL(request.redirectUrl).origin + new URL(request.redirectUrl).pathname
      )
        return target.searchParams;
      next = target;
    }
    throw new Error(`the authorization server redirected more than ${MAX_HOPS} times`);
  }
}
