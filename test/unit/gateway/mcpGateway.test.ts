import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { Emitter } from '../../../src/core/events';
import { privateGatewayAddress, type GatewayAddress } from '../../../src/core/gateway/gatewayAddress';
import { listsHash, mayPublish, type GatewayOffers } from '../../../src/core/gateway/gatewayHost';
import { NOT_STARTED, PublishedVersions } from '../../../src/core/gateway/publishedVersions';
import { MAX_SESSIONS_PER_SERVER, McpGateway, type GatewayEndpoint } from '../../../src/core/gateway/mcpGateway';
import { waitsForUser } from '../../../src/core/gateway/gatewayMirror';
import type { McpHost } from '../../../src/core/host/mcpHost';
import { RecordingLog, waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

/** The user's choices the gateway serves by: a set of unchecked `server/tool`s and of unpublished servers. */
class TestOffers implements GatewayOffers {
  readonly off = new Set<string>();
  readonly unpublished = new Set<string>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  published = (id: string) => !this.unpublished.has(id);
  offered = (server: string, tool: string) => !this.off.has(`${server}/${tool}`);
  switchOff(server: string, tool: string): void {
    this.off.add(`${server}/${tool}`);
    this.changed.fire();
  }
  switchOn(server: string, tool: string): void {
    this.off.delete(`${server}/${tool}`);
    this.changed.fire();
  }
}

const gateways: McpGateway[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const gateway of gateways.splice(0)) gateway.dispose();
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

function gatewayFor(host: McpHost, address: GatewayAddress = privateGatewayAddress(), offers = new TestOffers()) {
  const log = new RecordingLog();
  const gateway = new McpGateway({ host, offers, address, version: '9.9.9', log });
  gateways.push(gateway);
  return { gateway, offers, log, address };
}

/** A fetch that goes where VS Code's extension host sends a `unix://<socket>#<path>` URL: through the socket, to the path. */
function fetchFor(endpoint: GatewayEndpoint): { url: URL; fetch: typeof globalThis.fetch } {
  const parsed = new URL(endpoint.url);
  if (parsed.protocol !== 'unix:') return { url: parsed, fetch: globalThis.fetch };
  const dispatcher = new Agent({ connect: { socketPath: decodeURIComponent(parsed.pathname) } });
  const url = new URL(`http://localhost${parsed.hash.slice(1)}`);
  return {
    url,
    fetch: ((input: string | URL, init?: RequestInit) =>
      undiciFetch(input as string, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch,
  };
}

async function connect(endpoint: GatewayEndpoint, onToolsChanged?: () => void): Promise<Client> {
  const { url, fetch } = fetchFor(endpoint);
  const client = new Client({ name: 'agent', version: '1' });
  if (onToolsChanged) client.setNotificationHandler('notifications/tools/list_changed', onToolsChanged);
  await client.connect(
    new StreamableHTTPClientTransport(url, { fetch, requestInit: { headers: { ...endpoint.headers } } }),
  );
  clients.push(client);
  return client;
}

/** One raw HTTP request to the gateway (over its socket when it has one): status and body. */
function rawRequest(
  address: GatewayAddress,
  port: number | undefined,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = address.kind === 'socket' ? { socketPath: address.socketPath } : { host: '127.0.0.1', port };
    const req = httpRequest(
      {
        ...target,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    );
  });
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

describe("The gateway that publishes MCP Host's servers to VS Code's agents", function () {
  this.timeout(60_000);

  it('mirrors a running server over its private socket: the same tools, and a call answered by the server', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const ours = await running(host, 'fx');
    const { gateway } = gatewayFor(host);
    const client = await connect(await gateway.endpoint('fx'));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ours.tools.map((t) => t.name).sort());
    assert.deepEqual(
      tools.find((t) => t.name === 'echo')?.inputSchema,
      ours.tools.find((t) => t.name === 'echo')?.inputSchema,
    );
    const result = await client.callTool({ name: 'echo', arguments: { text: 'through the gateway' } });
    assert.equal(textOf(result), 'through the gateway');
    // The call ran in MCP Host's own process of the server: its pid is the one the host shows.
    assert.equal(textOf(await client.callTool({ name: 'pid', arguments: {} })), String(host.server('fx')!.pid));
    assert.equal(gateway.sessionCount('fx'), 1);
  });

  it("passes the server's log lines to a client at the level it set, its secrets as placeholders", async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ env: { FIXTURE_TOKEN: '${input:token}' } }) }));
    await running(host, 'fx');
    const { gateway } = gatewayFor(host);
    const client = await connect(await gateway.endpoint('fx'));
    const heard: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void heard.push(n.params));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log', arguments: { level: 'info', text: 'below the level' } });
    await client.callTool({ name: 'log', arguments: { level: 'warning', text: 'token secret-token in use' } });
    await waitFor('the warning', () => heard.length > 0);
    assert.deepEqual(heard, [{ level: 'warning', logger: 'fixture', data: 'token ${input:token} in use' }]);
  });

  it('serves a 2026-07-28 server to a 2025-11-25 client, with its prompts and resources', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ modern: modern() }));
    const ours = await running(host, 'modern');
    assert.equal(ours.era, 'modern');
    const { gateway } = gatewayFor(host);
    const client = await connect(await gateway.endpoint('modern'));
    assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((p) => p.name),
      ours.prompts.map((p) => p.name),
    );
    const { resources } = await client.listResources();
    assert.ok(
      resources.some((r) => r.uri === 'fixture://readme'),
      "the fixture's readme is listed",
    );
    const read = await client.readResource({ uri: 'fixture://readme' });
    assert.ok('text' in read.contents[0] && read.contents[0].text.length > 0);
  });

  it('leaves out a tool the user switched off and gives it back, telling the client each time on its session, the version unchanged', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const before = listsHash(await running(host, 'fx'));
    const { gateway, offers } = gatewayFor(host);
    let changes = 0;
    const client = await connect(await gateway.endpoint('fx'), () => changes++);
    await client.listTools();
    offers.switchOff('fx', 'echo');
    await waitFor('a tools/list_changed', () => changes === 1);
    assert.equal(
      (await client.listTools()).tools.some((t) => t.name === 'echo'),
      false,
    );
    await assert.rejects(
      client.callTool({ name: 'echo', arguments: { text: 'x' } }),
      /switched off in MCP Host's Servers view/,
    );
    offers.switchOn('fx', 'echo');
    await waitFor('a second tools/list_changed', () => changes === 2);
    assert.equal(
      (await client.listTools()).tools.some((t) => t.name === 'echo'),
      true,
    );
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'back' } })), 'back');
    // VS Code drops its connection when the version changes: a switch must not change it.
    assert.equal(listsHash(host.server('fx')!), before);
  });

  it('keeps the version VS Code caches by while a server starts, and while a client is connected when its lists change', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const versions = new PublishedVersions();
    const first = versions.versionOf(await running(host, 'fx'), false);
    assert.match(first, /^[0-9a-f]{16}$/);
    const { gateway } = gatewayFor(host);
    const seen: string[] = [];
    const listener = host.onDidChangeServers(() => seen.push(versions.versionOf(host.server('fx')!, false)));
    await host.restart('fx');
    await running(host, 'fx');
    listener.dispose();
    assert.ok(seen.length >= 2, `the restart was seen (${seen.length} changes)`);
    assert.deepEqual(new Set(seen), new Set([first]), 'starting, restarting and running again: one version');
    // A client connected: a list that changes (here: the tools are others) keeps the version it connected with.
    const client = await connect(await gateway.endpoint('fx'));
    assert.equal(gateway.connected('fx'), true);
    const changed = { ...host.server('fx')!, tools: [] };
    assert.equal(versions.versionOf(changed, true), first);
    // As VS Code ends it: a DELETE of the session. What it saw live stays under that version.
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await waitFor('the session to end', () => !gateway.connected('fx'));
    assert.equal(versions.versionOf(changed, false), first, 'a session ending changes nothing');
    // Lists that change while nobody is connected get a version of their own.
    const changedAgain = { ...host.server('fx')!, tools: host.server('fx')!.tools.slice(1) };
    assert.notEqual(versions.versionOf(changedAgain, false), first);
  });

  it('starts a server that starts when needed on the first request, and restarts a crashed one for the next call', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    assert.equal(host.server('lazy')!.status, 'stopped');
    const { gateway } = gatewayFor(host);
    const client = await connect(await gateway.endpoint('lazy'));
    assert.equal(host.server('lazy')!.status, 'running', "the client's initialize started it");
    const pid = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })));
    process.kill(pid, 'SIGKILL');
    await waitFor('the host to notice the crash', () => host.server('lazy')!.status !== 'running');
    const after = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })));
    assert.notEqual(after, pid, 'the same session reached a new process of the server');
  });

  it('refuses a request without the token, with a wrong one, from a web page, for an unknown or unpublished server', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy(), hidden: legacy() }));
    await running(host, 'fx');
    const { gateway, offers, address, log } = gatewayFor(host);
    offers.unpublished.add('hidden');
    const endpoint = await gateway.endpoint('fx');
    const path = new URL(endpoint.url).hash.slice(1);
    const good = endpoint.headers.Authorization;
    assert.equal((await rawRequest(address, undefined, path, {})).status, 401);
    assert.equal((await rawRequest(address, undefined, path, { authorization: `${good.slice(0, -1)}x` })).status, 401);
    assert.equal(
      (await rawRequest(address, undefined, path, { authorization: good, origin: 'http://evil.example' })).status,
      403,
    );
    assert.equal(
      (await rawRequest(address, undefined, '/mcp/bm9uZQ', { authorization: good })).status,
      404,
      'a server that does not exist',
    );
    assert.equal(
      (
        await rawRequest(address, undefined, new URL((await gateway.endpoint('hidden')).url).hash.slice(1), {
          authorization: good,
        })
      ).status,
      404,
      'an unpublished server',
    );
    assert.equal((await rawRequest(address, undefined, '/other', { authorization: good })).status, 404);
    assert.equal(gateway.sessionCount('fx'), 0);
    assert.ok(log.lines.some((l) => /refused a request \(401\)/.test(l)));
    for (let i = 0; i < 50; i++) await rawRequest(address, undefined, path, {});
    assert.equal(log.lines.filter((l) => /refused a request/.test(l)).length, 1, 'knocking cannot flood the log');
    assert.ok(!log.lines.some((l) => l.includes(good.slice(7))), 'the token never reaches the log');
    assert.equal(
      (await rawRequest(address, undefined, path, { authorization: good })).status,
      200,
      'with the token the same request opens a session',
    );
  });

  it('keeps its socket in a folder only this user may enter, and another user cannot connect', async function () {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const { gateway, address } = gatewayFor(host);
    await gateway.endpoint('fx');
    assert.equal(address.kind, 'socket');
    if (address.kind !== 'socket') return;
    assert.equal(statSync(address.folder).mode & 0o777, 0o700);
    assert.equal(statSync(address.socketPath).mode & 0o777, 0o600);
    if (process.getuid?.() !== 0) this.skip(); // trying as another user needs root to become one
    const probe = `require('net').connect(${JSON.stringify(address.socketPath)}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })`;
    const asNobody = spawnSync(process.execPath, ['-e', probe], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(asNobody.stdout.trim(), 'EACCES', `another user's connection: ${asNobody.stdout}${asNobody.stderr}`);
  });

  it('on 127.0.0.1 serves only requests with the token', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    await running(host, 'fx');
    const { gateway, address } = gatewayFor(host, { kind: 'loopback' });
    const endpoint = await gateway.endpoint('fx');
    const url = new URL(endpoint.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.equal((await rawRequest(address, Number(url.port), url.pathname, {})).status, 401);
    const client = await connect(endpoint);
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'loopback' } })), 'loopback');
  });

  it(`keeps at most ${MAX_SESSIONS_PER_SERVER} sessions of a server, ending the oldest`, async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    await running(host, 'fx');
    const { gateway, log } = gatewayFor(host);
    const endpoint = await gateway.endpoint('fx');
    for (let i = 0; i < MAX_SESSIONS_PER_SERVER + 2; i++) await connect(endpoint);
    assert.equal(gateway.sessionCount('fx'), MAX_SESSIONS_PER_SERVER);
    // A client that opens sessions in a loop does not flood the log: one line, the rest counted in the next.
    assert.equal(log.text().match(/opened a session/g)?.length, 1, log.text());
  });

  it("keeps an App tool's _meta and serves its ui:// resource, and gives an agent a task's final result while MCP Host follows it", async () => {
    const { host } = harness({ apps: true });
    hosts.push(host);
    await host.applySettings(
      entries({ apps: modern({ args: [...modern().args, '--app-tools', '--task-tools', '--task-poll-ms', '150'] }) }),
    );
    await running(host, 'apps');
    const { gateway } = gatewayFor(host);
    const client = await connect(await gateway.endpoint('apps'));
    const { tools } = await client.listTools();
    const board = tools.find((t) => t.name === 'show-board');
    assert.deepEqual(board?._meta, { ui: { resourceUri: 'ui://fixture/board.html' } });
    assert.deepEqual(
      tools.find((t) => t.name === 'board-increment')?._meta,
      { ui: { resourceUri: 'ui://fixture/board.html', visibility: ['app'] } },
      'an app-only tool is listed for the app VS Code renders; VS Code keeps it from the model',
    );
    const page = await client.readResource({ uri: 'ui://fixture/board.html' });
    assert.match((page.contents[0] as { text: string }).text, /<html/i);
    const shown = await client.callTool({ name: 'show-board', arguments: { title: 'agents' } });
    assert.equal(textOf(shown), 'Board "agents" at 0.');
    const slept = await client.callTool({ name: 'task-sleep', arguments: { ms: 400 } });
    assert.equal(textOf(slept), 'slept 400 ms');
    assert.deepEqual(
      host.tasks.list().map((t) => [t.toolName, t.status]),
      [['task-sleep', 'completed']],
      "MCP Host's Tasks view followed it",
    );
  });

  it('refuses at once, saying what to do, a workspace server waiting for consent or declined and one that needs sign-in: no dialog opens for an agent', async () => {
    const { host, confirm } = harness({ consent: () => [] });
    hosts.push(host);
    await host.applySettings(entries({ repo: legacy({ autoStart: 'onDemand' }) }, 'workspace'));
    const asked = confirm.callCount;
    const { gateway } = gatewayFor(host);
    await assert.rejects(
      connect(await gateway.endpoint('repo')),
      /MCP server .*repo.* comes from workspace settings and you did not allow it to run: use Start on its row in MCP Host's Servers view/,
    );
    assert.equal(confirm.callCount, asked, 'no dialog for a request of the gateway');
    const waiting = { ...host.server('repo')!, held: 'consentWhenNeeded' as const };
    assert.match(waitsForUser(waiting)!, /waits for your consent to run: allow it .* MCP Host's Servers view/);
    const signIn = { ...host.server('repo')!, held: undefined, status: 'needs-sign-in' as const };
    assert.match(waitsForUser(signIn)!, /needs you to sign in: use Sign In on its row in MCP Host's Servers view/);
  });

  it('refuses at once a server whose ${input:} value the user did not give, without asking for it again', async () => {
    let asked = 0;
    const { host } = harness({
      input: async () => {
        asked++;
        throw new Error('the user gave no value');
      },
    });
    hosts.push(host);
    await host.applySettings(entries({ keyed: legacy({ env: { TOKEN: '${input:token}' } }) }));
    assert.deepEqual([host.server('keyed')!.status, host.server('keyed')!.held, asked], ['error', 'input', 1]);
    const { gateway } = gatewayFor(host);
    await assert.rejects(
      connect(await gateway.endpoint('keyed')),
      /needs a value you have not given .*token.*: use Start on its row in MCP Host's Servers view to be asked for it/,
    );
    assert.equal(asked, 1, 'nobody is asked for the value on behalf of an agent');
  });

  it('serves the stdio lane: VS Code runs the relay, which passes bytes to the relay socket; the first call starts a waiting server; a wrong token is refused', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ lazy: legacy({ autoStart: 'onDemand' }) }));
    const { gateway, log } = gatewayFor(host);
    const relay = (await gateway.relayEndpoint('lazy'))!;
    assert.ok(relay, 'a socket address has a relay socket');
    assert.equal(statSync(relay.socketPath).mode & 0o777, 0o600);
    const relayed = async (token: string) => {
      const client = new Client({ name: 'vs-code', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(__dirname, '../../../src/gatewayRelay.js'), relay.socketPath],
          env: { ...getDefaultEnvironment(), MCPHOST_GATEWAY_TOKEN: token, MCPHOST_GATEWAY_SERVER: 'lazy' },
        }),
      );
      clients.push(client);
      return client;
    };
    const client = await relayed(relay.token);
    assert.equal(gateway.connected('lazy'), true);
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'echo'));
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'relayed' } })), 'relayed');
    assert.equal(host.server('lazy')!.status, 'running');
    await assert.rejects(relayed('wrong'));
    await waitFor('the refusal in the log', () =>
      log.lines.some((l) => /refused a relay: a missing or wrong token/.test(l)),
    );
  });

  it('goes on serving after a connection it could not accept, and says why in the log', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ first: legacy() }));
    await running(host, 'first');
    const { gateway, log } = gatewayFor(host);
    const endpoint = await gateway.endpoint('first');
    // What Node reports when accept(2) fails (no file descriptor left, say): the server's own error event.
    (gateway as unknown as { http: Server }).http.emit('error', new Error('accept EMFILE'));
    await waitFor('the line in the log', () =>
      log.lines.some((l) => /refused a connection: it could not be accepted: accept EMFILE/.test(l)),
    );
    assert.ok((await (await connect(endpoint)).listTools()).tools.some((t) => t.name === 'echo'));
  });

  it("answers a client's initialize with why the server cannot run", async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ off: legacy({ enabled: false }) }));
    const { gateway } = gatewayFor(host);
    await assert.rejects(connect(await gateway.endpoint('off')), /disabled/);
  });
});

