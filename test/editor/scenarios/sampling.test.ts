// Sampling in a real VS Code (code-server) driven through Chromium: servers ask, the user approves
// in the panel, a deterministic test model (registered by the test-host extension through
// vscode.lm.registerLanguageModelChatProvider) answers, the user reviews, the server gets it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { OUT, REPO } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const fixture = (script: string) => ({
  command: process.execPath,
  args: [path.join(OUT, `test/fixtures/servers/${script}.js`), '--sampling-tools'],
});
const everything = {
  command: process.execPath,
  args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};
const servers = { everything, fixture: fixture('legacyStdio'), modern: fixture('modernStdio') };

interface ToolResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

describe('Sampling in a real VS Code', function () {
  this.timeout(180_000);
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false });

  before(async () => {
    // The test model is registered by the test-host extension; selecting it once makes it known.
    assert.deepEqual(await editor().control('chatModels'), ['fixture-model']);
  });

  /** Calls a tool through the public API (no confirmation) without waiting for it. */
  function call(serverId: string, name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return editor().control<ToolResult>('callTool', { serverId, name, args }, 120_000);
  }
  const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
  /** The value of a vscode-elements text area (its own property, not an attribute). */
  const valueOf = (element: unknown) => (element as { value: string }).value;

  /** The approval panel of the newest request. */
  const panel = () => editor().workbench.webview('#approve');
  const review = () => editor().workbench.webview('#send');

  it("shows server-everything's request, sends the edited text to the model, and returns the reviewed answer", async () => {
    const result = call('everything', 'trigger-sampling-request', { prompt: 'Hello there', maxTokens: 42 });
    const view = await panel();
    const shown = (await view.locator('#app').textContent()) ?? '';
    assert.match(shown, /MCP server "everything" asks your language model for a completion/);
    assert.match(shown, /Max tokens42/);
    assert.equal(await view.locator('#system-prompt').evaluate(valueOf), 'You are a helpful test server.');
    const message = view.locator('vscode-textarea.message-text').first();
    assert.equal(await message.evaluate(valueOf), 'Resource trigger-sampling-request context: Hello there');
    assert.match((await view.locator('#model').textContent()) ?? '', /Fixture Model · mcp-host-test/);
    assert.match(await editor().workbench.statusBarText('MCP request'), /1 MCP request waiting/);
    await editor().workbench.screenshot('30-sampling-approval');
    // Edit the message as a user would: focus the text area and type at the end.
    await message.locator('textarea').focus();
    await editor().workbench.page.keyboard.press('End');
    await editor().workbench.page.keyboard.type(' (edited)');
    await view.locator('#approve').click();
    const answer = await review();
    const text = answer.locator('#answer-text');
    await waitFor('the answer to arrive for review', async () => /Model saw:/.test(await text.evaluate(valueOf)));
    assert.equal(
      await text.evaluate(valueOf),
      'Model saw: You are a helpful test server. / Resource trigger-sampling-request context: Hello there (edited)',
    );
    await editor().workbench.screenshot('31-sampling-review');
    await answer.locator('#send').click();
    assert.match(
      textOf(await result),
      /Model saw: You are a helpful test server\. \/ Resource trigger-sampling-request context: Hello there \(edited\)/,
    );
  });

  const tabs = (title: string) => editor().workbench.page.locator('.tab', { hasText: title });

  it('tells the server the user rejected the request when they deny it or close the panel', async () => {
    const denied = call('everything', 'trigger-sampling-request', { prompt: 'Deny me' });
    await (await panel()).locator('#deny').click();
    assert.match(textOf(await denied), /User rejected sampling request/);
    await waitFor('the denied panel to close', async () => (await tabs('Sampling: everything').count()) === 0);
    const closed = call('everything', 'trigger-sampling-request', { prompt: 'Close me' });
    await (await editor().workbench.webview('.message-text')).locator('vscode-textarea.message-text').first().waitFor();
    // Close the tab as a user would, with its close button.
    await tabs('Sampling: everything').locator('.tab-actions .action-label').click();
    assert.match(textOf(await closed), /User rejected sampling request/);
  });

  it('says in the panel that the server gave up on its request (notifications/cancelled), instead of vanishing', async () => {
    // Long enough for the panel to show on a loaded machine; the server gives up after that.
    const result = call('fixture', 'sample', { prompt: 'Too slow', cancelAfterMs: 10_000 });
    const view = await panel();
    // While it waits, the panel counts how long the server has waited, and says servers give up.
    await view.locator('#waited', { hasText: /The server has waited [1-9]\d* s for this answer\./ }).waitFor();
    assert.match((await view.locator('#waited').textContent()) ?? '', /Servers often stop waiting after 60 s/);
    assert.match(textOf(await result), /sampling failed: .*timed out/i);
    await view
      .locator('#status', { hasText: /MCP server "fixture" stopped waiting after \d+ s and withdrew its request/ })
      .waitFor({ timeout: 15_000 });
    assert.equal(await view.locator('#approve').count(), 0, 'nothing is left to approve');
    assert.equal(await view.locator('#waited').count(), 0, 'the count stops with the request');
    await waitFor('the tab to say so', async () => (await tabs('Withdrawn: fixture').count()) === 1);
    await editor().workbench.screenshot('115-sampling-withdrawn');
    await waitFor(
      'nothing counted as waiting',
      async () => (await editor().workbench.page.locator('.statusbar-item', { hasText: 'MCP request' }).count()) === 0,
    );
  });

  it("opens the call's result beside the withdrawn request, which stays in front with its explanation", async () => {
    const { workbench } = editor();
    await workbench.runCommand('MCP Host: Run Tool…');
    await workbench.page.locator('.quick-input-widget input').fill('sample');
    await workbench.pick('sample', 'fixture');
    const form = await workbench.webview('#field_prompt');
    await form.locator('#field_prompt input').fill('Too slow, from Run Tool');
    await form.locator('#field_cancelAfterMs input').fill('8000');
    await form.locator('#submit').click();
    await (await workbench.dialog()).getByRole('button', { name: 'Run Once', exact: true }).click();
    const view = await panel();
    await view
      .locator('#status', { hasText: /MCP server "fixture" stopped waiting after \d+ s and withdrew its request/ })
      .waitFor({ timeout: 30_000 });
    // The call ends with the server's error; its result opens in another group, and the
    // explanation stays in front in its own.
    await workbench.page.locator('.tab.active', { hasText: 'Result: sample' }).waitFor({ timeout: 30_000 });
    assert.equal(await workbench.page.locator('.tab.active', { hasText: 'Withdrawn: fixture' }).count(), 1);
    const result = await workbench.webview('#outcome');
    await result.locator('#items', { hasText: /timed out/i }).waitFor({ timeout: 30_000 });
    assert.match((await result.locator('#outcome').textContent()) ?? '', /^The (tool reported an error|call failed)/);
    await workbench.screenshot('116-sampling-withdrawn-beside-result');
  });

  it('offers the server\'s tools to the model and returns its tool call as tool_use with stopReason "toolUse"', async () => {
    const result = call('fixture', 'sample', {
      prompt: 'use get_weather {"city":"Paris"}',
      tools: true,
      toolChoice: 'required',
    });
    const view = await panel();
    await view.locator('#tools', { hasText: 'get_weather — The weather in a city.' }).waitFor();
    assert.match((await view.locator('#parameters').textContent()) ?? '', /Tool choicerequired/);
    assert.match(
      (await view.locator('#parameters').textContent()) ?? '',
      /Model preferenceshint: fixture; intelligence priority: 0.5/,
    );
    await view.locator('#approve').click();
    const answer = await review();
    await answer.locator('.tool-use', { hasText: 'Tool call get_weather' }).waitFor();
    await editor().workbench.screenshot('32-sampling-tool-call');
    await answer.locator('#send').click();
    const sampled = JSON.parse(textOf(await result));
    assert.equal(sampled.stopReason, 'toolUse');
    assert.equal(sampled.model, 'fixture-model');
    assert.deepEqual(
      sampled.content.map((c: { type: string; name?: string; input?: unknown }) => [c.type, c.name, c.input]),
      [['tool_use', 'get_weather', { city: 'Paris' }]],
    );
    const seen = await editor().control<{ tools: string[]; texts: string[] }[]>('modelRequests');
    assert.deepEqual(seen.at(-1)!.tools, ['get_weather']);
  });

  it('answers a 2026-07-28 server that samples through input_required', async () => {
    const result = call('modern', 'sample', { prompt: 'From the modern era' });
    await (await panel()).locator('#approve').click();
    const answer = await review();
    await waitFor('the answer', async () =>
      /Model saw: From the modern era/.test(await answer.locator('#answer-text').evaluate(valueOf)),
    );
    await answer.locator('#send').click();
    assert.deepEqual(JSON.parse(textOf(await result)).content, {
      type: 'text',
      text: 'Model saw: From the modern era',
    });
  });

  it('queues requests from two servers visibly and answers each', async () => {
    const first = call('everything', 'trigger-sampling-request', { prompt: 'first' });
    await panel();
    const second = call('fixture', 'sample', { prompt: 'second' });
    await waitFor('both requests counted', async () =>
      /2 MCP requests waiting/.test(await editor().workbench.statusBarText('MCP request')),
    );
    await editor().workbench.webview('#server:has-text("MCP server \\"fixture\\"")');
    await editor().workbench.runCommand('MCP Host: Show Waiting Requests');
    await editor()
      .workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Sampling request from "everything"' })
      .waitFor();
    await editor().workbench.screenshot('33-sampling-queue');
    // A panel that finishes loading late can take focus, which closes a quick pick (as it would for
    // a user): then the list is opened again.
    let attempt = 0;
    await waitFor(
      "the fixture's request picked from the waiting list",
      async () => {
        if (attempt++ > 0) await editor().workbench.runCommand('MCP Host: Show Waiting Requests');
        const row = editor()
          .workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Sampling request from "fixture"' })
          .filter({ visible: true })
          .first();
        return row.click({ timeout: 5_000 }).then(
          () => true,
          () => false,
        );
      },
      90_000,
    );
    for (const [pending, expected] of [
      [second, /Model saw: second/],
      [first, /Model saw: .*first/],
    ] as const) {
      const view: Frame = await panel();
      await view.locator('#approve').click();
      await (await review()).locator('#send').click();
      assert.match(textOf(await pending), expected);
    }
  });

  it('"Always allow for this server" writes the setting, and the next request runs without asking', async () => {
    const first = call('fixture', 'sample', { prompt: 'allow from now on' });
    const view = await panel();
    await view.locator('#always-allow').click();
    await view.locator('#approve').click();
    await (await review()).locator('#send').click();
    assert.match(textOf(await first), /Model saw: allow from now on/);
    await waitFor('the setting to be written', async () => {
      const value = await editor().control<Record<string, { sampling?: { mode?: string } }>>('userSetting', {
        section: 'mcpHost.servers',
      });
      return value.fixture?.sampling?.mode === 'allowAlways';
    });
    assert.match(
      await editor().workbench.serverDescription('fixture'),
      /^\d+ tools?\b/,
      'changing the sampling policy does not restart the server',
    );
    const second = await call('fixture', 'sample', { prompt: 'no questions asked' });
    assert.match(textOf(second), /Model saw: no questions asked/);
  });

  it('lists recent requests per server with their outcome in "MCP: Show Sampling History"', async () => {
    await editor().workbench.runCommand('MCP Host: Show Sampling History');
    const rows = editor().workbench.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'answered' }).first().waitFor();
    const texts = await rows.allTextContents();
    assert.ok(
      texts.some((t) => /answered · fixture-model/.test(t) && /no questions asked/.test(t)),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => /rejected · fixture-model/.test(t) && /Deny me/.test(t)),
      texts.join('\n'),
    );
    await editor().workbench.screenshot('34-sampling-history');
    await editor().workbench.page.keyboard.press('Escape');
  });
});
