// Test-only extension. It reaches MCP Host the way any other extension would (its exported API),
// and lets the test runner outside the editor ask it things over a loopback HTTP control channel.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../../src/editor/publicApi';
import { recorded, registerFixtureChatModel } from './fixtureChatModel';

let server: Server | undefined;

interface VsCodeGateway {
  readonly servers: readonly { readonly label: string; readonly address: vscode.Uri }[];
  readonly onDidChangeServers: vscode.Event<unknown>;
  dispose(): void;
}
/** How long one of VS Code's gateways is given to list the servers before a new one is asked for. */
const GATEWAY_PATIENCE_MS = 20_000;

/** Whether `holds` became true at an `event` within `ms`. */
function until(event: vscode.Event<unknown>, holds: () => boolean, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(false);
    }, ms);
    const listener = event(() => {
      if (!holds()) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(true);
    });
  });
}
let vsCodeGatewayOpen: Promise<VsCodeGateway | undefined> | undefined;
let ownActivationMs = 0;

async function hostApi(): Promise<McpHostApi> {
  const extension = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  if (!extension) throw new Error('MCP Host is not installed');
  return extension.isActive ? extension.exports : extension.activate();
}

type Operation = (args: any) => Promise<unknown>;

/** Starts the V8 CPU profiler of this extension host; `stop` returns the profile. */
async function startProfile(): Promise<{ stop(): Promise<object> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      return profile as object;
    },
  };
}

