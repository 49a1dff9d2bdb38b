import * as assert from 'node:assert/strict';
import { ServerOAuthProvider } from '../../../src/core/auth/serverOAuthProvider';
import { MemoryCredentialStore, SignInRecords } from '../../../src/core/auth/signInRecords';

const RESOURCE = 'https://mcp.example.com/mcp';
const A = 'https://login.a.example';
const B = 'https://login.b.example';

function provider(store = new MemoryCredentialStore(), settings = {}) {
  return {
    store,
    provider: new ServerOAuthProvider({
      resource: RESOURCE,
      settings,
      records: new SignInRecords(store),
      clientName: 'MCP Host',
    }),
  };
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
    const { provider: p } = provider(undefined, {
      clientId: 'pre',
      clientSecret: 's3cret',
      clientMetadataUrl: 'https://example.com/meta.json',
    });
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

  it('binds tokens to a DPoP key per authorization server when it offers DPoP, kept for the next window, and not when it does not or the setting is off', async () => {
    const discovery = (issuer: string, algs?: string[]) => ({
      authorizationServerUrl: issuer,
      authorizationServerMetadata: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        ...(algs ? { dpop_signing_alg_values_supported: algs } : {}),
      },
    });
    const { provider: p, store } = provider();
    await p.saveDiscoveryState(discovery(A));
    assert.equal(await p.dpop(), undefined, 'an authorization server that does not advertise DPoP gets Bearer tokens');
    await p.saveDiscoveryState(discovery(A, ['RS256', 'ES256']));
    const atA = await p.dpop();
    assert.equal(atA?.alg, 'ES256');
    assert.equal(await p.dpop(), atA, 'one session for the life of the registration');
    // The key is in the credential store, as a JWK, and a new window signs with the same key.
    const record = JSON.parse(store.entries.get(`mcpHost.oauth:${RESOURCE}`) ?? '{}');
    assert.equal(record.dpopKeys[A].thumbprint, atA!.thumbprint);
    assert.equal(record.dpopKeys[A].privateJwk.kty, 'EC');
    const reread = provider(store).provider;
    assert.equal((await reread.dpop())?.thumbprint, atA!.thumbprint);
    const proof = await (await reread.dpop())!.buildProof({
      htm: 'POST',
      htu: 'https://mcp.example.com/mcp?x=1',
      accessToken: 't',
    });
    const header = JSON.parse(Buffer.from(proof.split('.')[0], 'base64url').toString('utf8'));
    assert.equal(header.typ, 'dpop+jwt');
    assert.deepEqual(header.jwk, atA!.publicJwk);
    // Another authorization server, another key.
    await p.saveDiscoveryState(discovery(B, ['ES256']));
    assert.notEqual((await p.dpop())?.thumbprint, atA!.thumbprint);
    // "dpop": false asks for plain Bearer tokens.
    const off = provider(store, { dpop: false }).provider;
    assert.equal(await off.dpop(), undefined);
  });
});