describe("Which servers are published to VS Code's agents", () => {
  const server = (status: string) =>
    ({ id: 's', status, tools: [], prompts: [] }) as unknown as Parameters<typeof mayPublish>[0];
  const on = { all: true, server: true };

  it("publishes a server that may run here, unless publishing is off globally or for it, or VS Code's mcp.json runs it too", () => {
    for (const status of ['running', 'stopped', 'starting', 'error', 'needs-sign-in', 'restarting'])
      assert.equal(mayPublish(server(status), on, false), true, status);
    for (const status of ['invalid', 'disabled', 'untrusted'])
      assert.equal(mayPublish(server(status), on, false), false, status);
    assert.equal(mayPublish(server('running'), { all: false, server: true }, false), false);
    assert.equal(mayPublish(server('running'), { all: true, server: false }, false), false);
    assert.equal(mayPublish(server('running'), on, true), false, "not twice: VS Code's agents use its own");
  });

  it('gives a server whose lists were never known a version that says so, and keeps one known through a start', () => {
    const versions = new PublishedVersions();
    assert.equal(versions.versionOf(server('stopped'), false), NOT_STARTED);
    const known = versions.versionOf(server('running'), false);
    assert.match(known, /^[0-9a-f]{16}$/);
    assert.equal(versions.versionOf(server('starting'), false), known);
    assert.equal(versions.versionOf(server('error'), false), known);
  });
});