const operations: Record<string, Operation> = {
  listServers: async () => (await hostApi()).listServers(),
  listTools: async ({ serverId }) => (await hostApi()).listTools(serverId),
  callTool: async ({ serverId, name, args }) => (await hostApi()).callTool(serverId, name, args),
  workspaceFolders: async () =>
    (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, uri: f.uri.toString() })),
  addWorkspaceFolder: async ({ path }) => {
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    const changed = new Promise<void>((resolve) => {
      const listener = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        listener.dispose();
        resolve();
      });
    });
    if (!vscode.workspace.updateWorkspaceFolders(count, 0, { uri: vscode.Uri.file(path) }))
      throw new Error('updateWorkspaceFolders refused');
    await changed;
    return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  },
  isTrusted: async () => vscode.workspace.isTrusted,
  // Which extension host answers (each window's runs in a process of its own).
  extensionHostPid: async () => process.pid,
  modelRequests: async () => recorded,
  // What another agent does: find MCP Host's language-model tools and invoke one.
  invokeLmTool: async ({ name, input }) => {
    if (!vscode.lm.tools.some((t) => t.name === name)) throw new Error(`no language-model tool ${name}`);
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  },
  executeCommand: async ({ command, args }) => vscode.commands.executeCommand(command, ...(args ?? [])),
  readFile: async ({ uri }) => Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri))).toString('utf8'),
  openDocument: async ({ uri }) =>
    (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText().slice(0, 40),
  stat: async ({ uri }) => vscode.workspace.fs.stat(vscode.Uri.parse(uri)),
  activeEditor: async () => {
    const document = vscode.window.activeTextEditor?.document;
    return document && { uri: document.uri.toString(), languageId: document.languageId };
  },
  userSetting: async ({ section }) => vscode.workspace.getConfiguration().inspect(section)?.globalValue,
  lmTools: async () => vscode.lm.tools.map((t) => t.name),
  // The language-model tools whose names match, with what an agent sees of each.
  lmToolInfo: async ({ pattern }: { pattern: string }) =>
    vscode.lm.tools
      .filter((t) => new RegExp(pattern).test(t.name))
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, tags: t.tags })),
  // Side by side with VS Code's built-in MCP support (bench/builtInComparison.ts), timed in here.
  builtInStart: async ({ ids }: { ids: string[] }) => {
    for (const id of ids) await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
    const start = performance.now();
    await Promise.all(
      ids.map((id) => vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true })),
    );
    return performance.now() - start;
  },
  // VS Code starting MCP Host's published servers (its ids `<extension>/<label>`) after MCP Host stopped them: the gateway starts them.
  gatewayStart: async ({ ids }: { ids: string[] }) => {
    const api = await hostApi();
    for (const id of ids) {
      await vscode.commands.executeCommand('workbench.mcp.stopServer', `mcp-host.mcp-host/${id}`);
      await api.stopServer(id);
    }
    const start = performance.now();
    await Promise.all(
      ids.map((id) =>
        vscode.commands.executeCommand('workbench.mcp.startServer', `mcp-host.mcp-host/${id}`, {
          waitForLiveTools: true,
        }),
      ),
    );
    return performance.now() - start;
  },
  // One language-model tool call to a server that is not running: VS Code's connection (and, for a
  // server MCP Host publishes, MCP Host's process) stopped first, so the call starts what it needs.
  firstLmCall: async ({
    vsCodeId,
    hostId,
    name,
    input,
  }: {
    vsCodeId: string;
    hostId?: string;
    name: string;
    input: object;
  }) => {
    await vscode.commands.executeCommand('workbench.mcp.stopServer', vsCodeId);
    if (hostId) await (await hostApi()).stopServer(hostId);
    const start = performance.now();
    try {
      const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
      const text = result.content
        .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
        .join('');
      return { ms: performance.now() - start, text };
    } catch (error) {
      return { ms: performance.now() - start, error: String(error).slice(0, 500) };
    }
  },
  hostStart: async ({ ids }: { ids: string[] }) => {
    const api = await hostApi();
    for (const id of ids) await api.stopServer(id);
    const ready = () =>
      ids.every((id) => api.listServers().some((s) => s.id === id && s.status === 'running' && s.toolCount > 0));
    const start = performance.now();
    const listed = new Promise<void>((resolve) => {
      const listener = api.onDidChangeServers(() => {
        if (!ready()) return;
        listener.dispose();
        resolve();
      });
    });
    await Promise.all(ids.map((id) => api.startServer(id)));
    if (!ready()) await listed;
    return performance.now() - start;
  },
  apiCalls: async ({
    via,
    serverId,
    name,
    args,
    count,
  }: {
    via: 'callTool' | 'invokeTool';
    serverId: string;
    name: string;
    args: Record<string, unknown>;
    count: number;
  }) => {
    const api = await hostApi();
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await (via === 'callTool' ? api.callTool(serverId, name, args) : api.invokeTool(serverId, name, args));
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)];
  },
  // With `profile` (a file path), the extension host's CPU profile over the calls is written there:
  // the whole thread, VS Code's side of each call included.
  lmToolCalls: async ({
    name,
    input,
    count,
    profile,
  }: {
    name: string;
    input: object;
    count: number;
    profile?: string;
  }) => {
    const samples: number[] = [];
    let last = '';
    const profiling = profile ? await startProfile() : undefined;
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      let result: vscode.LanguageModelToolResult;
      try {
        result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
      } catch (error) {
        return { error: String(error).slice(0, 500), afterMs: performance.now() - start };
      }
      samples.push(performance.now() - start);
      last = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    }
    if (profiling && profile) writeFileSync(profile, JSON.stringify(await profiling.stop()));
    samples.sort((a, b) => a - b);
    return {
      medianMs: samples[Math.floor(samples.length / 2)],
      totalMs: samples.reduce((a, b) => a + b, 0),
      lastLength: last.length,
      lastStart: last.slice(0, 80),
    };
  },
  // What VS Code hands Copilot CLI and Claude Code sessions: its own MCP gateway (proposed API
  // mcpServerDefinitions), one address per server; kept open until the window closes. Waits until
  // the servers whose labels are given are listed (the list may be empty for the first moments).
  vsCodeGateway: async ({ labels, timeoutMs }: { labels: string[]; timeoutMs: number }) => {
    const lm = vscode.lm as unknown as {
      startMcpGateway(): Promise<VsCodeGateway | undefined>;
    };
    const deadline = Date.now() + timeoutMs;
    const seen: string[] = [];
    for (;;) {
      vsCodeGatewayOpen ??= lm.startMcpGateway();
      const gateway = await vsCodeGatewayOpen;
      if (!gateway) throw new Error('VS Code did not start its MCP gateway');
      const listed = () => labels.every((label) => gateway.servers.some((s) => s.label === label));
      // In code-server, VS Code's gateway is made in its server process and the window subscribes to
      // its changes only once it is made: a server published meanwhile is missed until the next
      // change. A CLI session would be handed a new gateway; so is this one after a while.
      const waitMs = Math.min(GATEWAY_PATIENCE_MS, deadline - Date.now());
      if (listed() || (waitMs > 0 && (await until(gateway.onDidChangeServers, listed, waitMs))))
        return gateway.servers.map((s) => ({ label: s.label, address: s.address.toString(true) }));
      seen.push(gateway.servers.map((s) => s.label).join(', ') || 'nothing');
      if (Date.now() >= deadline) {
        // What VS Code's MCP knows besides, so that a failure says where the servers were lost.
        const known = (vscode.lm as unknown as { mcpServerDefinitions?: readonly { label: string }[] })
          .mcpServerDefinitions;
        throw new Error(
          `VS Code's gateways list ${seen.join('; then ')}; ` +
            `the extension host's MCP server definitions: ${known?.map((d) => d.label).join(', ') || 'none'}`,
        );
      }
      gateway.dispose();
      vsCodeGatewayOpen = undefined;
    }
  },
  updateUserSetting: async ({ section, value }) =>
    vscode.workspace.getConfiguration().update(section, value, vscode.ConfigurationTarget.Global),
  // Dev mode's debugging: a breakpoint as the user would click it into the gutter, and the session's name.
  addBreakpoint: async ({ file, line }) =>
    vscode.debug.addBreakpoints([
      new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(file), new vscode.Position(line, 0))),
    ]),
  debugSessions: async () => [...debugSessions],
  chatModels: async () => (await vscode.lm.selectChatModels({ vendor: 'mcp-host-test' })).map((m) => m.id),
  invokeTool: async ({ serverId, name, args }) => (await hostApi()).invokeTool(serverId, name, args),
  serverActivity: async () => (await hostApi()).serverActivity(),
  // This extension is the minimal one the benchmark compares MCP Host's activation with.
  // The extension host's JavaScript heap in use after a full garbage collection (through the
  // inspector protocol in this same process), for memory comparisons that do not count garbage.
  heapUsed: async () => {
    await collectGarbage();
    return process.memoryUsage().heapUsed;
  },
  // A heap snapshot of this extension host, after a collection, written to `file` (for benchmark investigations).
  heapSnapshot: async ({ file }: { file: string }) => {
    await collectGarbage();
    return (require('node:v8') as typeof import('node:v8')).writeHeapSnapshot(file);
  },
  // A CPU profile of this extension host's main thread over the next `ms` (for benchmark investigations).
  cpuProfile: async ({ ms }: { ms: number }) => {
    const inspector = require('node:inspector') as typeof import('node:inspector');
    const session = new inspector.Session();
    session.connect();
    const post = (method: string, params?: object) =>
      new Promise<any>((resolve, reject) =>
        session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
      );
    try {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 500 });
      await post('Profiler.start');
      await new Promise((r) => setTimeout(r, ms));
      return (await post('Profiler.stop')).profile;
    } finally {
      session.disconnect();
    }
  },
  // In a window without MCP Host (the built-in's side of a benchmark) only the process is known.
  activation: async () => ({
    mcpHostMs: vscode.extensions.getExtension('mcp-host.mcp-host') ? (await hostApi()).activationMs : undefined,
    minimalMs: ownActivationMs,
    pid: process.pid,
  }),
  runSuite: async ({ index, grep }) => {
    const suite = require(index) as { run(options?: { grep?: string }): Promise<unknown> };
    return suite.run({ grep });
  },
};

