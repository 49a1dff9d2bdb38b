import * as assert from 'node:assert/strict';
import { ServerOAuthProvider } from '../../../src/core/auth/serverOAuthProvider';
import { MemoryCredentialStore, SignInRecords } from '../../../src/core/auth/signInRecords';

const RESOURCE = 'https://mcp.example.com/mcp';
const A = 'https://login.a.example';
const B = 'https://login.b.example';

function provider(store = new MemoryCredentialStore(), settings = {}) {
  return { store, provider: new ServerOAuthProvider({ resource: RESOURCE, settings, records: new SignInRecords(store), clientName: 'MCP Host' }) };
}

describe('ServerOAuthProvider (credentials per resource and issuer)', () => {
  it('never hands one issuer the client or tokens of another', async () => {
    const { provider: p, store } = provider();
    await p.saveClientInformation({ client_id: 'client-at-a' }, { issuer: A });
    await p.saveTokens({ access_token: 'token-from-a', token_type: 'Bearer' }, { issuer: A });
    assert.equal((await p.clientInformation({ issuer: A }))?.client_id, 'client-at-a');
    assert.equal(await p.clientInformation({ issuer: B }), undefined);
    assert.equal(await p.tokens({ issuer: B }), undefined);
    assert.equal((await p.tokens())?.access_token, 'token-from-a', 'requests use the issuer saved last');
    await p.saveTokens({ access_token: 'token-from-b', token_type: 'Bearer' }, { issuer: B });
    assert.equal((await p.tokens())?.access_token, 'token-from-b');
    assert.equal((await p.tokens({ issuer: A }))?.access_token, 'token-from-a');
    // One entry per resource in the store, plus the index "Manage Sign-ins" reads.
    assert.deepEqual([...store.entries.keys()].sort(), ['mcpHost.oauth.index', `mcpHost.oauth:${RESOURCE}`]);
  });

  it('keeps concurrent saves (client information, then tokens, then discovery) without losing any', async () => {
    const { provider: p, store } = provider();
    await Promise.all([
      p.saveClientInformation({ client_id: 'c' }, { issuer: A }),
      p.saveTokens({ access_token: 't', token_type: 'Bearer' }, { issuer: A }),
      p.saveDiscoveryState({ authorizationServerUrl: A }),
    ]);
    const reread = provider(store).provider; // a new window reading the same secret storage
    assert.equal((await reread.clientInformation({ issuer: A }))?.client_id, 'c');
    assert.equal((await reread.tokens({ issuer: A }))?.access_token, 't');
    assert.equal((await reread.discoveryState())?.authorizationServerUrl, A);
  });

  it('uses a pre-registered client from settings and never a metadata document with it', async () => {
    const { provider: p } = provider(undefined, { clientId: 'pre', clientSecret: 's3cret', clientMetadataUrl: 'https://example.com/meta.json' });
    assert.deepEqual(await p.clientInformation({ issuer: A }), { client_id: 'pre', client_secret: 's3cret' });
    assert.equal(p.clientMetadataUrl, undefined);
    assert.equal(p.registersDynamically, false);
    assert.equal(p.clientMetadata.token_endpoint_auth_method, 'client_secret_basic');
    assert.deepEqual(p.clientMetadata.redirect_uris, ['http://127.0.0.1:33418/callback']);
  });

  it('forgets tokens of the current issuer only, and everything on "all"', async () => {
    const { provider: p, store } = provider();
    await p.saveClientInformation({ client_id: 'c' }, { issuer: A });
    await p.saveTokens({ access_token: 't', token_type: 'Bearer' }, { issuer: A });
    await p.invalidateCredentials('tokens');
    assert.equal(await p.tokens(), undefined);
    assert.equal((await p.clientInformation({ issuer: A }))?.client_id, 'c');
    await p.invalidateCredentials('all');
    assert.equal(await p.clientInformation({ issuer: A }), undefined);
    assert.equal(store.entries.get(`mcpHost.oauth:${RESOURCE}`), undefined);
    assert.deepEqual(JSON.parse(store.entries.get('mcpHost.oauth.index') ?? '[]'), []);
  });

  it('ignores a corrupt stored entry instead of failing', async () => {
    const store = new MemoryCredentialStore();
    store.entries.set(`mcpHost.oauth:${RESOURCE}`, '{not json');
    const { provider: p } = provider(store);
    assert.equal(await p.tokens(), undefined);
  });
});
