// What one Streamable HTTP hop costs a tool call, in a fresh process: the floor under the agents'
// lane (VS Code's MCP → MCP Host's gateway → the server). Prints one JSON line.
//   node gatewayProbe.js <variant: gateway|bareHop|direct> [calls=N]
//   gateway  an SDK client over a private Unix socket to MCP Host's gateway, which calls through McpHost;
//   bareHop  the same client and socket to a bare `@modelcontextprotocol/server` Server whose
//            tools/call hands the request to a bare SDK client of the server (no MCP Host code);
//   relay    the bare SDK client over stdio to the relay process VS Code starts on the stdio lane
//            (dist/gatewayRelay.js), which passes bytes to the gateway's relay socket;
//   direct   the bare SDK client straight to the server over stdio.
//   owner    McpHost's own call of a server it runs with "share": "machine" (the window running it);
//   guest    the same call from a second McpHost sharing that process (a window that joined it:
//            its host, HTTP on the share socket, the owner's gateway and host, the server);
//   lines    the bare SDK client over the gateway's relay socket itself (newline-delimited JSON-RPC,
//            no relay process), as a window sharing another window's process reaches it;
//   forward  the floor of forwarding JSON-RPC instead of serving it: the bare SDK client over lines
//            on a Unix socket whose messages go to the server's stdio as they are, ids rewritten
//            (no MCP server or client between them).
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';
import { Emitter } from '../src/core/events';
import { privateGatewayAddress, removeGatewayAddress } from '../src/core/gateway/gatewayAddress';
import { McpGateway } from '../src/core/gateway/mcpGateway';
import { silentLog } from '../src/core/connection/serverLog';
import { MachineShares } from '../src/core/share/machineShares';
import type { McpHost } from '../src/core/host/mcpHost';
import { RecordingLog } from '../test/unit/support/fixtures';
import { entries, harness, legacy, running } from '../test/unit/support/hostHarness';
import { tempDir } from '../test/support/tempDir';
import { chmodSync } from 'node:fs';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

const FIXTURES = path.resolve(__dirname, '../test/fixtures/servers');
const [variant, ...rest] = process.argv.slice(2);
const params = Object.fromEntries(rest.map((kv) => kv.split('=') as [string, string]));
const calls = Number(params.calls ?? 1000);

