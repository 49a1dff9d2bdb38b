// Signing in to a remote MCP server in a real VS Code (code-server) driven through Chromium, against
// a real authorization server (oidc-provider) on loopback: the user sees "needs sign-in", signs in
// on the authorization server's own pages in the browser, and the server runs.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { EditorSession } from '../harness/editorSession';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { startOAuthFixture, type OAuthFixture } from '../../unit/support/oauthFixture';

interface ServerInfo {
  readonly id: string;
  readonly status: string;
  readonly reason?: string;
}

describe('Signing in to a remote server in a real VS Code', function () {
  this.timeout(180_000);
  let fixture: OAuthFixture;
  let editor: EditorSession;
  const server = async (id: string) => (await editor.control<ServerInfo[]>('listServers')).find((s) => s.id === id);
  const page = () => editor.workbench.page;
  const toast = (text: string) => page().locator('.notification-toast').filter({ hasText: text });

  before(async () => {
    fixture = await startOAuthFixture(['--access-token-ttl', '20', '--as-ipv6']);
    const servers = {
      remote: { type: 'http', url: fixture.url },
      // Started by its own scenario, so its notification covers nothing else.
      bare: { type: 'http', url: fixture.bareUrl, restart: { enabled: false }, autoStart: false },
    };
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      { trusted: true, userSettings: { 'mcpHost.servers': servers } },
    );
    await editor.workbench.openMcpView();
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await editor?.stop();
    await fixture?.stop();
  });

  /** The authorization server's pages, as a person fills them: any login, then consent. */
  async function signInAtAuthorizationServer(popup: Page): Promise<void> {
    await popup.waitForLoadState();
    await popup.locator('input[name="login"]').fill('ada');
    await popup.locator('input[name="password"]').fill('correct horse');
    await editor.workbench.screenshotOf(popup, '70-sign-in-login-page');
    await popup.locator('button[type="submit"]').click();
    await popup.locator('button[type="submit"]', { hasText: 'Continue' }).click();
    await popup.getByText('MCP Host received the sign-in').waitFor({ timeout: 30_000 });
    await editor.workbench.screenshotOf(popup, '71-sign-in-done-page');
  }

  async function openedByEditor(click: () => Promise<void>): Promise<Page> {
    const popup = page().context().waitForEvent('page', { timeout: 30_000 });
    await click();
    // VS Code may ask before it opens an outside address.
    const ask = page().locator('.monaco-dialog-box').filter({ hasText: 'open the external website' });
    if (
      await ask.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      )
    )
      await ask.getByRole('button', { name: 'Open', exact: true }).click();
    return popup;
  }

  it('shows "needs sign-in" with a Sign In action, signs in in the browser, and the server runs', async () => {
    assert.equal(await editor.workbench.waitForServerDescription('remote', /^needs sign-in$/, 60_000), 'needs sign-in');
    assert.equal((await server('remote'))?.reason, `needs you to sign in to ${fixture.url}; use Sign In`);
    const notice = toast(`MCP server "remote" needs you to sign in to ${fixture.url}.`);
    await notice.waitFor({ timeout: 30_000 });
    await editor.workbench.screenshot('69-needs-sign-in');
    const popup = await openedByEditor(() => notice.getByRole('button', { name: 'Sign In' }).click());
    await toast('Signing in to MCP server "remote": finish in your browser').waitFor({ timeout: 30_000 });
    await signInAtAuthorizationServer(popup);
    await popup.close();
    assert.match(await editor.workbench.waitForServerDescription('remote', /^\d+ tools/, 60_000), /^\d+ tools/);
    await toast('Signed in to MCP server "remote".').waitFor({ timeout: 30_000 });
    await editor.workbench.screenshot('72-signed-in-running');
    const result = await editor.control<{ content: { text?: string }[] }>('callTool', {
      serverId: 'remote',
      name: 'echo',
      args: { text: 'signed in' },
    });
    assert.equal(result.content[0].text, 'signed in');
  });

  it('stays signed in after a window reload (no browser), and refreshes an expired token without asking', async () => {
    let opened = 0;
    const count = () => opened++;
    page().context().on('page', count);
    try {
      await editor.reloadWindow();
      await editor.workbench.openMcpView();
      await editor.workbench.waitForServerDescription('remote', /^\d+ tools/, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 21_000)); // the fixture's access tokens live 20 s
      const result = await editor.control<{ content: { text?: string }[] }>('callTool', {
        serverId: 'remote',
        name: 'add',
        args: { a: 20, b: 22 },
      });
      assert.equal(result.content[0].text, '42');
      assert.equal((await server('remote'))?.status, 'running');
      assert.equal(opened, 0, 'no browser page opened');
    } finally {
      page().context().off('page', count);
    }
  });

  it('asks again with the wider scope when a tool needs more permission, then the tool runs', async () => {
    await assert.rejects(
      editor.control('callTool', { serverId: 'remote', name: 'pid', args: {} }),
      /needs you to sign in again with more permission \(scope "mcp:tools mcp:admin offline_access"\)/,
    );
    assert.equal(await editor.workbench.waitForServerDescription('remote', /^needs sign-in$/), 'needs sign-in');
    const notice = toast('MCP server "remote" needs you to sign in again with more permission');
    await notice.waitFor({ timeout: 30_000 });
    await editor.workbench.screenshot('73-step-up');
    const popup = await openedByEditor(() => notice.getByRole('button', { name: 'Sign In' }).click());
    await popup.waitForLoadState();
    // Same browser session at the authorization server: consent to the wider scope only.
    const login = popup.locator('input[name="login"]');
    if (await login.isVisible().catch(() => false)) {
      await login.fill('ada');
      await popup.locator('input[name="password"]').fill('correct horse');
      await popup.locator('button[type="submit"]').click();
    }
    await popup.locator('button[type="submit"]', { hasText: 'Continue' }).click();
    await popup.getByText('MCP Host received the sign-in').waitFor({ timeout: 30_000 });
    await popup.close();
    await editor.workbench.waitForServerDescription('remote', /^\d+ tools/, 60_000);
    const result = await editor.control<{ content: { text?: string }[] }>('callTool', {
      serverId: 'remote',
      name: 'pid',
      args: {},
    });
    assert.match(result.content[0].text ?? '', /^\d+$/);
  });

  it('follows the server to a new authorization server: Refresh shows "needs sign-in", never "0 tools", and Sign In goes to the new one', async () => {
    await fixture.migrate();
    await editor.control('executeCommand', { command: 'mcpHost.refresh' });
    assert.equal(
      await editor.workbench.waitForServerDescription('remote', /^needs sign-in$|^0 tools/, 60_000),
      'needs sign-in',
    );
    const notice = toast(`MCP server "remote" needs you to sign in to ${fixture.url}.`);
    await notice.waitFor({ timeout: 30_000 });
    const popup = await openedByEditor(() => notice.getByRole('button', { name: 'Sign In' }).click());
    await popup.waitForLoadState();
    assert.equal(
      new URL(popup.url()).origin,
      fixture.secondIssuer,
      'the sign-in opens the authorization server the metadata names now',
    );
    await signInAtAuthorizationServer(popup);
    await popup.close();
    assert.match(await editor.workbench.waitForServerDescription('remote', /^\d+ tools/, 60_000), /^[1-9]\d* tools/);
  });

  it('lists what Manage Sign-ins shows, signs out from the palette, then nothing is stored', async () => {
    await editor.workbench.runCommand('MCP Host: Manage Sign-ins');
    const item = page().locator('.quick-input-list .monaco-list-row', { hasText: fixture.url });
    await item.waitFor({ timeout: 30_000 });
    const text = (await item.textContent()) ?? '';
    assert.ok(text.includes(fixture.issuer), text);
    // The scope the authorization server granted (it does not list offline_access on resource tokens).
    assert.match(text, /signed in .* · scope: mcp:tools mcp:admin · servers: remote/);
    await editor.workbench.screenshot('74-manage-sign-ins');
    await page().keyboard.press('Escape');

    await editor.workbench.runCommand('MCP Host: Sign Out of Server');
    await page().locator('.quick-input-list .monaco-list-row', { hasText: 'bare' }).waitFor({ timeout: 30_000 });
    await page().locator('.quick-input-widget input').fill('remote');
    await page().keyboard.press('Enter');
    const dialog = await editor.workbench.dialog();
    assert.match((await dialog.textContent()) ?? '', /Sign out of MCP server "remote"\?/);
    await dialog.getByRole('button', { name: 'Sign Out', exact: true }).click();
    assert.equal(await editor.workbench.waitForServerDescription('remote', /^needs sign-in$/), 'needs sign-in');
    assert.match((await server('remote'))?.reason ?? '', /^signed out; use Sign In/);
    await editor.workbench.runCommand('MCP Host: Manage Sign-ins');
    await toast('No MCP server sign-ins are stored.').waitFor({ timeout: 30_000 });
  });

  it('says what is missing when a server answers 401 without any authorization metadata', async () => {
    await editor.control('executeCommand', { command: 'mcpHost.startServer', args: ['bare'] });
    const row = await editor.workbench.waitForServerDescription('bare', /^error: /, 60_000);
    assert.match(row, /asks for authorization \(HTTP 401\) but publishes no authorization metadata/);
    await editor.workbench.screenshot('75-no-authorization-metadata');
  });
});
