import * as assert from 'node:assert/strict';
import { InMemoryTransport, type JSONRPCMessage, type Tool } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { appSandboxPolicy, DEFAULT_APP_CSP } from '../../../src/core/apps/appCsp';
import { AppModelContext, MODEL_CONTEXT_PER_APP } from '../../../src/core/apps/appModelContext';
import { AppRelayTransport, MAX_APP_MESSAGES_PER_SECOND } from '../../../src/core/apps/appRelayTransport';
import { loadAppResource } from '../../../src/core/apps/appResource';
import { AppSession, type AppHostPorts } from '../../../src/core/apps/appSession';
import { appResourceUri, callableFromApp, offeredToModel } from '../../../src/core/apps/appToolMeta';
import { toolCatalogue } from '../../../src/core/chat/modelToolOffer';
import { MemoryApprovalStore, ToolApprovals } from '../../../src/core/tools/toolApprovals';
import type { McpHost as McpHostType } from '../../../src/core/host/mcpHost';
import { ToolInvoker } from '../../../src/core/tools/toolInvoker';
import { waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const tool = (meta?: Record<string, unknown>): Tool => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...(meta ? { _meta: meta } : {}),
});

describe('MCP Apps: the sandbox policy from _meta.ui.csp', () => {
  it("uses the specification's default CSP when ui.csp is omitted, letting the app run its own blob: and data: scripts and workers", () => {
    const policy = appSandboxPolicy(undefined, undefined);
    assert.equal(
      policy.csp,
      "default-src 'none'; script-src 'self' 'unsafe-inline' blob: data:; worker-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'",
    );
    assert.equal(policy.csp, DEFAULT_APP_CSP);
    assert.equal(policy.allow, '');
  });

  it('maps each declared field to its directives, and frames and base URIs to their restrictive defaults when absent', () => {
    const policy = appSandboxPolicy(
      {
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example'],
      },
      undefined,
    );
    const directives = Object.fromEntries(
      policy.csp.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]),
    );
    assert.deepEqual(directives, {
      'default-src': "'none'",
      'script-src': "'self' 'unsafe-inline' blob: data: https://*.cdn.example",
      // Workers load as scripts do (PDF.js makes its worker from a data: URL).
      'worker-src': "'self' blob: data: https://*.cdn.example",
      'style-src': "'self' 'unsafe-inline' https://*.cdn.example",
      'connect-src': "'self' https://api.example.com wss://live.example.com",
      'img-src': "'self' data: https://*.cdn.example",
      'font-src': "'self' https://*.cdn.example",
      'media-src': "'self' data: https://*.cdn.example",
      // "If frameDomains is provided, allow nested iframes from declared origins; otherwise use frame-src 'none'"
      'frame-src': "'none'",
      // "Block dangerous features (object-src 'none')"
      'object-src': "'none'",
      // "If baseUriDomains is provided, allow base URIs from declared origins; otherwise use base-uri 'self'"
      'base-uri': "'self'",
    });
    const framed = appSandboxPolicy(
      { frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://cdn.example.com'] },
      undefined,
    );
    assert.match(framed.csp, /frame-src https:\/\/www\.youtube\.com;/);
    assert.match(framed.csp, /base-uri https:\/\/cdn\.example\.com$/);
    assert.match(framed.csp, /connect-src 'self';/);
  });

  it('never lets a declared entry add a domain or keyword the server did not declare as a source ("MUST NOT allow undeclared domains")', () => {
    const hostile = [
      "'unsafe-eval'",
      '*',
      'https:',
      'data:',
      'https://a.example; script-src *',
      'https://b.example https://c.example',
      42,
      'javascript:alert(1)',
    ];
    const policy = appSandboxPolicy(
      { resourceDomains: [...hostile, 'https://ok.example'], connectDomains: 'https://not-a-list.example' },
      undefined,
    );
    assert.deepEqual(policy.approved, { resourceDomains: ['https://ok.example'] });
    assert.equal(policy.refused.length, hostile.length + 1);
    for (const bad of ["'unsafe-eval'", ' * ', 'c.example', 'not-a-list', 'javascript', 'https: '])
      assert.ok(!policy.csp.includes(bad), `${bad} in ${policy.csp}`);
    assert.match(policy.csp, /connect-src 'self'; /);
  });

  it("maps declared permissions to the inner frame's allow attribute, and nothing undeclared", () => {
    assert.equal(
      appSandboxPolicy(undefined, { camera: {}, clipboardWrite: {}, usb: {}, microphone: true }).allow,
      'camera; clipboard-write',
    );
    assert.equal(appSandboxPolicy(undefined, undefined).allow, '');
  });
});

