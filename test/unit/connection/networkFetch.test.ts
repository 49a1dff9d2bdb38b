import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { bypassesProxy, DIRECT, NetworkFetch, type NetworkSettings } from '../../../src/core/connection/networkFetch';
import { networkSettingsFrom } from '../../../src/core/connection/networkSettings';
import { connect, disposeConnections } from '../support/connections';
import { httpDefinition, startEverythingSse, startHttpFixture, type RunningProcess } from '../support/fixtures';

const listen = async <T extends http.Server>(server: T): Promise<T & { port: number }> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
};

describe('HTTP servers behind a proxy and with their own certificates (a real proxy, a real TLS server)', function () {
  this.timeout(30_000);
  let fixture: RunningProcess;
  let proxy: http.Server & { port: number; authenticate?: (req: http.IncomingMessage) => boolean | Promise<boolean> };
  /** What reached the proxy: `CONNECT host:port` tunnels and absolute-form requests. */
  const seen: string[] = [];
  let tlsServer: https.Server & { port: number };
  let certDir: string;
  const fetches: NetworkFetch[] = [];
  const fetchWith = (settings: Partial<NetworkSettings>) => {
    const network = new NetworkFetch(() => settings as NetworkSettings);
    fetches.push(network);
    return network;
  };

  before(async () => {
    fixture = await startHttpFixture();
    const { createProxy } = await import('proxy');
    proxy = (await listen(createProxy(http.createServer()))) as typeof proxy;
    proxy.on('connect', (req: http.IncomingMessage) => seen.push(`CONNECT ${req.url}`));
    proxy.on('request', (req: http.IncomingMessage) => seen.push(`${req.method} ${req.url}`));
    // A server with a self-signed certificate, in front of the fixture (a TLS-terminating reverse proxy).
    certDir = mkdtempSync(path.join(tmpdir(), 'mcp-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=MCP Host test',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        path.join(certDir, 'key.pem'),
        '-out',
        path.join(certDir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tlsServer = await listen(
      https.createServer(
        { key: readFileSync(path.join(certDir, 'key.pem')), cert: readFileSync(path.join(certDir, 'cert.pem')) },
        (req, res) => {
          const upstream = http.request(
            { host: '127.0.0.1', port: fixture.port, path: req.url, method: req.method, headers: req.headers },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          req.pipe(upstream);
        },
      ),
    );
  });
  after(async () => {
    await Promise.all(fetches.map((f) => f.dispose()));
    proxy.close();
    tlsServer.closeAllConnections();
    tlsServer.close();
    await fixture.stop();
    rmSync(certDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await disposeConnections();
    seen.length = 0;
    proxy.authenticate = undefined;
  });

  it('reaches the server through the proxy: every request of the session goes through it', async () => {
    const network = fetchWith({ ...DIRECT, proxy: `http://127.0.0.1:${proxy.port}` });
    const { connection } = connect(httpDefinition('proxied', `http://127.0.0.1:${fixture.port}/mcp`), {
      fetch: network.fetch,
    });
    await connection.start();
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    await connection.request('tools/call', (c, o) => c.callTool({ name: 'echo', arguments: { text: 'via proxy' } }, o));
    assert.ok(seen.length > 0 && seen.every((line) => line === `CONNECT 127.0.0.1:${fixture.port}`), seen.join('\n'));
  });

  it('carries a server nobody here wrote over HTTP+SSE through the proxy (server-everything from npm)', async () => {
    const everything = await startEverythingSse();
    try {
      const network = fetchWith({ ...DIRECT, proxy: `http://127.0.0.1:${proxy.port}` });
      const { connection } = connect(
        httpDefinition('everything-sse', `http://127.0.0.1:${everything.port}/sse`, 'sse'),
        { fetch: network.fetch },
      );
      await connection.start();
      assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
      const result = await connection.request('tools/call', (c, o) =>
        c.callTool({ name: 'echo', arguments: { message: 'via proxy' } }, o),
      );
      assert.equal((result.content as { text: string }[])[0].text, 'Echo: via proxy');
      assert.ok(seen.filter((line) => line === `CONNECT 127.0.0.1:${everything.port}`).length >= 2, seen.join('\n'));
    } finally {
      await disposeConnections();
      await everything.stop();
    }
  });

  it('goes direct for hosts in the no-proxy list', async () => {
    const network = fetchWith({
      ...DIRECT,
      proxy: `http://127.0.0.1:${proxy.port}`,
      noProxy: ['example.com', 'localhost'],
    });
    const { connection } = connect(httpDefinition('bypass', `http://localhost:${fixture.port}/mcp`), {
      fetch: network.fetch,
    });
    await connection.start();
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    assert.equal(network.usesProxy(new URL(`http://localhost:${fixture.port}/mcp`)), false);
    assert.deepEqual(
      seen.filter((line) => line.includes('localhost')),
      [],
    );
  });

  it('sends the proxy the credentials from the proxy URL; without them says the proxy wants them', async () => {
    proxy.authenticate = (req) =>
      req.headers['proxy-authorization'] === `Basic ${Buffer.from('me:s3cret').toString('base64')}`;
    const withCredentials = fetchWith({ ...DIRECT, proxy: `http://me:s3cret@127.0.0.1:${proxy.port}` });
    const { connection } = connect(httpDefinition('proxy-auth', `http://127.0.0.1:${fixture.port}/mcp`), {
      fetch: withCredentials.fetch,
    });
    await connection.start();
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    const without = fetchWith({ ...DIRECT, proxy: `http://127.0.0.1:${proxy.port}` });
    const { connection: refused } = connect(httpDefinition('proxy-noauth', `http://127.0.0.1:${fixture.port}/mcp`), {
      fetch: without.fetch,
    });
    await refused.start();
    assert.equal(refused.snapshot().status, 'error');
    assert.match(
      refused.snapshot().reason ?? '',
      new RegExp(
        `^the proxy at 127\\.0\\.0\\.1:${proxy.port} refused to connect to 127\\.0\\.0\\.1:${fixture.port} \\(HTTP 407\\): it wants credentials; put them in "http\\.proxy" \\(http://user:password@host:port\\) or "http\\.proxyAuthorization"`,
      ),
    );
    assert.doesNotMatch(refused.snapshot().reason ?? '', /s3cret/);
  });

  it('refuses a self-signed certificate with a reason that says what to do; trusts it once it is an extra certificate', async () => {
    const url = `https://127.0.0.1:${tlsServer.port}/mcp`;
    const { connection: untrusted } = connect(httpDefinition('self-signed', url), { fetch: fetchWith(DIRECT).fetch });
    await untrusted.start();
    assert.equal(untrusted.snapshot().status, 'error');
    assert.match(
      untrusted.snapshot().reason ?? '',
      new RegExp(
        `^the certificate of 127\\.0\\.0\\.1:${tlsServer.port} is not trusted \\(DEPTH_ZERO_SELF_SIGNED_CERT\\): add the certificate that signed it to the system's trusted certificates or to NODE_EXTRA_CA_CERTS`,
      ),
    );
    const extra = networkSettingsFrom({}, { NODE_EXTRA_CA_CERTS: path.join(certDir, 'cert.pem') }, (file) =>
      readFileSync(file, 'utf8'),
    );
    const { connection: trusted } = connect(httpDefinition('self-signed-trusted', url), {
      fetch: fetchWith(extra).fetch,
    });
    await trusted.start();
    assert.equal(trusted.snapshot().status, 'running', trusted.snapshot().reason);
    const { connection: lax } = connect(httpDefinition('self-signed-lax', url), {
      fetch: fetchWith({ ...DIRECT, strictSSL: false }).fetch,
    });
    await lax.start();
    assert.equal(lax.snapshot().status, 'running', lax.snapshot().reason);
  });
});

describe('network settings', () => {
  it('takes the editor proxy first, then HTTPS_PROXY / HTTP_PROXY and NO_PROXY from the environment', () => {
    const none = () => undefined;
    assert.equal(
      networkSettingsFrom({ proxy: 'http://editor:1' }, { HTTPS_PROXY: 'http://env:2' }, none).proxy,
      'http://editor:1',
    );
    assert.equal(networkSettingsFrom({ proxy: '' }, { https_proxy: 'http://env:2' }, none).proxy, 'http://env:2');
    assert.equal(networkSettingsFrom({}, { HTTP_PROXY: 'http://env:3' }, none).proxy, 'http://env:3');
    assert.deepEqual(networkSettingsFrom({}, { NO_PROXY: 'localhost, .corp.example ,' }, none).noProxy, [
      'localhost',
      '.corp.example',
    ]);
    assert.deepEqual(networkSettingsFrom({ noProxy: ['a.example'] }, { NO_PROXY: 'b.example' }, none).noProxy, [
      'a.example',
    ]);
    assert.equal(networkSettingsFrom({ proxyStrictSSL: false }, {}, none).strictSSL, false);
    assert.deepEqual(
      networkSettingsFrom({ systemCertificates: false }, { NODE_EXTRA_CA_CERTS: '/x.pem' }, (f) =>
        f === '/x.pem' ? 'PEM' : undefined,
      ).extraCertificates,
      ['PEM'],
    );
  });

  it('matches no-proxy entries as curl does', () => {
    const cases: [string, string[], boolean][] = [
      ['http://api.example.com/mcp', ['example.com'], true],
      ['http://api.example.com/mcp', ['.example.com'], true],
      ['http://example.com/mcp', ['*.example.com'], true],
      ['http://badexample.com/mcp', ['example.com'], false],
      ['http://example.com:8080/mcp', ['example.com:8080'], true],
      ['http://example.com/mcp', ['example.com:8080'], false],
      ['https://example.com/mcp', ['example.com:443'], true],
      ['http://[::1]:3000/mcp', ['::1'], true],
      ['http://[::1]:3000/mcp', ['[::1]:3000'], true],
      ['http://10.0.0.1/mcp', ['*'], true],
      ['http://10.0.0.1/mcp', [''], false],
    ];
    for (const [url, entries, expected] of cases)
      assert.equal(bypassesProxy(new URL(url), entries), expected, `${url} with ${entries.join(',')}`);
  });
});
