import { chromium, type Browser } from 'playwright-core';
import type { AuthorizationBrowser } from '../../../src/core/auth/signIn';
import { fixture, startListening, type RunningProcess } from './fixtures';

export interface OAuthFixture extends RunningProcess {
  /** The protected MCP endpoint. */
  readonly url: string;
  /** An endpoint that answers 401 and publishes no metadata. */
  readonly bareUrl: string;
  readonly issuer: string;
  /** The authorization server the MCP server moves to on `migrate()`. */
  readonly secondIssuer: string;
  /** The MCP server moves to the second authorization server: its metadata names it, and tokens of the first get 401. */
  migrate(): Promise<void>;
}

/** Starts oidc-provider and the MCP server that trusts only its tokens (test/fixtures/servers/oauthServer.ts). */
export async function startOAuthFixture(args: string[] = []): Promise<OAuthFixture> {
  let issuer = '';
  let secondIssuer = '';
  const running = await startListening(
    process.execPath,
    [fixture('oauthServer'), ...args],
    {},
    /^listening (\d+) (\d+) (\S+) (\d+)/,
    (match) => {
      issuer = `http://${match[3]}:${match[2]}`;
      secondIssuer = `http://${match[3]}:${match[4]}`;
    },
  );
  const migrate = async () => {
    const response = await fetch(`http://127.0.0.1:${running.port}/control/migrate`, { method: 'POST' });
    if (response.status !== 204) throw new Error(`the OAuth fixture did not migrate: HTTP ${response.status}`);
  };
  return {
    ...running,
    url: `http://127.0.0.1:${running.port}/mcp`,
    bareUrl: `http://127.0.0.1:${running.port}/bare/mcp`,
    issuer,
    secondIssuer,
    migrate,
  };
}

/**
 * A person at a real browser (headless Chromium): opens the authorization page, signs in on the
 * authorization server's own login form, consents, and hands back where the browser was sent.
 * Counts how often it was asked, and what each authorization request asked for.
 */
export class LoginBrowser implements AuthorizationBrowser {
  readonly requests: URL[] = [];
  private browser?: Promise<Browser>;

  /** Starts Chromium now, so a measurement does not include its launch. */
  async warm(): Promise<void> {
    await (this.browser ??= this.launch());
  }

  private launch(): Promise<Browser> {
    return chromium.launch({
      executablePath: process.env.MCPHOST_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
  }

  async authorize(
    request: { readonly url: URL; readonly redirectUrl: string },
    signal: AbortSignal,
  ): Promise<URLSearchParams> {
    this.requests.push(request.url);
    this.browser ??= this.launch();
    const page = await (await this.browser).newPage();
    try {
      const redirected = page.waitForRequest((r) => r.url().startsWith(request.redirectUrl), { timeout: 30_000 });
      // Nobody listens on the redirect address here (the request is what counts), so a navigation
      // that ends there fails; Playwright cannot intercept a redirect.
      await page.goto(request.url.toString()).catch(() => undefined);
      for (let step = 0; step < 4 && !signal.aborted; step++) {
        const done = await Promise.race([
          redirected.then(() => true),
          page.waitForLoadState('load').then(
            () => false,
            () => false,
          ),
        ]);
        if (done) break;
        if (await page.locator('input[name="login"]').count()) {
          await page.fill('input[name="login"]', 'ada');
          await page.fill('input[name="password"]', 'secret');
          await page.click('button[type="submit"]');
        } else if (await page.locator('button[type="submit"]').count()) {
          await page.click('button[type="submit"]');
        }
        await page.waitForTimeout(200);
      }
      return new URL((await redirected).url()).searchParams;
    } finally {
      await page.close();
    }
  }

  async close(): Promise<void> {
    if (this.browser) await (await this.browser).close();
  }
}
