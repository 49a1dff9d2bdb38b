import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { WorkloadIdentityProvider } from '../../../src/core/auth/workloadIdentityProvider';
import { tempDir } from '../../support/tempDir';

const jwt = (subject: string) =>
  `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: subject })).toString('base64url')}.c2ln`;

describe('The workload-identity grant (RFC 7523 JWT bearer, SEP-1933)', () => {
  it("asks for a token with the workload's JWT as the assertion, read from its file at every request (it rotates), and no secret", async () => {
    const file = path.join(tempDir('mcp-wif-'), 'token');
    writeFileSync(file, `${jwt('first')}\n`);
    const provider = new WorkloadIdentityProvider({
      clientId: 'workload',
      clientName: 'MCP Host',
      assertionFile: file,
      scope: 'mcp:tools',
    });
    const first = await provider.prepareTokenRequest();
    assert.equal(first.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    assert.equal(first.get('assertion'), jwt('first'));
    assert.equal(first.get('scope'), 'mcp:tools');
    writeFileSync(file, jwt('rotated'));
    assert.equal((await provider.prepareTokenRequest('other')).get('assertion'), jwt('rotated'));
    assert.deepEqual(provider.clientInformation(), { client_id: 'workload' });
    assert.equal(provider.clientMetadata.token_endpoint_auth_method, 'none');
    assert.throws(() => provider.redirectToAuthorization(), /without a browser/);
  });

  it('says what is wrong with its settings or its file, naming them', async () => {
    assert.throws(
      () => new WorkloadIdentityProvider({ clientId: 'w', clientName: 'x' }),
      /"oauth.assertion" or "oauth.assertionFile" is required for the workloadIdentity grant/,
    );
    const dir = tempDir('mcp-wif-');
    await assert.rejects(
      new WorkloadIdentityProvider({
        clientId: 'w',
        clientName: 'x',
        assertionFile: path.join(dir, 'missing'),
      }).prepareTokenRequest(),
      /cannot read the workload's token from "oauth.assertionFile" \(.*missing\)/,
    );
    writeFileSync(path.join(dir, 'not-a-jwt'), 'hello');
    await assert.rejects(
      new WorkloadIdentityProvider({
        clientId: 'w',
        clientName: 'x',
        assertionFile: path.join(dir, 'not-a-jwt'),
      }).prepareTokenRequest(),
      /does not hold a JWT/,
    );
  });
});
