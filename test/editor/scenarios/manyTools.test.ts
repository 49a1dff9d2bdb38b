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
/** Instructions of twenty lines: the tooltip shows the first few and says where the rest is. */
const LONG = Array.from({ length: 20 }, (_, i) => `Rule ${i + 1}: answer in the user's language.`).join('\n');
const fixture = (...args: string[]) => ({
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), ...args],
});
const servers: Record<string, unknown> = {
  s0: fixture('--extra-tools', '100', '--instructions', INSTRUCTIONS),
  ...Object.fromEntries(['s1', 's2', 's3'].map((id) => [id, fixture('--extra-tools', '100')])),
  s4: { ...fixture('--extra-tools', '100'), autoApprove: ['tool-97'] },
  fx: fixture('--instructions', LONG),
};

describe('Many tools and server instructions in a real VS Code', function () {
  this.timeout(240_000);
  // Not published to VS Code's agents: this file is about MCP Host's own lane (@mcp and the
  // language-model tools #mcpTools / #mcpCall, which leave out the servers VS Code's agents have).
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false, 'mcpHost.agents.publish': false });
  const requests = () => editor().control<RecordedRequest[]>('modelRequests');

  it("shows a server's instructions in its tooltip", async () => {
    const hover = await editor().workbench.tooltip(editor().workbench.serverRow('s0'), 'Instructions for models');
    assert.ok(((await hover.textContent()) ?? '').includes(INSTRUCTIONS));
    await editor().workbench.screenshot('78-server-instructions');
    await editor().workbench.page.keyboard.press('Escape');
    const long = await editor().workbench.tooltip(editor().workbench.serverRow('fx'), 'Instructions for models');
    const shown = ((await long.textContent()) ?? '').replace(/\s+/g, ' ').split('Instructions for models')[1] ?? '';
    assert.ok(shown.includes('Rule 6:') && !shown.includes('Rule 7:'), shown);
    assert.ok(shown.includes(`(${LONG.length} characters in all; models get the whole text)`), shown);
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
    assert.ok(
      seen[0].texts.includes(
        `Instructions from MCP server "s0" on using its tools (written by the server, not by the user):\n${INSTRUCTIONS}`,
      ),
      seen[0].texts.join(' / '),
    );
    await editor().workbench.screenshot('79-chat-tool-search');
  });

  it("keeps servers and tools unchecked in the view from the model, and refuses another agent's call to them", async () => {
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
    // fx → Tools → echo: uncheck the one tool, straight away: the switches above redraw only the
    // rows of s0–s4, so the click on fx's tool is not lost to a redraw of the whole view.
    const pane = editor().workbench.serversPane();
    await editor().workbench.serverRow('fx').locator('.monaco-tl-twistie').click();
    await pane
      .locator('.monaco-list-row', { hasText: /^Tools \(\d+\)/ })
      .first()
      .locator('.monaco-tl-twistie')
      .click();
    const echo = pane.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) });
    await uncheck(echo);
    // The click reaches the extension host as an event of its own; a user types the next message
    // long after it has arrived, so wait until the host has it (and s0–s4) too.
    const offered = async () =>
      (
        JSON.parse(await editor().control<string>('invokeLmTool', { name: 'mcpHost_listTools', input: {} })) as {
          server: string;
          tool: string;
        }[]
      ).map((t) => `${t.server}/${t.tool}`);
    for (let i = 0; ; i++) {
      const now = await offered();
      if (!now.includes('fx/echo') && !now.some((t) => /^s\d\//.test(t))) break;
      if (i > 50)
        throw new Error(
          `the extension host never heard all six clicks: it still offers ${now
            .filter((t) => t === 'fx/echo' || /^s\d\//.test(t))
            .slice(0, 5)
            .join(', ')}…`,
        );
      await page.waitForTimeout(200);
    }
    assert.equal(await checkbox(echo).getAttribute('aria-checked'), 'false', 'the view still shows echo unchecked');
    await editor().workbench.screenshot('80-tools-offered-to-models');

    const before = (await requests()).length;
    await editor().workbench.sendChat('@mcp what can you do?');
    await editor().workbench.lastChatResponse(/Model saw: [\s\S]*what can you do\?/);
    const [seen] = (await requests()).slice(before);
    assert.ok(seen.tools.includes('fx_add'), seen.tools.join(', '));
    assert.equal(seen.tools.includes('fx_echo'), false);
    assert.deepEqual(
      seen.tools.filter((t) => /^s\d_|^mcp_search_tools$/.test(t)),
      [],
    );
    // fx is still offered (its add tool): its instructions come; none of s0's, whose tools are all off.
    assert.deepEqual(
      seen.texts.filter((t) => t.startsWith('Instructions from MCP server')).map((t) => /"([^"]+)"/.exec(t)?.[1]),
      ['fx'],
      'no instructions from a server the model does not get',
    );

    // Another agent, through the language-model tools: the tool is not listed and its call is refused.
    const listed = (await offered()).filter((t) => t.startsWith('fx/'));
    assert.ok(listed.includes('fx/add') && !listed.includes('fx/echo'), listed.join(', '));
    await assert.rejects(
      editor().control('invokeLmTool', {
        name: 'mcpHost_callTool',
        input: { server: 'fx', tool: 'echo', arguments: { text: 'hi' } },
      }),
      /The tool "echo" of MCP server "fx" is not offered to models: it is switched off in the MCP Servers view/,
    );
    // The user still runs it.
    const byUser = await editor().control<{ content: { text: string }[] }>('callTool', {
      serverId: 'fx',
      name: 'echo',
      args: { text: 'still mine' },
    });
    assert.equal(byUser.content[0].text, 'still mine');
  });
  it("hears every click on a tool's box while another server's tool list keeps changing", async () => {
    // Each change of s0's list redraws s0's row (its tool count) while the user clicks fx's tool:
    // every click must reach the extension host, and s0's row must end with its new count.
    const { page } = editor().workbench;
    const pane = editor().workbench.serversPane();
    const box = pane
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) })
      .locator('.custom-view-tree-node-item-checkbox');
    const offersEcho = async () =>
      (
        JSON.parse(
          await editor().control<string>('invokeLmTool', { name: 'mcpHost_listTools', input: { server: 'fx' } }),
        ) as { tool: string }[]
      ).some((t) => t.tool === 'echo');
    const s0Tools = async () => ((await editor().control<unknown[]>('listTools', { serverId: 's0' })) ?? []).length;
    const before = await s0Tools();
    let churning = true;
    let added = 0;
    const churn = (async () => {
      for (; churning; added++) {
        await editor().control('callTool', { serverId: 's0', name: 'add-tool', args: { name: `churn-${added}` } });
        await page.waitForTimeout(60);
      }
    })();
    try {
      assert.equal(await box.getAttribute('aria-checked'), 'false', 'echo starts unchecked (the test before)');
      for (let click = 1; click <= 20; click++) {
        const on = click % 2 === 1;
        await box.click();
        for (let i = 0; (await offersEcho()) !== on; i++) {
          if (i > 50)
            throw new Error(
              `click ${click} on echo's box (${on ? 'check' : 'uncheck'}) never reached the extension host; s0 had ${added} tools added meanwhile`,
            );
          await page.waitForTimeout(200);
        }
        assert.equal(await box.getAttribute('aria-checked'), String(on));
      }
    } finally {
      churning = false;
      await churn;
    }
    assert.ok(added >= 10, `s0's list changed ${added} times during the clicks`);
    for (let i = 0; (await s0Tools()) !== before + added; i++) {
      if (i > 50) throw new Error(`s0 lists ${await s0Tools()} tools, not ${before} + ${added}`);
      await page.waitForTimeout(200);
    }
    await editor().workbench.waitForServerDescription('s0', new RegExp(`^${before + added} tools · `), 15_000);
  });
});
