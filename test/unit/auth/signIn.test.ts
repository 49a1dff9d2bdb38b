import * as assert from 'node:assert/strict';
import { HostAuthorization } from '../../../src/core/auth/hostAuthorization';
import { MemoryCredentialStore } from '../../../src/core/auth/signInRecords';
import type { McpHost } from '../../../src/core/host/mcpHost';
import { RecordingLog, waitFor } from '../support/fixtures';
import { entries, harness } from '../support/hostHarness';
import { LoginBrowser, startOAuthFixture, type OAuthFixture } from '../support/oauthFixture';

const settled = (host: McpHost, id: string) =>
  waitFor(
    `${id} to settle`,
    () => {
      const s = host.server(id);
      return s && !['starting', 'stopping', 'restarting'].includes(s.status) && s;
    },
    20_000,
  );

describe('sign-in against a real authorization server (oidc-provider on loopback)', function () {
  this.timeout(90_000);
  let fixture: OAuthFixture;
  let browser: LoginBrowser;
  let store: MemoryCredentialStore;
  let setup: ReturnType<typeof harness>;

  beforeEach(async () => {
    fixture = await startOAuthFixture(['--access-token-ttl', '3']);
    browser = new LoginBrowser();
    store = new MemoryCredentialStore();
    setup = harness({ authorization: new HostAuthorization({ store, browser, clientName: 'MCP Host tests' }) });
  });

  afterEach(async () => {
    await setup.host.dispose();
    await browser.close();
    await fixture.stop();
  });

  it('shows "needs sign-in" on a 401, signs in through the login and consent pages, and runs; tokens stay out of the log', async () => {
    const { host, logs } = setup;
    logs.set('remote', new RecordingLog('trace')); // every JSON-RPC message in the log, too
    await host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
    const before = await settled(host, 'remote');
    assert.equal(before.status, 'needs-sign-in');
    assert.equal(before.reason, `needs you to sign in to ${fixture.url}; use Sign In`);
    assert.equal(browser.requests.length, 0, 'no browser opens before the user asks');

    await host.signIn('remote', AbortSignal.timeout(60_000));
    const after = await settled(host, 'remote');
    assert.equal(after.status, 'running', after.reason);
    const result = await host.callTool('remote', 'echo', { text: 'hi' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);

    assert.equal(browser.requests.length, 1);
    const asked = browser.requests[0].searchParams;
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('resource'), fixture.url);
    // The challenge's scope, and offline_access because the server supports refresh tokens.
    assert.equal(asked.get('scope'), 'mcp:tools offline_access');
    // Stored by resource, then by issuer; the client id belongs to that issuer.
    const record = JSON.parse(store.entries.get(`mcpHost.oauth:${fixture.url}`) ?? '{}');
    assert.deepEqual(Object.keys(record.tokens), [fixture.issuer]);
    assert.deepEqual(Object.keys(record.clients), [fixture.issuer]);
    assert.deepEqual(JSON.parse(store.entries.get('mcpHost.oauth.index') ?? '[]'), [fixture.url]);
    const token = record.tokens[fixture.issuer].access_token as string;
    assert.ok(token.length > 10);
    // oidc-provider offers DPoP: the token is bound to the key kept for that issuer, and the
    // server (which checks every request's proof) took it.
    assert.equal(record.tokens[fixture.issuer].token_type, 'DPoP');
    assert.equal(record.dpopKeys[fixture.issuer].privateJwk.kty, 'EC');
    const everything = [...logs.values()].map((log) => log.text()).join('\n');
    assert.ok(!everything.includes(token), 'the access token must not reach the log');
    assert.ok(
      !everything.includes(record.tokens[fixture.issuer].refresh_token),
      'the refresh token must not reach the log',
    );
  });

  it('refreshes an expired access token without asking, and a new host (a reloaded window) needs no browser', async () => {
    const { host } = setup;
    await host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
    await settled(host, 'remote');
    await host.signIn('remote', AbortSignal.timeout(60_000));
    assert.equal((await settled(host, 'remote')).status, 'running');
    const first = JSON.parse(store.entries.get(`mcpHost.oauth:${fixture.url}`)!).tokens[fixture.issuer].access_token;
    await new Promise((resolve) => setTimeout(resolve, 4_000)); // the fixture's tokens live 3 s
    const result = await host.callTool('remote', 'add', { a: 2, b: 3 });
    assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
    const second = JSON.parse(store.entries.get(`mcpHost.oauth:${fixture.url}`)!).tokens[fixture.issuer].access_token;
    assert.notEqual(second, first, 'a refreshed token was stored');
    assert.equal(browser.requests.length, 1);

    const reloaded = harness({
      authorization: new HostAuthorization({ store, browser, clientName: 'MCP Host tests' }),
    });
    try {
      await reloaded.host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
      assert.equal((await settled(reloaded.host, 'remote')).status, 'running');
      assert.equal(browser.requests.length, 1, 'still one sign-in');
    } finally {
      await reloaded.host.dispose();
    }
  });

  it('asks again for the union of scopes when a tool answers 403 insufficient_scope (step-up)', async () => {
    const { host } = setup;
    await host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
    await settled(host, 'remote');
    await host.signIn('remote', AbortSignal.timeout(60_000));
    await settled(host, 'remote');
    await assert.rejects(
      host.callTool('remote', 'pid', {}),
      /MCP server "remote" needs you to sign in again with more permission \(scope "mcp:tools mcp:admin offline_access"\)/,
    );
    assert.equal(host.server('remote')?.status, 'needs-sign-in');
    await host.signIn('remote', AbortSignal.timeout(60_000));
    assert.equal((await settled(host, 'remote')).status, 'running');
    const result = await host.callTool('remote', 'pid', {});
    assert.match((result.content[0] as { text: string }).text, /^\d+$/);
    assert.equal(browser.requests.length, 2);
    // The first client was registered for the smaller scope: the host registered a new one first.
    assert.notEqual(
      browser.requests[1].searchParams.get('client_id'),
      browser.requests[0].searchParams.get('client_id'),
    );
    assert.deepEqual(browser.requests[1].searchParams.get('scope')?.split(' ').sort(), [
      'mcp:admin',
      'mcp:tools',
      'offline_access',
    ]);
  });

  it('follows a server to its new authorization server (SEP-2352): a refused list says "needs sign-in", and signing in registers with the new one', async () => {
    const { host } = setup;
    const settings = entries({ remote: { type: 'http', url: fixture.url } });
    await host.applySettings(settings);
    await settled(host, 'remote');
    await host.signIn('remote', AbortSignal.timeout(60_000));
    assert.equal((await settled(host, 'remote')).status, 'running');
    await fixture.migrate();
    // Refresh asks for the lists with the old server's token: refused, the server is not "running with 0 tools".
    await host.refresh(settings);
    const refused = await settled(host, 'remote');
    assert.equal(refused.status, 'needs-sign-in', refused.reason);
    assert.equal(refused.reason, `needs you to sign in to ${fixture.url}; use Sign In`);
    await host.signIn('remote', AbortSignal.timeout(60_000));
    const moved = await settled(host, 'remote');
    assert.equal(moved.status, 'running', moved.reason);
    assert.ok(moved.tools.length > 0);
    assert.equal(browser.requests.length, 2);
    assert.equal(browser.requests[0].origin, fixture.issuer);
    assert.equal(
      browser.requests[1].origin,
      fixture.secondIssuer,
      'the second sign-in goes to the server the metadata names now',
    );
    // Registered anew there; the first server's registration is kept apart, never shown to the second.
    assert.notEqual(
      browser.requests[1].searchParams.get('client_id'),
      browser.requests[0].searchParams.get('client_id'),
    );
    const record = JSON.parse(store.entries.get(`mcpHost.oauth:${fixture.url}`) ?? '{}');
    assert.deepEqual(Object.keys(record.clients).sort(), [fixture.issuer, fixture.secondIssuer].sort());
    assert.equal(record.lastIssuer, fixture.secondIssuer);
  });

  it('starts one sign-in when several ask at once, and signing out needs sign-in again', async () => {
    const { host } = setup;
    await host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
    await settled(host, 'remote');
    await Promise.all([
      host.signIn('remote', AbortSignal.timeout(60_000)),
      host.signIn('remote', AbortSignal.timeout(60_000)),
      host.signIn('remote', AbortSignal.timeout(60_000)),
    ]);
    assert.equal((await settled(host, 'remote')).status, 'running');
    assert.equal(browser.requests.length, 1);
    await host.signOut('remote');
    const out = host.server('remote')!;
    assert.equal(out.status, 'needs-sign-in');
    assert.match(out.reason ?? '', /^signed out; use Sign In/);
    assert.equal(store.entries.get(`mcpHost.oauth:${fixture.url}`), undefined);
    assert.deepEqual(JSON.parse(store.entries.get('mcpHost.oauth.index') ?? '[]'), []);
  });

  it('refuses an answer whose state does not belong to the sign-in, and saves nothing', async () => {
    const forged = new HostAuthorization({
      store,
      clientName: 'MCP Host tests',
      browser: { authorize: async () => new URLSearchParams({ code: 'stolen', state: 'not-ours' }) },
    });
    setup = { ...setup, host: harness({ authorization: forged }).host };
    await setup.host.applySettings(entries({ remote: { type: 'http', url: fixture.url } }));
    await settled(setup.host, 'remote');
    await assert.rejects(
      setup.host.signIn('remote', AbortSignal.timeout(30_000)),
      /does not belong to this sign-in \(its "state" differs\); nothing was saved/,
    );
    const record = JSON.parse(store.entries.get(`mcpHost.oauth:${fixture.url}`) ?? '{"tokens":{}}');
    assert.deepEqual(record.tokens, {});
  });

  it('says what is missing when a server answers 401 without any authorization metadata', async () => {
    const { host } = setup;
    await host.applySettings(entries({ bare: { type: 'http', url: fixture.bareUrl } }));
    const server = await settled(host, 'bare');
    assert.equal(server.status, 'error');
    assert.equal(browser.requests.length, 0);
    const origin = new URL(fixture.bareUrl).origin;
    assert.equal(
      server.reason,
      `${fixture.bareUrl} asks for authorization (HTTP 401) but publishes no authorization metadata: nothing at ${origin}/.well-known/oauth-protected-resource/bare/mcp or ${origin}/.well-known/oauth-protected-resource, ` +
        `nor at ${origin}/.well-known/oauth-authorization-server, and the default endpoints failed (Dynamic Client Registration rejected (HTTP 404): not found). ` +
        'Ask the server\'s maintainers how to authorize, or give a token in "headers" ("Authorization": "Bearer ${input:token}")',
    );
  });
});
