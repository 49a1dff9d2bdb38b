import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactSecrets } from '../../../src/core/connection/secretRedaction';
import { waitFor, type RecordingLog } from '../support/fixtures';
import { entries, harness, hosts, legacy } from '../support/hostHarness';

describe('secrets a definition resolves stay out of logs and errors', function () {
  this.timeout(30_000);
  let echo: Server;
  let port: number;
  before(async () => {
    // A server that answers 404 with the URL it was asked for, as some error pages do.
    echo = createServer((req, res) =>
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such page: ${req.url}`),
    );
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    port = (echo.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => echo.close(() => resolve())));
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it('puts the placeholder back for a value and its URL-encoded form, and leaves short values alone', () => {
    const secrets = [
      { value: 'p@ss word', placeholder: '${input:pw}' },
      { value: 'ab', placeholder: '${input:short}' },
    ];
    assert.equal(
      redactSecrets('GET /x?pw=p%40ss%20word and p@ss word, abc', secrets),
      'GET /x?pw=${input:pw} and ${input:pw}, abc',
    );
  });

  it('shows ${input:} placeholders, never the values, in a start error about cwd and in the log', async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(entries({ hidden: legacy({ cwd: '/nonexistent/${input:tok}' }) }));
    const snap = await waitFor('the failure', () => host.server('hidden')?.status === 'error' && host.server('hidden'));
    assert.match(snap.reason ?? '', /the working directory "\/nonexistent\/\$\{input:tok\}" does not exist/);
    const log = (env.logFor('hidden') as RecordingLog).text();
    assert.doesNotMatch(`${snap.reason}\n${log}`, /secret-tok/);
  });

  it('keeps a secret in the URL out of the log when the server echoes the URL in an error body', async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ echoing: { url: `http://127.0.0.1:${port}/mcp?key=\${input:key}`, restart: { enabled: false } } }),
    );
    const snap = await waitFor(
      'the failure',
      () => host.server('echoing')?.status === 'error' && host.server('echoing'),
    );
    const log = (env.logFor('echoing') as RecordingLog).text();
    assert.match(log, /no such page: \/mcp\?key=\$\{input:key\}/, 'the echoed body is logged, with the placeholder');
    assert.doesNotMatch(`${snap.reason}\n${log}`, /secret-key/);
  });
});
