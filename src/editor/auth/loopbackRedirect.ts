import { createServer, type Server } from 'node:http';

/** How long a sign-in waits for the browser before it gives up. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:32em;line-height:1.5}</style></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * Listens on the loopback address a redirect URL names (`http://127.0.0.1:PORT/callback`) for
 * one authorization response, then closes. Other paths get 404; nothing from the request is
 * echoed into the page.
 */
export async function listenForRedirect(redirectUrl: string, signal: AbortSignal): Promise<URLSearchParams> {
  const target = new URL(redirectUrl);
  const port = Number(target.port);
  let server: Server | undefined;
  try {
    return await new Promise<URLSearchParams>((resolve, reject) => {
      server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', redirectUrl);
        if (url.pathname !== target.pathname) {
          response.writeHead(404).end();
          return;
        }
        const failed = !url.searchParams.get('code');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        response.end(
          failed
            ? PAGE(
                'Sign-in did not finish',
                'The authorization server did not sign you in. Return to the editor to see why.',
              )
            : PAGE('Signed in', 'MCP Host received the sign-in. You can close this tab and return to the editor.'),
        );
        resolve(url.searchParams);
      });
      server.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            error.code === 'EADDRINUSE'
              ? `port ${port} on 127.0.0.1, where the browser returns after sign-in, is in use by another program; close it or set "oauth.redirectPort"`
              : `cannot listen on ${target.host} for the sign-in redirect: ${error.message}`,
          ),
        ),
      );
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no answer from the browser within ${SIGN_IN_TIMEOUT_MS / 60_000} minutes; sign in again when you are ready`,
            ),
          ),
        SIGN_IN_TIMEOUT_MS,
      );
      server.on('close', () => clearTimeout(timer));
      signal.addEventListener('abort', () => reject(new Error('sign-in was cancelled')), { once: true });
      server.listen(port, target.hostname);
    });
  } finally {
    server?.closeAllConnections();
    server?.close();
  }
}
