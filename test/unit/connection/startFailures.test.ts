import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { entries, harness, hosts, node } from '../support/hostHarness';
import { fixture, refusedPort, waitFor } from '../support/fixtures';
import { tempDir } from '../../support/tempDir';

/** A real HTTP server on loopback that answers every request with the status in its first path segment. */
async function statusServer(): Promise<{ url: (status: number) => string; close(): Promise<void> }> {
  const server: Server = createHttpServer((req, res) => {
    res.writeHead(Number(req.url?.split('/')[1]) || 500, { 'content-type': 'text/plain' }).end('not an MCP server');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (status) => `http://127.0.0.1:${port}/${status}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const once = { restart: { enabled: false } };

/** A server entry that a real `npx` runs from the npm registry at `registry` (on loopback), with a cache of its own. */
function npxFrom(registry: string, pkg: string, npmConfig: Record<string, string> = {}) {
  return {
    command: 'npx',
    args: ['-y', pkg],
    env: {
      npm_config_registry: registry,
      npm_config_cache: tempDir('mcp-host-npm-cache-'),
      npm_config_update_notifier: 'false',
      ...npmConfig,
    },
  };
}
const loopback = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

describe('a server that fails to start says what happened', () => {
  let http: Awaited<ReturnType<typeof statusServer>>;
  before(async () => (http = await statusServer()));
  after(() => http.close());
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.dispose();
  });

  async function failure(servers: Record<string, unknown>) {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(entries(servers));
    const reasons: Record<string, string> = {};
    const causes: Record<string, string | undefined> = {};
    for (const id of Object.keys(servers)) {
      const snap = await waitFor(`${id} to fail`, () => host.server(id)?.status === 'error' && host.server(id), 20_000);
      reasons[id] = snap.reason ?? '';
      causes[id] = snap.cause;
    }
    return { reasons, causes, log: (id: string) => (env.logFor(id) as unknown as { text(): string }).text() };
  }

  it("names the cause line of a crash, not the runtime's trailing lines (a mistyped script path)", async () => {
    const missing = path.join(os.tmpdir(), 'mcp-host-no-such-dir', 'server.js');
    const { reasons, causes, log } = await failure({ mistyped: { command: node, args: [missing], ...once } });
    assert.equal(
      reasons.mistyped,
      `the process exited with code 1 (cause: Error: Cannot find module '${missing}'; the whole output is in the server's log)`,
    );
    // The row's few words: the cause alone (it says "error" itself).
    assert.equal(causes.mistyped, `Cannot find module '${missing}'`);
    assert.match(log('mistyped'), /\[stderr\] Node\.js v/);
  });

  it('names the cause a program gives before its usage, and a line that says what is missing', async () => {
    const { reasons, causes } = await failure({
      usage: {
        command: node,
        args: [
          '-e',
          'console.error("Error: No access token was provided."); for (let i = 1; i <= 30; i++) console.error("  --flag-" + i + "  what it does"); process.exit(1)',
        ],
        ...once,
      },
      asks: {
        command: node,
        args: ['-e', 'console.error("Please set the API_TOKEN environment variable"); process.exit(1)'],
        ...once,
      },
    });
    assert.equal(
      reasons.usage,
      "the process exited with code 1 (cause: Error: No access token was provided.; the whole output is in the server's log)",
    );
    assert.equal(causes.usage, 'No access token was provided.');
    assert.equal(
      reasons.asks,
      'the process exited with code 1 (last output: Please set the API_TOKEN environment variable)',
    );
    assert.equal(causes.asks, 'Please set the API_TOKEN environment variable');
  });

  it('says that `docker run` needs "-i" when a container started without it ends at once', async () => {
    // What a container without input does: its server reads the end of stdin and ends, quietly.
    const bin = tempDir('mcp-host-docker-');
    const docker = path.join(bin, 'docker');
    writeFileSync(docker, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const { reasons, causes } = await failure({
      noInput: { command: docker, args: ['run', '--rm', '-e', 'TZ=UTC', 'mcp/time'], ...once },
      withInput: { command: docker, args: ['run', '-it', '--rm', 'mcp/time'], ...once },
    });
    assert.equal(
      reasons.noInput,
      'the process exited with code 0; `docker run` without "-i" gives the server no input, so it ends at once: add "-i" to "args" before the image',
    );
    assert.equal(causes.noInput, 'docker run needs "-i" in "args"');
    assert.equal(reasons.withInput, 'the process exited with code 0');
    assert.equal(causes.withInput, undefined);
  });

  it('says what is wrong with a "cwd" that is not a folder it can start in', async () => {
    const dir = tempDir('mcp-host-cwd-');
    const file = path.join(dir, 'server.js');
    writeFileSync(file, '');
    const missing = path.join(dir, 'no-such-folder');
    const { reasons } = await failure({
      missing: { command: node, args: ['-e', '0'], cwd: missing, ...once },
      file: { command: node, args: ['-e', '0'], cwd: file, ...once },
    });
    assert.equal(reasons.missing, `the working directory "${missing}" does not exist; set "cwd" to an existing folder`);
    assert.equal(
      reasons.file,
      `the working directory "${file}" is a file, not a folder; set "cwd" to an existing folder`,
    );
  });

  it("says which setting could not be resolved, the row without the server's name it shows already", async () => {
    const envFile = path.join(tempDir('mcp-host-env-'), 'missing.env');
    const { reasons, causes } = await failure({ keys: { command: node, args: ['-e', '0'], envFile, ...once } });
    const problem = `"envFile" cannot be read: ENOENT: no such file or directory, open '${envFile}'`;
    assert.equal(reasons.keys, `MCP server "keys": ${problem}`);
    assert.equal(causes.keys, problem);
  });

  it('says how to split a whole command line written in "command"', async () => {
    const { reasons, causes } = await failure({ oneLine: { command: `${node} --version`, ...once } });
    assert.equal(
      reasons.oneLine,
      `command \`${node} --version\` not found: "command" names the program alone and "args" its arguments; write "command": ${JSON.stringify(node)}, "args": ["--version"]`,
    );
    assert.equal(causes.oneLine, '"command" has arguments: move them to "args"');
  });

  it('names the exit code or signal of a stdio server with its last stderr lines', async () => {
    const { reasons, causes, log } = await failure({
      exits: {
        command: node,
        args: ['-e', 'console.error("reading config"); console.error("error: API_KEY is not set"); process.exit(2)'],
        ...once,
      },
      killed: { command: node, args: ['-e', 'process.kill(process.pid, "SIGKILL")'], ...once },
    });
    assert.equal(
      reasons.exits,
      'the process exited with code 2 (last output: reading config ⏎ error: API_KEY is not set)',
    );
    assert.equal(reasons.killed, 'the process was killed by SIGKILL');
    assert.equal(causes.exits, 'API_KEY is not set');
    assert.equal(causes.killed, undefined, 'no output, no cause: the row shows the reason');
    // The output channel tells the story: what ran, which era was tried, what came back.
    assert.match(log('exits'), /Starting: .*node -e /);
    assert.match(log('exits'), /Protocol: negotiating the era over stdio/);
    assert.match(log('exits'), /\[stderr\] error: API_KEY is not set/);
    assert.match(log('exits'), /Failed to start: the process exited with code 2/);
  });

  it('says only why a server that ended as its lists loaded failed: the lists it cut off are no problems of its own', async () => {
    // What a database server does that cannot reach its database: it answers the handshake, then ends silently.
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ silent: { command: node, args: [fixture('legacyStdio'), '--exit-on-tools-list'], ...once } }),
    );
    const failed = await waitFor(
      'silent to fail',
      () => host.server('silent')?.status === 'error' && host.server('silent'),
    );
    assert.match(failed.reason ?? '', /^the process exited with code 1\b/);
    assert.equal(failed.listProblems, undefined, 'no "tools/list: Connection closed" under the reason');
    assert.deepEqual(failed.tools, []);
  });

  it('says that npx may still be fetching a server that did not answer in time (a real npx, a registry on loopback that never answers)', async () => {
    const silent = createHttpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { reasons, causes } = await failure({
        fetching: {
          ...npxFrom(loopback(silent), '@acme/server-weather'),
          startTimeoutMs: 1_000,
          ...once,
        },
        silent: { command: node, args: [fixture('silentStdio')], startTimeoutMs: 1_000, ...once },
      });
      assert.match(
        reasons.fetching,
        /^the server did not answer the handshake within 1 s \("startTimeoutMs"\); `npx` may still have been fetching it \(its first run downloads the server\): Restart it, or raise "startTimeoutMs"/,
      );
      // npm says nothing while it waits: the row says how long it waited, and why that may be.
      assert.equal(causes.fetching, 'npx may still be fetching it (no answer within 1 s)');
      assert.equal(causes.silent, 'no answer within 1 s');
      // A program started directly is not said to be downloading.
      assert.equal(reasons.silent, 'the server did not answer the handshake within 1 s ("startTimeoutMs")');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("says which Node a package that crashes needs, from npm's warning (a real npx, a package from a registry on loopback)", async () => {
    // A package that needs a Node to come and crashes on this one, packed by npm and served as a registry would.
    const source = tempDir('mcp-host-new-node-');
    writeFileSync(
      path.join(source, 'package.json'),
      JSON.stringify({
        name: '@acme/server-new',
        version: '1.0.0',
        bin: { 'server-new': 'index.js' },
        engines: { node: '>=99' },
      }),
    );
    writeFileSync(path.join(source, 'index.js'), '#!/usr/bin/env node\nnew RegExp("x", "zz");\n', { mode: 0o755 });
    const tarball = readFileSync(
      path.join(source, execFileSync('npm', ['pack', '--silent'], { cwd: source, encoding: 'utf8' }).trim()),
    );
    const registry = createHttpServer((req, res) => {
      const port = (registry.address() as AddressInfo).port;
      if (req.url?.endsWith('.tgz')) return void res.end(tarball);
      const version = {
        name: '@acme/server-new',
        version: '1.0.0',
        bin: { 'server-new': 'index.js' },
        engines: { node: '>=99' },
        dist: {
          tarball: `http://127.0.0.1:${port}/server-new-1.0.0.tgz`,
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
        },
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: version.name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    try {
      const { reasons, causes } = await failure({
        newer: { ...npxFrom(loopback(registry), '@acme/server-new'), ...once },
      });
      // npx runs the Node on the login shell's PATH: its version is the one npm names.
      const needs =
        /^needs Node >=99, this is Node v\d+\.\d+\.\d+: SyntaxError: Invalid flags supplied to RegExp constructor 'zz'$/;
      assert.match(causes.newer ?? '', needs);
      assert.equal(
        reasons.newer,
        `the process exited with code 1 (cause: ${causes.newer}; the whole output is in the server's log)`,
      );
    } finally {
      await new Promise((resolve) => registry.close(resolve));
    }
  });

  it("names the package npx could not find, from npm's own report (a real npx, a registry on loopback)", async () => {
    const registry = http.url(404).replace(/mcp$/, '');
    const { reasons, causes, log } = await failure({
      misspelled: { ...npxFrom(registry, '@acme/server-wether', { npm_config_fetch_retries: '0' }), ...once },
    });
    // npm's report ends with advice and the path of its log: the line that says why comes first.
    assert.match(
      reasons.misspelled,
      /^the process exited with code 1 \(cause: npm error 404 Not Found - GET http:\/\/127\.0\.0\.1:\d+\/404\/@acme%2fserver-wether\b.*; the whole output is in the server's log\)$/,
    );
    assert.equal(causes.misspelled, 'no npm package "@acme/server-wether"');
    assert.match(log('misspelled'), /\[stderr\] npm error A complete log of this run/);
  });

  it('names refused connections and unknown hosts with host and port, never "fetch failed"', async () => {
    const port = await refusedPort();
    const { reasons, log } = await failure({
      refused: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, ...once },
      unknown: { type: 'http', url: 'http://no-such-host.invalid/mcp', ...once },
      plain: { type: 'http', url: http.url(200).replace('http:', 'https:'), ...once },
    });
    assert.equal(
      reasons.refused,
      `connection refused: nothing is listening at 127.0.0.1:${port} (ECONNREFUSED); is the server running?`,
    );
    assert.match(
      reasons.unknown,
      /^the host name "no-such-host\.invalid" could not be resolved \((ENOTFOUND|EAI_AGAIN)\); check the URL and your network$/,
    );
    assert.match(
      reasons.plain,
      /^the TLS connection to 127\.0\.0\.1:\d+ failed \(ERR_SSL_WRONG_VERSION_NUMBER\); does the server speak plain http:\/\/ instead of https:\/\/\?$/,
    );
    for (const reason of Object.values(reasons)) assert.doesNotMatch(reason, /fetch failed|Connection closed/);
    assert.match(log('refused'), /Connecting to http:\/\/127\.0\.0\.1:\d+\/mcp \(Streamable HTTP\)/);
    assert.match(log('refused'), /as the client library reported it: .*fetch failed/);
  });

  it("says where MCP endpoints usually are when a URL without a path finds none (a server's address copied without its endpoint)", async () => {
    const site = createHttpServer((_request, response) => response.writeHead(404).end('Cannot POST /'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const root = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const { reasons } = await failure({
        bare: { type: 'http', url: root, ...once },
        slash: { type: 'http', url: `${root}/`, ...once },
        path: { type: 'http', url: `${root}/api`, ...once },
      });
      const usual = ' (servers usually answer at /mcp, or /sse for the legacy transport)';
      assert.equal(reasons.bare, `no MCP endpoint at ${root} (HTTP 404 Not Found); check the path in "url"${usual}`);
      assert.equal(reasons.slash, `no MCP endpoint at ${root}/ (HTTP 404 Not Found); check the path in "url"${usual}`);
      assert.equal(reasons.path, `no MCP endpoint at ${root}/api (HTTP 404 Not Found); check the path in "url"`);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('reads HTTP statuses: 404 has no MCP endpoint, 401/403 need sign-in (or other credentials than those in "headers") without trying HTTP+SSE, 5xx failed', async () => {
    const { reasons, causes, log } = await failure({
      missing: { type: 'http', url: http.url(404), ...once },
      unauthorized: { type: 'http', url: http.url(401), ...once },
      // Headers that are not credentials: it still needs some.
      tagged: { type: 'http', url: http.url(401), headers: { 'X-Client': 'tests' }, ...once },
      // Credentials given in "headers" and refused: those are what to fix (named, their values never shown).
      keyed: {
        type: 'http',
        url: http.url(401),
        headers: { 'X-Client': 'tests', Authorization: 'Bearer stale-token-value', 'X-API-Key': 'old-key' },
        ...once,
      },
      // A shell's $NAME, which settings do not expand: that is what to fix, whatever the key's state.
      shell: {
        type: 'http',
        url: http.url(401),
        headers: { Authorization: 'Bearer $GITHUB_TOKEN', 'X-Client': 'tests' },
        ...once,
      },
      forbidden: { type: 'http', url: http.url(403), ...once },
      broken: { type: 'http', url: http.url(503), ...once },
      legacy404: { type: 'sse', url: http.url(404), ...once },
    });
    assert.equal(reasons.missing, `no MCP endpoint at ${http.url(404)} (HTTP 404 Not Found); check the path in "url"`);
    assert.match(log('missing'), /Streamable HTTP answered 404; trying the legacy HTTP\+SSE transport/);
    assert.match(log('missing'), /The legacy HTTP\+SSE transport failed too: SSE error: Non-200 status code \(404\)/);
    assert.equal(
      reasons.unauthorized,
      `${http.url(401)} needs sign-in (HTTP 401 Unauthorized); give credentials in "headers" (for example "Authorization": "Bearer \${input:token}")`,
    );
    assert.equal(reasons.tagged, reasons.unauthorized);
    assert.equal(
      reasons.keyed,
      `${http.url(401)} refused the credentials in "headers" (HTTP 401 Unauthorized); check the value of "Authorization", "X-API-Key": is the token or key expired, revoked or short of permission?`,
    );
    assert.doesNotMatch(log('keyed'), /stale-token-value|old-key/);
    assert.equal(
      reasons.shell,
      `${http.url(401)} refused the credentials in "headers" (HTTP 401 Unauthorized); "Authorization" holds a $NAME as written, which MCP Host does not expand: to read an environment variable, write \${env:NAME}`,
    );
    // Its log said so at start, before anything was refused (an "env" value's $NAME the same way).
    assert.match(
      log('shell'),
      /^warn "headers\.Authorization" holds a \$NAME as written, which MCP Host does not expand: to read an environment variable, write \$\{env:NAME\}\.$[\s\S]*refused the credentials/m,
    );
    assert.match(reasons.forbidden, /needs sign-in \(HTTP 403 Forbidden\)/);
    for (const id of ['unauthorized', 'forbidden']) assert.doesNotMatch(log(id), /legacy HTTP\+SSE/);
    assert.equal(
      reasons.broken,
      `the server at ${http.url(503)} failed (HTTP 503 Service Unavailable); see its own logs`,
    );
    assert.equal(reasons.legacy404, `no MCP endpoint at ${http.url(404)} (HTTP 404); check the path in "url"`);
    // The row's few words: what the status means before the URL, which the reason names first.
    assert.deepEqual(causes, {
      missing: 'no MCP endpoint at this "url" (HTTP 404)',
      unauthorized: 'needs credentials (HTTP 401)',
      tagged: 'needs credentials (HTTP 401)',
      keyed: '"headers" refused (HTTP 401)',
      shell: '$NAME unexpanded (HTTP 401)',
      forbidden: 'needs credentials (HTTP 403)',
      broken: 'the server failed (HTTP 503)',
      legacy404: 'no MCP endpoint at this "url" (HTTP 404)',
    });
  });
});