describe('MCP Apps: tool visibility', () => {
  it('reads the app resource (also the deprecated flat key) and the audience, defaulting to model and app', () => {
    assert.equal(appResourceUri(tool({ ui: { resourceUri: 'ui://a/b' } })), 'ui://a/b');
    assert.equal(appResourceUri(tool({ 'ui/resourceUri': 'ui://flat' })), 'ui://flat');
    assert.equal(appResourceUri(tool()), undefined);
    assert.throws(() => appResourceUri(tool({ ui: { resourceUri: 'https://x' } })), /not a ui:\/\/ URI/);
    assert.throws(
      () => appResourceUri(tool({ ui: { resourceUri: null } })),
      /names its app as null, which is not a ui:\/\/ URI/,
    );
    assert.throws(
      () => appResourceUri(tool({ 'ui/resourceUri': 7 })),
      /names its app as 7, which is not a ui:\/\/ URI/,
    );
    assert.deepEqual([offeredToModel(tool()), callableFromApp(tool())], [true, true]);
    assert.deepEqual(
      [offeredToModel(tool({ ui: { visibility: ['app'] } })), callableFromApp(tool({ ui: { visibility: ['app'] } }))],
      [false, true],
    );
    assert.deepEqual(
      [
        offeredToModel(tool({ ui: { visibility: ['model'] } })),
        callableFromApp(tool({ ui: { visibility: ['model'] } })),
      ],
      [true, false],
    );
    assert.deepEqual(
      [offeredToModel(tool({ ui: { visibility: [] } })), callableFromApp(tool({ ui: { visibility: [] } }))],
      [false, false],
    );
  });

  for (const [era, server] of [
    ['2025-11-25', legacy],
    ['2026-07-28', modern],
  ] as const) {
    it(`declares the extension (${era}), keeps app-only tools from models, and refuses app calls to model-only tools`, async () => {
      const { host } = harness({ apps: true });
      hosts.push(host);
      await host.applySettings(entries({ fx: server({ args: [...server().args, '--app-tools'] }) }));
      const snapshot = await running(host, 'fx');
      const declared = await host.callTool('fx', 'show-board', { title: 'x' });
      // "mimeTypes: Array of supported content types (REQUIRED)"
      assert.deepEqual((declared.structuredContent as { appsDeclared: unknown }).appsDeclared, [
        'text/html;profile=mcp-app',
      ]);
      // "Host MUST NOT include tools in the agent's tool list when their visibility does not include model"
      const catalogue = toolCatalogue([snapshot], () => true).map((e) => e.toolName);
      assert.ok(catalogue.includes('show-board') && !catalogue.includes('board-increment'), catalogue.join(','));
      const asked: string[] = [];
      const invoker = new ToolInvoker(host, approvals(host), {
        confirm: async (request) => (asked.push(`${request.origin}:${request.tool.name}`), 'once'),
      });
      await assert.rejects(invoker.invoke('fx', 'board-increment', {}, { origin: 'model' }), /for its app only/);
      // The app's own tool runs without asking (the user opened the app); a destructive one, or a
      // tool the model may call too, is confirmed.
      const fromApp = await invoker.invoke('fx', 'board-increment', { by: 2 }, { origin: 'app' });
      assert.equal(fromApp.outcome, 'ok');
      assert.deepEqual(asked, []);
      assert.equal((await invoker.invoke('fx', 'board-reset', {}, { origin: 'app' })).outcome, 'ok');
      assert.equal((await invoker.invoke('fx', 'show-board', { title: 'y' }, { origin: 'app' })).outcome, 'ok');
      assert.deepEqual(asked, ['app:board-reset', 'app:show-board']);
      // The tool that opened the app, called again by that app (more of what it shows), asks nothing.
      assert.equal(
        (await invoker.invoke('fx', 'show-board', { title: 'z' }, { origin: 'app', appOpenedBy: 'show-board' }))
          .outcome,
        'ok',
      );
      assert.equal(
        (await invoker.invoke('fx', 'echo', { text: 'z' }, { origin: 'app', appOpenedBy: 'show-board' })).outcome,
        'ok',
      );
      assert.deepEqual(asked, ['app:board-reset', 'app:show-board', 'app:echo']);
      // A tool that leaves "app" out is refused to apps ("Host MUST reject tools/call requests from apps").
      const modelOnly: Tool = {
        ...snapshot.tools.find((t) => t.name === 'echo')!,
        _meta: { ui: { visibility: ['model'] } },
      };
      const onlyModel = new ToolInvoker(
        { server: () => ({ ...snapshot, tools: [modelOnly] }), callTool: host.callTool.bind(host) } as never,
        approvals(host),
        { confirm: async () => 'once' },
      );
      await assert.rejects(
        onlyModel.invoke('fx', 'echo', { text: 'x' }, { origin: 'app' }),
        /not callable from its app/,
      );
    });
  }

  it('does not declare the extension when apps are off', async () => {
    const { host } = harness({ apps: false });
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ args: [...legacy().args, '--app-tools'], apps: true }) }));
    await running(host, 'fx');
    const result = await host.callTool('fx', 'show-board', { title: 'x' });
    assert.equal((result.structuredContent as { appsDeclared: unknown }).appsDeclared, null);
  });
});

