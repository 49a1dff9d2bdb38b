// A server with credentials of its own (`headers`) that stops taking them after it started: its
// row says so and what to fix, never "running · 0 tools".
import * as assert from 'node:assert/strict';
import { McpRequestError } from '../../../src/core/connection/serverErrors';
import { startHttpFixture, waitFor, type RunningProcess } from '../support/fixtures';
import { startFrontProxy, type FrontProxy } from '../support/frontProxy';
import { entries, harness, hosts, running } from '../support/hostHarness';

describe('credentials in "headers" that the server refuses after it started', function () {
  this.timeout(30_000);
  let backend: RunningProcess;
  let front: FrontProxy;
  /** What the front answers every request with while set. */
  let refuseWith: 401 | 403 | undefined;
  before(async () => {
    backend = await startHttpFixture();
    front = await startFrontProxy(backend.port, '/legacy', () =>
      refuseWith
        ? {
            status: refuseWith,
            body: refuseWith === 401 ? 'token revoked' : 'forbidden',
            headers: { 'content-type': 'text/plain' },
          }
        : undefined,
    );
  });
  after(async () => {
    await front.close();
    await backend.stop();
  });
  afterEach(async () => {
    refuseWith = undefined;
    await Promise.all(hosts.splice(0).map((h) => h.dispose()));
  });

  const settings = (authorization = 'Bearer ${input:tok}') =>
    entries({
      keyed: { url: `http://127.0.0.1:${front.port}/legacy`, headers: { Authorization: authorization } },
    });

  /** A host whose "keyed" server runs with the credentials the front still takes. */
  async function runningKeyed(authorization?: string) {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(settings(authorization));
    await running(host, 'keyed');
    return host;
  }

  it('says the server refused the credentials in "headers", with the HTTP status and which header to check, when a refresh is refused (401)', async () => {
    const host = await runningKeyed();
    refuseWith = 401;
    await host.refresh(settings());
    const snap = await waitFor('the refusal on its row', () => {
      const server = host.server('keyed');
      return server?.status === 'error' ? server : undefined;
    });
    assert.match(
      snap.reason ?? '',
      /refused the credentials in "headers" \(HTTP 401[^)]*\); check the value of "Authorization": is the token or key expired, revoked or short of permission\?$/,
    );
    // The row's few words, which the side bar's default width shows before the URL.
    assert.equal(snap.cause, '"headers" refused (HTTP 401)');
    assert.deepEqual(snap.tools, []);
  });

  it('says that a $NAME written in the header is not expanded, when the server refuses it', async () => {
    const host = await runningKeyed('Bearer $API_TOKEN');
    refuseWith = 401;
    await host.refresh(settings('Bearer $API_TOKEN'));
    const snap = await waitFor('the refusal on its row', () => {
      const server = host.server('keyed');
      return server?.status === 'error' ? server : undefined;
    });
    assert.match(
      snap.reason ?? '',
      /refused the credentials in "headers" \(HTTP 401[^)]*\); "Authorization" holds a \$NAME as written, which MCP Host does not expand: to read an environment variable, write \$\{env:NAME\}$/,
    );
    assert.equal(snap.cause, '$NAME unexpanded (HTTP 401)');
  });

  it("ends the session when a call is refused (403), and the call's error says what to fix", async () => {
    const host = await runningKeyed();
    refuseWith = 403;
    const error = await host.callTool('keyed', 'echo', { text: 'hi' }).then(
      () => assert.fail('the call was refused'),
      (e: Error) => e,
    );
    assert.ok(error instanceof McpRequestError);
    assert.match(
      error.message,
      /^MCP server "keyed": .* refused the credentials in "headers" \(HTTP 403[^)]*\); check the value of "Authorization"/,
    );
    assert.equal(host.server('keyed')?.status, 'error');
    assert.equal(host.server('keyed')?.cause, '"headers" refused (HTTP 403)');
  });
});
