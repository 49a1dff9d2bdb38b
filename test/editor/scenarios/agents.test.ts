// VS Code's agents use MCP Host's servers as their own: each server is published to VS Code's MCP
// (lm.registerMcpServerDefinitionProvider) as an HTTP server whose endpoint is MCP Host's gateway,
// and VS Code's built-in MCP host (in code-server) is the consumer, exactly as for Copilot's agent mode.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { McpServerInfo } from '../../../src/editor/publicApi';
import { EditorSession, OUT, REPO } from '../harness/editorSession';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { startHttpFixture, waitFor, type RunningProcess } from '../../unit/support/fixtures';

const fixture = { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')] };
const everything = {
  command: process.execPath,
  args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};
const boxed = {
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/modernStdio.js'), '--probe-tools', '--name', 'boxed'],
  sandbox: { filesystem: { allowRead: [path.dirname(OUT)] } },
};

/** How many relay processes of MCP Host's stdio lane run on this machine. */
const relayProcesses = () =>
  spawnSync('pgrep', ['-f', 'dist/gatewayRelay.js'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).length;

/** VS Code's id of a server MCP Host publishes: `<extension id>/<label>`. */
const vsCodeId = (serverId: string) => `mcp-host.mcp-host/${serverId}`;

interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

describe("VS Code's agents use MCP Host's servers as tools of their own", function () {
  this.timeout(240_000);
  let editor: EditorSession;
  let http: RunningProcess;
  const servers: Record<string, unknown> = {};

  before(async () => {
    http = await startHttpFixture();
    Object.assign(servers, {
      fixture,
      everything,
      'modern-http': { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      ...(process.platform === 'linux' ? { boxed } : {}),
    });
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      // VS Code asks before an agent's tool runs unless the user allowed it; the user has.
      {
        trusted: true,
        userSettings: {
          'mcpHost.servers': servers,
          'chat.disableAIFeatures': false,
          'chat.tools.global.autoApprove': true,
          'chat.tools.global.autoApprove.optIn': true,
        },
      },
    );
    await editor.workbench.openMcpView();
    for (const id of Object.keys(servers))
      await editor.workbench.waitForServerDescription(id, /^(sandboxed · )?\d+ tools/, 90_000);
    // What VS Code's chat does before an agent's request: start the servers whose tools it has not cached.
    await waitFor(
      'VS Code to have the tools of every MCP Host server',
      async () => {
        await editor.control(
          'executeCommand',
          { command: 'workbench.mcp.startServer', args: ['*', { waitForLiveTools: true }] },
          120_000,
        );
        for (const id of Object.keys(servers)) if ((await agentTools(id)).length === 0) return false;
        return true;
      },
      120_000,
    );
    // VS Code asks once before its global auto-approval takes effect: the user says Enable.
    const first = invoke((await agentTool('fixture', 'echo')).name, { text: 'first' });
    const dialog = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Enable' }).click();
    assert.equal(await first, 'first');
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await editor?.stop();
    await http?.stop();
  });

  /** The agent's tools of MCP Host server `id` (VS Code names them `mcp_<label prefix>_<tool>`). */
  const agentTools = async (id: string) =>
    (await editor.control<AgentTool[]>('lmToolInfo', { pattern: `^mcp_${id}_` })).filter(
      (t) =>
        !Object.keys(servers).some(
          (other) => other !== id && other.startsWith(id) && t.name.startsWith(`mcp_${other}_`),
        ),
    );
  const agentTool = async (id: string, tool: string) => {
    const found = (await agentTools(id)).find((t) => t.name.endsWith(`_${tool}`));
    if (!found)
      throw new Error(
        `VS Code's agents have no tool ${tool} of ${id}: ${(await agentTools(id)).map((t) => t.name).join(', ')}`,
      );
    return found;
  };
  const invoke = (name: string, input: Record<string, unknown>) =>
    editor.control<string>('invokeLmTool', { name, input }, 120_000);
  const hostServer = async (id: string) =>
    (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === id)!;

  it('has one tool per MCP Host tool, with its schema, for every server (stdio, npm, 2026-07-28 over HTTP, sandboxed), named mcp_<server>_<tool>', async () => {
    assert.equal((await agentTool('fixture', 'echo')).name, 'mcp_fixture_echo');
    assert.equal((await agentTool('modern-http', 'add')).name, 'mcp_modern-http_add');
    for (const id of Object.keys(servers)) {
      const ours = await editor.control<{ name: string; description?: string; inputSchema: Record<string, unknown> }[]>(
        'listTools',
        { serverId: id },
      );
      const theirs = await agentTools(id);
      assert.equal(
        theirs.length,
        ours.length,
        `${id}: ${theirs.map((t) => t.name).join(', ')} against ${ours.map((t) => t.name).join(', ')}`,
      );
      for (const tool of ours) {
        const agent = theirs.find((t) => t.name.endsWith(`_${tool.name}`));
        assert.ok(agent, `${id}/${tool.name} is an agent's tool`);
        assert.equal(agent.description, tool.description ?? '');
        assert.deepEqual(
          agent.inputSchema.properties ?? {},
          tool.inputSchema.properties ?? {},
          `${id}/${tool.name}'s schema`,
        );
      }
    }
  });

  it("answers an agent's call with the server's result, from MCP Host's process, asking nothing more", async () => {
    assert.equal(
      await invoke((await agentTool('fixture', 'echo')).name, { text: "from VS Code's agent" }),
      "from VS Code's agent",
    );
    assert.equal(
      await invoke((await agentTool('everything', 'get-sum')).name, { a: 19, b: 23 }),
      'The sum of 19 and 23 is 42.',
    );
    assert.equal(await invoke((await agentTool('modern-http', 'add')).name, { a: 2, b: 3 }), '5');
    // The call ran in the process MCP Host shows in its view, not in one VS Code started.
    assert.equal(await invoke((await agentTool('fixture', 'pid')).name, {}), String((await hostServer('fixture')).pid));
    if (servers.boxed) {
      const folder = path.join(path.dirname(editor.workspaceFile), 'alpha');
      assert.equal(
        await invoke((await agentTool('boxed', 'write-file')).name, {
          path: path.join(folder, 'from-agent.txt'),
          text: 'sandboxed',
        }),
        'written',
      );
      assert.match(
        await invoke((await agentTool('boxed', 'write-file')).name, {
          path: path.join(path.dirname(path.dirname(folder)), 'outside.txt'),
          text: 'no',
        }),
        /^refused: /,
        'the sandbox still holds',
      );
    }
    // VS Code's agent UI confirmed the calls: MCP Host asked nothing of its own.
    assert.equal(await editor.workbench.page.locator('.monaco-dialog-box', { hasText: /run tool/ }).count(), 0);
  });

  it("shows them in VS Code's MCP: List Servers under MCP Host, each by its name", async () => {
    await editor.workbench.runCommand('MCP: List Servers');
    const rows = editor.workbench.page.locator('.quick-input-list .monaco-list-row');
    await editor.workbench.page
      .locator('.quick-input-list')
      .getByText('MCP Host', { exact: true })
      .first()
      .waitFor({ timeout: 15_000 });
    for (const id of Object.keys(servers))
      await rows
        .filter({ hasText: new RegExp(`^${id}`) })
        .first()
        .waitFor({ timeout: 15_000 });
    await editor.workbench.screenshot('110-agents-vs-code-list-servers');
    await editor.workbench.page.keyboard.press('Escape');
  });

  it("takes a tool the user unchecks in MCP Host's view away from the agents and gives it back, each time, without VS Code reconnecting", async () => {
    const { page } = editor.workbench;
    const echo = (await agentTool('fixture', 'echo')).name;
    const pid = await invoke((await agentTool('fixture', 'pid')).name, {});
    await editor.workbench.expandServerTools('fixture');
    const row = editor.workbench
      .serversPane()
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) });
    const checkbox = (r: Locator) => r.locator('.custom-view-tree-node-item-checkbox');
    const hasEcho = async () => (await editor.control<string[]>('lmTools')).includes(echo);
    for (const round of [1, 2]) {
      await checkbox(row).click();
      await waitFor(`echo to leave VS Code's agents (round ${round})`, async () => !(await hasEcho()), 30_000);
      if (round === 1) await editor.workbench.screenshot('111-agents-tool-unchecked');
      await checkbox(row).click();
      await waitFor(`echo to come back (round ${round})`, hasEcho, 30_000);
    }
    // VS Code learned each change on the session it had open: no reconnect, the same process, the schema it had.
    assert.equal(await invoke(echo, { text: 'back' }), 'back');
    assert.equal(await invoke((await agentTool('fixture', 'pid')).name, {}), pid);
    const ours = (
      await editor.control<{ name: string; inputSchema: Record<string, unknown> }[]>('listTools', {
        serverId: 'fixture',
      })
    ).find((t) => t.name === 'echo')!;
    assert.deepEqual((await agentTool('fixture', 'echo')).inputSchema.properties, ours.inputSchema.properties);
  });

  it('serves both lanes: over stdio through the relay VS Code runs, and over HTTP on the socket, as mcpHost.agents.lane says', async () => {
    const pid = String((await hostServer('fixture')).pid);
    // The stdio lane last, as the default (no setting): the tests after this one run on it.
    for (const setting of ['http', undefined]) {
      await editor.control('updateUserSetting', { section: 'mcpHost.agents.lane', value: setting });
      const lane = setting ?? 'stdio';
      let answer = '';
      // VS Code hears of the change a moment after the setting is written, so a call may still be
      // answered over the old lane: the lane is in use once the call answers and the relay runs
      // (stdio) or none does (HTTP).
      await waitFor(
        `an agent's call over the ${lane} lane`,
        async () => {
          await editor.control(
            'executeCommand',
            { command: 'workbench.mcp.startServer', args: [vsCodeId('fixture'), { waitForLiveTools: true }] },
            60_000,
          );
          answer = await invoke((await agentTool('fixture', 'pid')).name, {}).catch((error: Error) => error.message);
          return answer === pid && relayProcesses() > 0 === (lane === 'stdio');
        },
        60_000,
      ).catch((error: Error) => assert.fail(`${error.message}: ${answer}, ${relayProcesses()} relay processes`));
    }
  });

  it("keeps a server's crash and restart from the agent: the next call reaches the new process", async () => {
    const pid = await invoke((await agentTool('fixture', 'pid')).name, {});
    process.kill(Number(pid), 'SIGKILL');
    await waitFor(
      'MCP Host to notice the crash',
      async () => (await hostServer('fixture')).pid !== Number(pid),
      30_000,
    );
    const after = await invoke((await agentTool('fixture', 'pid')).name, {});
    assert.notEqual(after, pid);
    assert.equal(after, String((await hostServer('fixture')).pid));
  });

  it("asks the user through MCP Host's own form when the server elicits during an agent's call", async () => {
    const result = invoke((await agentTool('everything', 'trigger-elicitation-request')).name, {});
    const form = await editor.workbench.webview('#decline', 60_000);
    assert.match((await form.locator('#app').textContent()) ?? '', /MCP server "everything" asks for input/);
    await form.locator('#field_name input').fill('Grace Hopper');
    await editor.workbench.screenshot('112-agents-elicitation-form');
    await form.locator('#submit').click();
    assert.match(await result, /- Name: Grace Hopper/);
  });

  it("lists MCP Host's prompts in the chat's / menu, as VS Code names its own servers' prompts", async () => {
    await editor.workbench.openChat();
    const input = editor.workbench.page.locator('.interactive-input-part .monaco-editor').first();
    await input.click();
    await editor.workbench.page.keyboard.type('/', { delay: 5 });
    const rows = editor.workbench.page.locator('.suggest-widget .monaco-list-row');
    // Through the agents' lane VS Code lists each published server's prompts as /mcp.<server>.<prompt>;
    // @mcp's own commands are static in the chat API, so it lists /prompts.
    const wanted = ['/mcp.everything.args-prompt', '/mcp.everything.simple-prompt', '/mcp.fixture.greet', '/prompts'];
    const seen = await waitFor(
      'the prompts in the / menu',
      async () => {
        const texts = await rows.allTextContents();
        return wanted.every((name) => texts.some((t) => t.startsWith(name))) && texts;
      },
      30_000,
    ).catch(async (error: Error) => assert.fail(`${error.message}: ${(await rows.allTextContents()).join(' | ')}`));
    assert.ok(
      seen.some((t) => /^\/mcp\.everything\.args-prompt.*two arguments/.test(t)),
      'with its description',
    );
    await editor.workbench.screenshot('118-prompts-in-slash-menu');
    await editor.workbench.page.keyboard.press('Escape');
  });
});
