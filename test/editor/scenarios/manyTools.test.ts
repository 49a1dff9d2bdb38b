// Many tools and server instructions in a real VS Code: five fixture servers with 100 extra tools
// each (500+ tools), @mcp's tool search, the view's "offered to models" check boxes, and a
// server's instructions in its tooltip and in what the chat model receives.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';

interface RecordedRequest {
  texts: string[];
  tools: string[];
}

const INSTRUCTIONS = 'Use tool-97 when the user asks for ninety-seven.';
const fixture = (...args: string[]) => ({ command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), ...args] });
const servers: Record<string, unknown> = {
  s0: fixture('--extra-tools', '100', '--instructions', INSTRUCTIONS),
  ...Object.fromEntries(['s1', 's2', 's3'].map((id) => [id, fixture('--extra-tools', '100')])),
  s4: { ...fixture('--extra-tools', '100'), autoApprove: ['tool-97'] },
  fx: fixture(),
};

describe('Many tools and server instructions in a real VS Code', function () {
  this.timeout(240_000);
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false });
  const requests = () => editor().control<RecordedRequest[]>('modelRequests');

  it('shows a server\'s instructions in its tooltip', async () => {
    const hover = await editor().workbench.tooltip(editor().workbench.serverRow('s0'), 'Instructions for models');
    assert.ok(((await hover.textContent()) ?? '').includes(INSTRUCTIONS));
    await editor().workbench.screenshot('78-server-instructions');
  });

  it('@mcp searches 500+ tools and the model calls one that the old 128-tool cut dropped; the instructions reach it', async () => {
    assert.deepEqual(await editor().control('chatModels'), ['fixture-model'], 'the stand-in chat model is ready');
    await editor().workbench.openChat();
    const before = (await requests()).length;
    await editor().workbench.sendChat('@mcp use s4_tool-97 {}');
    const response = await editor().workbench.lastChatResponse(/Tool results: 97/, 90_000);
    assert.match(response, /\d{3} MCP tools are on, more than the 128 a request takes: the model searches them\./);
    assert.match(response, /s4\/tool-97 returned: 97/);
    const seen = (await requests()).slice(before);
    // First the search tool alone; then the search's match is offered and called.
    assert.deepEqual(seen[0].tools, ['mcp_search_tools']);
    assert.deepEqual(seen[1].tools, ['mcp_search_tools', 's4_tool-97']);
    assert.ok(seen[0].texts.includes(`Instructions from MCP server "s0" on using its tools (written by the server, not by the user):\n${INSTRUCTIONS}`), seen[0].texts.join(' / '));
    await editor().workbench.screenshot('79-chat-tool-search');
  });

  it('keeps servers and tools unchecked in the view from the model, and refuses another agent\'s call to them', async () => {
    const { page } = editor().workbench;
    const checkbox = (row: Locator) => row.locator('.custom-view-tree-node-item-checkbox');
    const uncheck = async (row: Locator) => {
      await checkbox(row).click();
      for (let i = 0; (await checkbox(row).getAttribute('aria-checked')) !== 'false'; i++) {
        if (i > 50) throw new Error(`the check box of ${await row.textContent()} stayed checked`);
        await page.waitForTimeout(200);
      }
    };
    for (const id of ['s0', 's1', 's2', 's3', 's4']) await uncheck(editor().workbench.serverRow(id));
    // Each switch redraws the view; let those land before the next click.
    const offered = async () => (JSON.parse(await editor().control<string>('invokeLmTool', { name: 'mcpHost_listTools', input: {} })) as { server: string }[]).map((t) => t.server);
    for (let i = 0; (await offered()).some((server) => /^s\d$/.test(server)); i++) {
      if (i > 50) throw new Error('the extension host never heard that s0–s4 were switched off');
      await page.waitForTimeout(200);
    }
    // fx → Tools → echo: uncheck the one tool.
    const pane = editor().workbench.serversPane();
    await editor().workbench.serverRow('fx').locator('.monaco-tl-twistie').click();
    await pane.locator('.monaco-list-row', { hasText: /^Tools \(\d+\)/ }).first().locator('.monaco-tl-twistie').click();
    const echo = pane.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) });
    // The click reaches the extension host as an event of its own; a user types the next message
    // long after it has arrived, so wait until the host has it too. A click that lands while the
    // view redraws is dropped by VS Code (the row's handle is not known again yet) and the box
    // comes back checked: as a user would, click it again.
    const listedTools = async () => (JSON.parse(await editor().control<string>('invokeLmTool', { name: 'mcpHost_listTools', input: { server: 'fx' } })) as { tool: string }[]).map((t) => t.tool);
    for (let attempt = 1; ; attempt++) {
      // A lost click leaves the box unchecked until the next redraw: check it again first.
      if ((await checkbox(echo).getAttribute('aria-checked')) === 'false') await checkbox(echo).click();
      await uncheck(echo);
      let heard = false;
      for (let i = 0; i < 25 && !(heard = !(await listedTools()).includes('echo')); i++) await page.waitForTimeout(200);
      if (heard) break;
      if (attempt === 3) throw new Error('the extension host never heard that echo was switched off (three clicks)');
    }
    await editor().workbench.screenshot('80-tools-offered-to-models');

    const before = (await requests()).length;
    await editor().workbench.sendChat('@mcp what can you do?');
    await editor().workbench.lastChatResponse(/Model saw: [\s\S]*what can you do\?/);
    const [seen] = (await requests()).slice(before);
    assert.ok(seen.tools.includes('fx_add'), seen.tools.join(', '));
    assert.equal(seen.tools.includes('fx_echo'), false);
    assert.deepEqual(seen.tools.filter((t) => /^s\d_|^mcp_search_tools$/.test(t)), []);
    assert.equal(seen.texts.some((t) => t.startsWith('Instructions from MCP server')), false, 'no instructions from a server the model does not get');

    // Another agent, through the language-model tools: the tool is not listed and its call is refused.
    const listed = await listedTools();
    assert.ok(listed.includes('add') && !listed.includes('echo'), listed.join(', '));
    await assert.rejects(
      editor().control('invokeLmTool', { name: 'mcpHost_callTool', input: { server: 'fx', tool: 'echo', arguments: { text: 'hi' } } }),
      /The tool "echo" of MCP server "fx" is not offered to models: it is switched off in the MCP Servers view/,
    );
    // The user still runs it.
    const byUser = await editor().control<{ content: { text: string }[] }>('callTool', { serverId: 'fx', name: 'echo', args: { text: 'still mine' } });
    assert.equal(byUser.content[0].text, 'still mine');
  });
});