/**
 * The benchmark's floors (bench/cannedServer.js at `script`): an HTTP definition whose endpoint
 * is a canned responder served by this extension host on a Unix socket, as MCP Host's gateway is,
 * a stdio definition of the same responder, and a stdio definition of MCP Host's relay process to
 * the same responder answering lines in this extension host (the shape of MCP Host's stdio lane).
 */
async function publishFloorServers(context: vscode.ExtensionContext, script: string): Promise<void> {
  const { serveCannedHttp, serveCannedLines } = require(script) as typeof import('../../../bench/cannedServer');
  const socketPath = require('node:path').join(require('node:os').tmpdir(), `mcp-host-floor-${process.pid}.sock`);
  require('node:fs').rmSync(socketPath, { force: true });
  const http = await serveCannedHttp(socketPath, 'floor-http');
  const linesPath = socketPath.replace(/\.sock$/, '-lines.sock');
  require('node:fs').rmSync(linesPath, { force: true });
  const lines = await serveCannedLines(linesPath, 'floor-relayed');
  context.subscriptions.push({ dispose: () => http.close() }, { dispose: () => lines.close() });
  const relay = require('node:path').resolve(require('node:path').dirname(script), '../../dist/gatewayRelay.js');
  const definitions = [
    new vscode.McpHttpServerDefinition('floor-http', vscode.Uri.parse(`unix://${socketPath}#/mcp`), {}, '1'),
    new vscode.McpStdioServerDefinition('floor-stdio', process.execPath, [script, 'stdio', 'floor-stdio'], {}, '1'),
    new vscode.McpStdioServerDefinition('floor-relayed', process.execPath, [relay, linesPath], {}, '1'),
  ];
  context.subscriptions.push(
    vscode.lm.registerMcpServerDefinitionProvider('mcpHostTest.floor', {
      provideMcpServerDefinitions: () => definitions,
    }),
  );
}