/** An SDK client of an HTTP endpoint reached through a Unix socket, as VS Code's extension host reaches the gateway. */
async function clientOverSocket(
  socketPath: string,
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const dispatcher = new Agent({ connect: { socketPath } });
  const fetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input as string, { ...(init as object), dispatcher })) as unknown as typeof globalThis.fetch;
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost${urlPath}`), { fetch, requestInit: { headers } }),
  );
  return client;
}

async function directClient(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(FIXTURES, 'legacyStdio.js')],
      stderr: 'ignore',
    }),
  );
  return client;
}

type Caller = { call: () => Promise<unknown>; close: () => Promise<void> };

/** A host running the fixture "fx", published by a gateway on a private socket. */
async function gatewayOfFixture() {
  const { host } = harness();
  await host.applySettings(entries({ fx: legacy() }));
  await running(host, 'fx');
  const changed = new Emitter<void>();
  const offers = { published: () => true, offered: () => true, onDidChange: changed.event };
  const address = privateGatewayAddress();
  const gw = new McpGateway({ host, offers, address, version: '0', log: silentLog });
  return { host, gw, address };
}

async function gateway(): Promise<Caller> {
  const { host, gw, address } = await gatewayOfFixture();
  const endpoint = await gw.endpoint('fx');
  if (address.kind !== 'socket') throw new Error('the gateway has no Unix socket here');
  const client = await clientOverSocket(address.socketPath, new URL(endpoint.url).hash.slice(1), {
    ...endpoint.headers,
  });
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
    close: async () => {
      await client.close();
      gw.dispose();
      await host.dispose();
    },
  };
}

async function relay(): Promise<Caller> {
  const { host, gw } = await gatewayOfFixture();
  const endpoint = await gw.relayEndpoint('fx');
  if (!endpoint) throw new Error('the gateway has no relay socket here');
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(__dirname, '../../dist/gatewayRelay.js'), endpoint.socketPath],
      env: { MCPHOST_GATEWAY_TOKEN: endpoint.token, MCPHOST_GATEWAY_SERVER: endpoint.serverId },
      stderr: 'ignore',
    }),
  );
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
    close: async () => {
      await client.close();
      gw.dispose();
      await host.dispose();
    },
  };
}

/**
 * A bare SDK client of newline-delimited JSON-RPC on a Unix socket (the library's line transport
 * over the socket's two directions), after `hello` as its first line when given.
 */
async function clientOverLines(socketPath: string, hello?: string): Promise<{ client: Client; socket: Socket }> {
  const socket = connect(socketPath);
  await new Promise((resolve) => socket.once('connect', resolve));
  if (hello) socket.write(`${hello}\n`);
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StdioServerTransport(socket, socket));
  return { client, socket };
}

/** The bare SDK client over the gateway's relay socket itself, newline-delimited JSON (no relay process). */
async function lines(): Promise<Caller> {
  const { host, gw } = await gatewayOfFixture();
  const endpoint = await gw.relayEndpoint('fx');
  if (!endpoint) throw new Error('the gateway has no relay socket here');
  const hello = JSON.stringify({ token: endpoint.token, server: endpoint.serverId });
  const { client, socket } = await clientOverLines(endpoint.socketPath, hello);
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
    close: async () => {
      await client.close();
      socket.destroy();
      gw.dispose();
      await host.dispose();
    },
  };
}

async function bareHop(): Promise<Caller> {
  const upstream = await directClient();
  const address = privateGatewayAddress();
  if (address.kind !== 'socket') throw new Error('no Unix socket here');
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const server = new Server({ name: 'hop', version: '0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => upstream.listTools());
    server.setRequestHandler('tools/call', (request) =>
      upstream.callTool({ name: request.params.name, arguments: request.params.arguments }),
    );
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void transports.set(sid, transport),
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(address.socketPath, resolve));
  const client = await clientOverSocket(address.socketPath, '/mcp');
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
    close: async () => {
      await client.close();
      http.closeAllConnections();
      http.close();
      removeGatewayAddress(address);
      await upstream.close();
    },
  };
}

/** Two windows' hosts in this process meeting in one private folder, each with "fx" shared ("share": "machine"). */
async function sharingWindows(): Promise<{ owner: McpHost; guest: McpHost; close: () => Promise<void> }> {
  const folder = tempDir('mcp-share-bench-');
  chmodSync(folder, 0o700);
  const made: { share: MachineShares; host: McpHost }[] = [];
  for (let i = 0; i < 2; i++) {
    const slot: { host?: McpHost } = {};
    const share = new MachineShares({
      host: () => slot.host!,
      version: '0',
      log: new RecordingLog(),
      folder: () => folder,
    });
    slot.host = harness({ share }).host;
    await slot.host.applySettings(entries({ fx: legacy({ share: 'machine' }) }));
    await running(slot.host, 'fx');
    made.push({ share, host: slot.host });
  }
  if (made[1].host.server('fx')?.share?.role !== 'guest') throw new Error('the second host did not join the first');
  return {
    owner: made[0].host,
    guest: made[1].host,
    close: async () => {
      for (const { share, host } of made.reverse()) {
        await host.dispose();
        share.dispose();
      }
    },
  };
}

async function owner(): Promise<Caller> {
  const windows = await sharingWindows();
  return { call: () => windows.owner.callTool('fx', 'echo', { text: 'hello' }), close: windows.close };
}

async function guest(): Promise<Caller> {
  const windows = await sharingWindows();
  return { call: () => windows.guest.callTool('fx', 'echo', { text: 'hello' }), close: windows.close };
}

async function forward(): Promise<Caller> {
  const upstream = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(FIXTURES, 'legacyStdio.js')],
    stderr: 'ignore',
  });
  await upstream.start();
  const address = privateGatewayAddress();
  if (address.kind !== 'socket') throw new Error('no Unix socket here');
  // Ids on the server's pipe are the forwarder's own; each maps back to its client's connection and id.
  const pending = new Map<number, { transport: StdioServerTransport; id: string | number }>();
  let next = 0;
  upstream.onmessage = (message) => {
    const m = message as { id?: number };
    const to = m.id === undefined ? undefined : pending.get(m.id);
    if (!to) return;
    pending.delete(m.id!);
    void to.transport.send({ ...message, id: to.id } as JSONRPCMessage);
  };
  const server = createNetServer((socket) => {
    const transport = new StdioServerTransport(socket, socket);
    transport.onmessage = (message) => {
      const m = message as { id?: string | number };
      if (m.id === undefined) return void upstream.send(message);
      const id = ++next;
      pending.set(id, { transport, id: m.id });
      void upstream.send({ ...message, id } as JSONRPCMessage);
    };
    void transport.start();
  });
  await new Promise<void>((resolve) => server.listen(address.socketPath, resolve));
  const { client, socket } = await clientOverLines(address.socketPath);
  return {
    call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }),
    close: async () => {
      await client.close();
      socket.destroy();
      server.close();
      removeGatewayAddress(address);
      await upstream.close();
    },
  };
}

async function direct(): Promise<Caller> {
  const client = await directClient();
  return { call: () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }), close: () => client.close() };
}

async function main(): Promise<void> {
  const make = { gateway, relay, lines, bareHop, direct, owner, guest, forward }[variant];
  if (!make) throw new Error(`unknown variant ${variant}: gateway, relay, bareHop, direct, owner, guest or forward`);
  const caller = await make();
  for (let i = 0; i < 100; i++) await caller.call();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await caller.call();
    times.push(performance.now() - start);
  }
  await caller.close();
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ medianMs: times[Math.floor(times.length / 2)] }));
  process.exit(0);
}

void main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