describe('MCP Apps: reading the app', () => {
  it('reads the ui:// resource with resources/read and checks its MIME type', async () => {
    const { host } = harness({ apps: true });
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ args: [...legacy().args, '--app-tools'] }) }));
    await running(host, 'fx');
    const read = (uri: string) => host.readResource('fx', uri);
    const app = await loadAppResource(read, 'fx', 'ui://fixture/board.html');
    assert.match(app.html, /^<!DOCTYPE html>/);
    assert.equal(app.policy.csp, DEFAULT_APP_CSP);
    assert.equal(app.prefersBorder, true);
    await assert.rejects(loadAppResource(read, 'fx', 'fixture://readme'), /app resources use the ui:\/\/ scheme/);
    const textPlain = async () => ({ contents: [{ uri: 'ui://x', mimeType: 'text/plain', text: 'hi' }] });
    await assert.rejects(
      loadAppResource(textPlain, 'fx', 'ui://x'),
      /MIME type is "text\/plain"; an MCP App must be "text\/html;profile=mcp-app"/,
    );
    const blob = async () => ({
      contents: [
        { uri: 'ui://x', mimeType: 'text/html;profile=mcp-app', blob: Buffer.from('<p>b</p>').toString('base64') },
      ],
    });
    assert.equal((await loadAppResource(blob, 'fx', 'ui://x')).html, '<p>b</p>');
  });
});

