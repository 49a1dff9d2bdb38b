// Agents on pure defaults: servers that start when needed ("mcpHost.autoStart" unset), learned in
// the background, published to VS Code's MCP. What a user's first agent request after opening a
// window meets, through the window's own agents (vscode.lm.invokeTool) and through VS Code's own
// MCP gateway (vscode.lm.startMcpGateway, what Copilot CLI and Claude Code sessions are handed),
// reached with the bare client library as a CLI agent would. Nobody clicks for the agents.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerInfo } from '../../../src/editor/publicApi';
import { EditorSession, OUT, REPO } from '../harness/editorSession';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const fixture = (file: string, name: string) => ({
  command: process.execPath,
  args: [path.join(OUT, `test/fixtures/servers/${file}.js`), '--name', name],
});
const servers: Record<string, unknown> = {
  first: fixture('legacyStdio', 'first'),
  everything: {
    command: process.execPath,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  },
  modern: fixture('modernStdio', 'modern'),
};
/** A server from the workspace's settings: code from the repository, which runs only after the user's consent. */
const workspaceServers = { repo: fixture('legacyStdio', 'repo') };

interface GatewayServer {
  readonly label: string;
  readonly address: string;
}

describe("Agents on the default settings: the first call works, in the window and through VS Code's gateway", function () {
  this.timeout(300_000);
  let editor: EditorSession;
  const clients: Client[] = [];

  before(async () => {
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: { 'mcpHost.servers': workspaceServers } },
      {
        trusted: true,
        userSettings: {
          'mcpHost.servers': servers,
          // The harness starts every suite's servers with the window; this suite keeps the product's default.
          'mcpHost.autoStart': undefined,
          'chat.disableAIFeatures': false,
          // VS Code asks before an agent's tool runs unless the user allowed it; the user has.
          'chat.tools.global.autoApprove': true,
          'chat.tools.global.autoApprove.optIn': true,
        },
      },
    );
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await editor?.stop();
  });

  const hostServer = async (id: string) =>
    (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === id)!;
  const vsCodeGateway = async () =>
    editor.control<GatewayServer[]>(
      'vsCodeGateway',
      { labels: [...Object.keys(servers), 'repo'], timeoutMs: 60_000 },
      90_000,
    );
  /** A CLI agent's client of one server VS Code's gateway hands out. */
  const cliClient = async (gateway: GatewayServer[], label: string) => {
    const server = gateway.find((s) => s.label === label);
    assert.ok(server, `VS Code's gateway hands out ${label}: ${gateway.map((s) => s.label).join(', ')}`);
    const client = new Client({ name: 'cli-agent', version: '1' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.address)));
    return client;
  };
  const textOf = (result: { content?: unknown }) =>
    (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
  /** An agent's call in the window; VS Code asks once before its global auto-approval holds, and the user says Enable. */
  const invoke = async (name: string, input: Record<string, unknown>) => {
    const result = editor.control<string>('invokeLmTool', { name, input }, 120_000);
    const dialog = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' });
    const settled = result.then(
      () => 'result',
      () => 'result',
    );
    if ((await Promise.race([settled, dialog.waitFor({ timeout: 120_000 }).then(() => 'dialog')])) === 'dialog')
      await dialog.getByRole('button', { name: 'Enable' }).click();
    return result;
  };

  it('asks consent for a workspace server with the window; until the answer, and after a No, an agent gets an answer at once and no dialog opens for it', async () => {
    const dialog = editor.workbench.page.locator('.monaco-dialog-box', {
      hasText: 'Allow MCP server "repo" from workspace settings to run?',
    });
    await dialog.waitFor({ timeout: 90_000 });
    await editor.workbench.screenshot('113-agents-consent-with-the-window');
    const gateway = await vsCodeGateway();
    // MCP Host refuses the server at once with what to do (unit-tested in mcpGateway.test.ts); VS
    // Code's gateway turns a server that does not start into an empty list for its client.
    assert.deepEqual(
      (await (await cliClient(gateway, 'repo')).listTools()).tools,
      [],
      "a CLI agent's request is answered while the dialog waits",
    );
    assert.equal(
      await editor.workbench.page.locator('.monaco-dialog-box').count(),
      1,
      'one dialog, not one per request',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('repo', /^not allowed · Start asks again$/, 30_000);
    assert.ok(await editor.workbench.serverRowFits('repo'), 'the row of the declined server is cut');
    // The status bar counts the servers that answer the next call: the user's, not the declined one.
    const ready = Object.keys(servers).length;
    await waitFor(
      `the status bar to count ${ready} servers ready`,
      async () => {
        const text = await editor.workbench.statusBarText('MCP');
        if (!new RegExp(`^MCP ${ready} (ready|running)\\b`).test(text)) throw new Error(`it reads "${text}"`);
        return true;
      },
      30_000,
    );
    await editor.workbench.screenshot('114-agents-consent-declined');
    assert.deepEqual((await (await cliClient(gateway, 'repo')).listTools()).tools, []);
    assert.equal(
      await editor.workbench.page.locator('.monaco-dialog-box').count(),
      0,
      'a declined server is not asked about again by a request',
    );
  });

  it("lists every server's tools through VS Code's gateway under the names the built-in would give them", async () => {
    // Each has run once in this window: learned in the background, or started by a client of VS Code's gateway.
    for (const id of Object.keys(servers))
      await waitFor(
        `${id} to have run`,
        async () => {
          const server = await hostServer(id);
          return server.toolCount > 0 && (server.status === 'running' || server.fromLastRun === true);
        },
        120_000,
      );
    const gateway = await vsCodeGateway();
    for (const id of Object.keys(servers)) {
      const { tools } = await (await cliClient(gateway, id)).listTools();
      const ours = await editor.control<{ name: string }[]>('listTools', { serverId: id });
      assert.deepEqual(tools.map((t) => t.name).sort(), ours.map((t) => t.name).sort(), id);
    }
    // What the window's agents see: mcp_<server>_<tool>, as for VS Code's own mcp.json servers.
    await editor.control('executeCommand', {
      command: 'workbench.mcp.startServer',
      args: ['mcp-host.mcp-host/first', { waitForLiveTools: true }],
    });
    await waitFor(
      'mcp_first_echo among the agents tools',
      async () => (await editor.control<string[]>('lmTools')).includes('mcp_first_echo'),
      60_000,
    );
    for (const id of Object.keys(servers))
      await editor.control(
        'executeCommand',
        { command: 'workbench.mcp.startServer', args: [`mcp-host.mcp-host/${id}`, { waitForLiveTools: true }] },
        60_000,
      );
    const names = await editor.control<string[]>('lmTools');
    for (const name of ['mcp_first_echo', 'mcp_everything_get-sum', 'mcp_modern_add'])
      assert.ok(names.includes(name), `${name} in ${names.filter((n) => n.startsWith('mcp_')).join(', ')}`);
  });

  it('after a window reload, the first call of each waiting server starts it and returns its result: in the window and from a CLI agent', async () => {
    // The CLI agents of the window before end with it.
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await editor.reloadWindow();
    await waitFor(
      'the reloaded window to have the agents tools of MCP Host',
      async () => {
        const names = await editor.control<string[]>('lmTools');
        return names.includes('mcp_first_echo') && names.includes('mcp_everything_get-sum');
      },
      90_000,
    );
    // The call comes while the server is not running: waiting for its first use, or starting.
    for (const id of ['first', 'everything'])
      assert.notEqual((await hostServer(id)).status, 'running', `${id} is not running yet`);
    assert.equal(await invoke('mcp_first_echo', { text: 'first call' }), 'first call');
    assert.equal(await invoke('mcp_everything_get-sum', { a: 19, b: 23 }), 'The sum of 19 and 23 is 42.');
    // A CLI agent, handed the reloaded window's gateway: its first call starts the server.
    const gateway = await vsCodeGateway();
    const cli = await cliClient(gateway, 'modern');
    assert.equal(textOf(await cli.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
    for (const id of Object.keys(servers)) assert.equal((await hostServer(id)).status, 'running', `${id} runs`);
  });
});