/** A full garbage collection of this extension host, through the inspector protocol in this same process. */
async function collectGarbage(): Promise<void> {
  const inspector = require('node:inspector') as typeof import('node:inspector');
  const session = new inspector.Session();
  session.connect();
  try {
    await new Promise((resolve, reject) =>
      session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve(undefined))),
    );
  } finally {
    session.disconnect();
  }
}

/** The names of the debug sessions that run. */
const debugSessions = new Set<string>();

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.onDidStartDebugSession((s) => debugSessions.add(s.name)),
    vscode.debug.onDidTerminateDebugSession((s) => debugSessions.delete(s.name)),
  );
  const started = performance.now();
  context.subscriptions.push(registerFixtureChatModel());
  // An extension's language-model tool that does nothing but answer: what the editor's path for
  // extension tools costs by itself (the floor under MCP Host's mcpHost_callTool).
  context.subscriptions.push(
    vscode.lm.registerTool<{ message: string }>('mcpHostTest_echo', {
      invoke: async (options) =>
        new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`Echo: ${options.input.message}`)]),
    }),
  );
  const floor = process.env.MCPHOST_BENCH_FLOOR;
  if (floor) void publishFloorServers(context, floor);
  const port = Number(process.env.MCPHOST_TEST_CONTROL_PORT);
  if (!port) return;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      try {
        const { op, args } = JSON.parse(body || '{}');
        const operation = operations[op];
        if (!operation) throw new Error(`unknown operation ${op}`);
        const result = await operation(args ?? {});
        res.writeHead(200, REPLY_HEADERS).end(JSON.stringify({ ok: true, result }));
      } catch (error) {
        res.writeHead(200, REPLY_HEADERS).end(JSON.stringify({ ok: false, error: (error as Error).message }));
      }
    });
  });
  listenOnceFree(server, port);
  ownActivationMs = performance.now() - started;
}

/**
 * Each reply closes its connection: a connection kept alive would carry the runner's next request
 * to this extension host after a window reload, while it shuts down, instead of the new window's.
 */
const REPLY_HEADERS = { 'content-type': 'application/json', connection: 'close' };

/**
 * Listens on the port once the previous window's extension host has let go of it (or another
 * window's, in a test with two windows: for up to half an hour).
 */
function listenOnceFree(control: Server, port: number, attempts = 18_000): void {
  control.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' || attempts <= 1) throw error;
    setTimeout(() => listenOnceFree(control, port, attempts - 1), 100);
  });
  control.listen(port, '127.0.0.1');
}

export function deactivate(): void {
  server?.close();
  server?.closeAllConnections();
}