describe('MCP Apps: the session between host and app (ext-apps App over a real JSON-RPC transport)', function () {
  this.timeout(20_000);

  function connectPair(portsOverride: Partial<AppHostPorts> = {}, options: { initializeTimeoutMs?: number } = {}) {
    const [hostSide, appSide] = InMemoryTransport.createLinkedPair();
    const toApp: string[] = [];
    const appSend = appSide.send.bind(appSide);
    const hostSend = hostSide.send.bind(hostSide);
    let appSentInitialized = false;
    const teardowns: unknown[] = [];
    hostSide.send = async (message: JSONRPCMessage) => {
      if ('method' in message && message.method === 'ui/resource-teardown') teardowns.push(message.params);
      toApp.push(`${appSentInitialized ? 'after' : 'before'}:${'method' in message ? message.method : 'response'}`);
      return hostSend(message);
    };
    appSide.send = async (message: JSONRPCMessage) => {
      if ('method' in message && message.method === 'ui/notifications/initialized') appSentInitialized = true;
      return appSend(message);
    };
    const events: string[] = [];
    const ports: AppHostPorts = {
      callTool: async (name, args) => ({ content: [{ type: 'text', text: `${name} ${JSON.stringify(args)}` }] }),
      readResource: async (uri) => ({ contents: [{ uri, text: 'r' }] }),
      openLink: async () => true,
      message: async () => true,
      updateModelContext: (p) => void events.push(`context:${JSON.stringify(p.content)}`),
      requestDisplayMode: async (mode) => mode,
      resized: (size) => void events.push(`size:${size.height}`),
      log: (level, text) => void events.push(`log:${level}:${text}`),
      failed: (reason) => void events.push(`failed:${reason}`),
      initialized: () => void events.push('initialized'),
      ...portsOverride,
    };
    const resource = { uri: 'ui://t', html: '', policy: appSandboxPolicy(undefined, undefined) };
    const session = new AppSession(hostSide, ports, {
      hostInfo: { name: 'MCP Host', version: '0' },
      hostContext: { theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'] },
      resource,
      ...options,
    });
    return { session, appSide, toApp, events, teardowns };
  }

  it('sends nothing before initialized, then tool-input once before tool-result, and tears down before closing', async () => {
    const { session, appSide, toApp, teardowns } = connectPair();
    await session.start();
    // The host has both before the app even loaded.
    session.sendToolInput({ title: 'a' });
    session.sendToolInput({ title: 'again' });
    session.sendToolResult({ content: [{ type: 'text', text: 'done' }] });
    session.sendToolCancelled('too late');
    const app = new App({ name: 'test-app', version: '1' }, {}, { autoResize: false });
    const seen: string[] = [];
    app.ontoolinput = (p) => void seen.push(`input:${JSON.stringify(p.arguments)}`);
    app.ontoolresult = (p) => void seen.push(`result:${JSON.stringify(p.content)}`);
    app.ontoolcancelled = () => void seen.push('cancelled');
    app.onteardown = async (p) => {
      seen.push(`teardown:${JSON.stringify(p)}`);
      return {};
    };
    await app.connect(appSide);
    assert.equal(app.getHostContext()?.theme, 'dark');
    await waitFor('input and result', () => seen.length >= 2);
    assert.deepEqual(seen, ['input:{"title":"a"}', 'result:[{"type":"text","text":"done"}]']);
    await session.close('the user closed the panel');
    // ext-apps' App drops the reason; on the wire it is there ("The Host MAY specify the reason").
    assert.deepEqual(seen.slice(2), ['teardown:{}']);
    assert.deepEqual(teardowns, [{ reason: 'the user closed the panel' }]);
    // "The Host MUST NOT send any request or notification to the View before it receives an initialized notification."
    assert.deepEqual(
      toApp.filter((m) => m.startsWith('before:')),
      ['before:response'],
    );
    assert.deepEqual(
      toApp.filter((m) => m !== 'after:response'),
      [
        'before:response',
        'after:ui/notifications/tool-input',
        'after:ui/notifications/tool-result',
        'after:ui/resource-teardown',
      ],
    );
  });

  it("answers the app's tool calls, links, messages, context, logs and size through the ports", async () => {
    const { session, appSide, events } = connectPair();
    await session.start();
    const app = new App(
      { name: 'test-app', version: '1' },
      { availableDisplayModes: ['inline', 'fullscreen'] },
      { autoResize: false },
    );
    await app.connect(appSide);
    const called = await app.callServerTool({ name: 'board-increment', arguments: { by: 1 } });
    assert.deepEqual(called.content, [{ type: 'text', text: 'board-increment {"by":1}' }]);
    assert.deepEqual(await app.openLink({ url: 'https://example.com' }), {});
    assert.equal((await app.openLink({ url: 'javascript:alert(1)' })).isError, true);
    assert.deepEqual(await app.requestDisplayMode({ mode: 'fullscreen' }), { mode: 'fullscreen' });
    await app.updateModelContext({ content: [{ type: 'text', text: 'count 3' }] });
    await app.sendLog({ level: 'info', data: 'hello' });
    await app.sendSizeChanged({ width: 10, height: 240 });
    await waitFor(
      'log and size',
      () => events.some((e) => e.startsWith('size:')) && events.some((e) => e.startsWith('log:info:app: hello')),
    );
    assert.ok(events.includes('context:[{"type":"text","text":"count 3"}]'), events.join('\n'));
    assert.equal(app.getHostContext()?.displayMode, 'fullscreen');
    await session.close('done');
  });

  it('keeps an app in the modes it declared ("Host MUST NOT switch the View to a display mode that does not appear")', async () => {
    let asked = 0;
    const { session, appSide } = connectPair({ requestDisplayMode: async (mode) => (asked++, mode) });
    await session.start();
    const app = new App(
      { name: 'test-app', version: '1' },
      { availableDisplayModes: ['inline'] },
      { autoResize: false },
    );
    await app.connect(appSide);
    assert.deepEqual(await app.requestDisplayMode({ mode: 'fullscreen' }), { mode: 'inline' });
    assert.equal(asked, 0);
    await session.close('done');
  });

  it('says so when the app never initializes, and closes without a teardown it could not send', async () => {
    const { session, toApp, events } = connectPair({}, { initializeTimeoutMs: 200 });
    await session.start();
    session.sendToolInput({});
    await waitFor('failed', () => events.some((e) => e.startsWith('failed:')));
    assert.ok(
      events.includes('failed:The app did not start: it sent no ui/notifications/initialized within 0.2 s.'),
      events.join('\n'),
    );
    await session.close('gone');
    assert.deepEqual(toApp, []);
  });
});

function approvals(host: { toolPolicy(id: string): ReturnType<McpHostType['toolPolicy']> }) {
  return new ToolApprovals(
    { session: new MemoryApprovalStore(), workspace: new MemoryApprovalStore(), always: new MemoryApprovalStore() },
    (id) => host.toolPolicy(id),
  );
}

describe('MCP Apps: a misbehaving app', () => {
  it('drops what an app sends beyond the rate limit and says so once, and rejects what is not JSON-RPC', async () => {
    let now = 0;
    const flooded: string[] = [];
    const errors: string[] = [];
    const received: unknown[] = [];
    const transport = new AppRelayTransport(
      () => undefined,
      (reason) => flooded.push(reason),
      () => now,
    );
    transport.onmessage = (m) => void received.push(m);
    transport.onerror = (e) => void errors.push(e.message);
    // What arrives before the bridge starts is kept for it (the page may be quicker than the host).
    transport.receive({ jsonrpc: '2.0', method: 'ui/initialize', id: 0, params: {} });
    assert.equal(received.length, 0);
    await transport.start();
    assert.equal(received.length, 1);
    received.length = 0;
    now = 1;
    for (let i = 0; i < MAX_APP_MESSAGES_PER_SECOND + 50; i++)
      transport.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
    assert.equal(received.length, MAX_APP_MESSAGES_PER_SECOND - 1, 'the early message counted in the same second');
    assert.deepEqual(flooded, [
      `The app sent more than ${MAX_APP_MESSAGES_PER_SECOND} messages in a second; MCP Host drops what comes beyond that.`,
    ]);
    now = 1_000;
    transport.receive({ jsonrpc: '2.0', method: 'ping', id: 1 });
    assert.equal(received.length, MAX_APP_MESSAGES_PER_SECOND, 'a new second lets messages through again');
    for (const bad of ['hello', { jsonrpc: '1.0', method: 'x' }, { jsonrpc: '2.0', id: {}, result: {} }, null])
      transport.receive(bad);
    assert.equal(errors.length, 4);
    assert.match(errors[0], /not a JSON-RPC 2\.0 message: "hello"/);
    assert.equal(flooded.length, 1);
  });

  it('tells an app its tool call was cancelled, after the input, and nothing after that', async () => {
    const [hostSide, appSide] = InMemoryTransport.createLinkedPair();
    const session = new AppSession(
      hostSide,
      { log: () => undefined, failed: () => undefined, initialized: () => undefined } as unknown as AppHostPorts,
      {
        hostInfo: { name: 'MCP Host', version: '0' },
        hostContext: {},
        resource: { uri: 'ui://t', html: '', policy: appSandboxPolicy(undefined, undefined) },
      },
    );
    await session.start();
    const seen: string[] = [];
    const app = new App({ name: 'a', version: '1' }, {}, { autoResize: false });
    app.ontoolinput = () => void seen.push('input');
    app.ontoolcancelled = (p) => void seen.push(`cancelled:${p.reason}`);
    app.ontoolresult = () => void seen.push('result');
    session.sendToolInput({});
    session.sendToolCancelled('The user cancelled the call.');
    session.sendToolResult({ content: [] });
    await app.connect(appSide);
    await waitFor('cancelled', () => seen.length >= 2);
    assert.deepEqual(seen, ['input', 'cancelled:The user cancelled the call.']);
    await session.close('done');
  });
});

describe('MCP Apps: context for the model', () => {
  it("keeps each app's latest update, bounded, for its server's tools only", () => {
    const context = new AppModelContext();
    context.set('a1', 'board', 'show-board', { content: [{ type: 'text', text: 'old' }] });
    context.set('a1', 'board', 'show-board', {
      content: [{ type: 'text', text: 'count 3' }],
      structuredContent: { count: 3 },
    });
    context.set('a2', 'other', 'x', { content: [{ type: 'text', text: 'y'.repeat(MODEL_CONTEXT_PER_APP + 10) }] });
    assert.deepEqual(context.forModel(new Set(['board'])), [
      'Context from the app of tool "show-board" (MCP server "board"), which the user has open (written by the app, not by the user):\ncount 3\n{"count":3}',
    ]);
    assert.match(context.forModel(new Set(['other']))[0], /y… \[cut\]$/);
    context.delete('a1');
    assert.deepEqual(context.forModel(new Set(['board'])), []);
  });
});
