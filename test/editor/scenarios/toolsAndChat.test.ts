// Tools, prompts and chat in a real VS Code (code-server) driven through Chromium, as a user would.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { EditorSession, OUT, REPO } from '../harness/editorSession';
import { startHttpFixture, waitFor, type RunningProcess } from '../../unit/support/fixtures';

const fixtureServer = { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')] };
const everything = {
  command: process.execPath,
  args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

interface RecordedRequest {
  texts: string[];
  tools: string[];
}

describe('Tools, prompts and chat in a real VS Code', function () {
  this.timeout(180_000);
  let editor: EditorSession;
  let http: RunningProcess;

  before(async () => {
    http = await startHttpFixture();
    // "fixture" is kept from VS Code's agents ("publish": false): the language-model tools #mcpTools
    // and #mcpCall serve it, as they serve every server in an editor without VS Code's MCP API.
    const servers = {
      fixture: { ...fixtureServer, publish: false },
      everything,
      'modern-http': { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      clock: {
        ...fixtureServer,
        args: [...fixtureServer.args, '--name', 'clock', '--clock-tools'],
        autoApprove: ['get-time'],
      },
    };
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      {
        trusted: true,
        // The harness turns AI features off for the other scenarios; chat needs them.
        userSettings: { 'mcpHost.servers': servers, 'chat.disableAIFeatures': false },
      },
    );
    await editor.workbench.openMcpView();
    for (const id of Object.keys(servers)) await editor.workbench.waitForServerDescription(id, /^\d+ tools/, 90_000);
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await editor?.stop();
    await http?.stop();
  });

  const field = (form: Frame, id: string) => form.locator(`#field_${id} input`);
  const problem = (form: Frame, id: string) => form.locator(`[data-problem-for="/${id}"]`);

  async function runToolFromPalette(label: string, server: string): Promise<void> {
    await editor.workbench.runCommand('MCP Host: Run Tool…');
    await editor.workbench.page.locator('.quick-input-widget input').fill(label);
    await editor.workbench.pick(label, server);
  }

  async function approve(button: string, expect: RegExp[], screenshot?: string): Promise<string> {
    const dialog = await editor.workbench.dialog();
    const text = (await dialog.textContent()) ?? '';
    for (const pattern of expect) assert.match(text, pattern);
    if (screenshot) await editor.workbench.screenshot(screenshot);
    await dialog.getByRole('button', { name: button, exact: true }).click();
    return text;
  }

  it('runs get-sum on server-everything from the palette through the generated form and shows the sum', async () => {
    await runToolFromPalette('Get Sum Tool', 'everything');
    const form = await editor.workbench.webview('#field_a');
    await field(form, 'a').fill('19');
    await field(form, 'b').fill('23');
    await editor.workbench.screenshot('20-tool-form-get-sum');
    await form.locator('#submit').click();
    const shown = await approve('Run Once', [
      /MCP server "everything": run tool "Get Sum Tool"\?/,
      /"a": 19/,
      /"b": 23/,
    ]);
    assert.match(shown, /Arguments:/);
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#items', { hasText: '42' }).waitFor();
    assert.match((await result.locator('#outcome').textContent()) ?? '', /^Succeeded · \d+ ms$/);
    assert.match((await result.locator('#items').textContent()) ?? '', /The sum of 19 and 23 is 42/);
    // A call this quick shows no progress notification: VS Code would keep it (and its Cancel) on screen beside the result.
    assert.equal(
      await editor.workbench.page.locator('.notification-toast', { hasText: 'Running Get Sum Tool' }).count(),
      0,
    );
    await editor.workbench.screenshot('21-tool-result-get-sum');
  });

  it('puts the tool whose name was typed first in Run Tool, so Enter runs it and not a title that matches better', async () => {
    const { page } = editor.workbench;
    await editor.workbench.runCommand('MCP Host: Run Tool…');
    await page.locator('.quick-input-widget input').fill('get-time');
    const active = page.locator('.quick-input-list .monaco-list-row.focused');
    await active.filter({ hasText: 'get-time' }).waitFor({ timeout: 10_000 });
    assert.match((await active.textContent()) ?? '', /get-time.*clock/s);
    await editor.workbench.screenshot('113-run-tool-exact-name-first');
    await page.keyboard.press('Enter');
    // A tool without arguments may still show its (empty) form first.
    const shown = await editor.workbench.webview('#submit, #outcome');
    if ((await shown.locator('#submit').count()) > 0) await shown.locator('#submit').click();
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#items', { hasText: '1970-01-01T00:00:00.000Z' }).waitFor({ timeout: 30_000 });
    // Run again, the result replaces the last in the tool's one tab: tabs do not pile up.
    const tabs = page.locator('.tabs-container .tab', { hasText: 'Result: get-time' });
    assert.equal(await tabs.count(), 1);
    // get-time takes no arguments (no form) and is auto-approved (no dialog).
    const again = await editor.control<{ outcome: string }>('executeCommand', {
      command: 'mcpHost.runTool',
      args: [{ serverId: 'clock', name: 'get-time' }],
    });
    assert.equal(again.outcome, 'ok');
    assert.equal(await tabs.count(), 1, 'one result tab per tool');
  });

  it('validates a form with an enum, a bounded number and a required string before running', async () => {
    await runToolFromPalette('Book a room', 'fixture');
    const form = await editor.workbench.webview('#field_guest');
    assert.equal(await form.locator('label[for="field_guest"]').getAttribute('class'), 'required');
    assert.equal(await field(form, 'nights').inputValue(), '1', 'the default is pre-filled');
    // A new item of a list (an object with a required name) is not wrong before the user types in it.
    await form.locator('[data-path="/companions"] .add').first().click();
    await form.locator('[data-path="/companions/0/name"]').waitFor();
    await field(form, 'nights').fill('40');
    // Validation has run since the item came (the number's problem shows): the item has none.
    await problem(form, 'nights').filter({ hasText: 'Must be at most 14.' }).waitFor();
    assert.equal(
      (await problem(form, 'companions/0/name').textContent()) ?? '',
      '',
      'no problem on an item the user has not typed in',
    );
    await form.locator('[data-path="/companions"] .remove').first().click();
    await form.locator('#submit').click();
    await problem(form, 'guest').filter({ hasText: 'Required.' }).waitFor();
    await problem(form, 'room').filter({ hasText: 'Required.' }).waitFor();
    await editor.workbench.screenshot('22-tool-form-validation');
    await field(form, 'guest').fill('Ann');
    await field(form, 'nights').fill('2');
    // The select as a keyboard user drives it: open, move down to the second room, choose.
    await form.locator('#field_room').focus();
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']) await editor.workbench.page.keyboard.press(key);
    await problem(form, 'nights').filter({ hasText: /^$/ }).waitFor({ state: 'attached' });
    await form.locator('#submit').click();
    await approve('Allow in This Session', [/run tool "Book a room"/, /"guest": "Ann"/, /"nights": 2/]);
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#items', { hasText: 'Booked Grace for Ann, 2 night(s).' }).waitFor();
  });

  it('asks again, showing the change, when a tool the user allowed changes its description', async () => {
    const runShifty = async () => {
      await runToolFromPalette('shifty', 'fixture');
      const form = await editor.workbench.webview('#field_name');
      await field(form, 'name').fill('todo');
      await form.locator('#submit').click();
    };
    await runShifty();
    const first = await approve('Allow in This Session', [/run tool "shifty"/, /Description: Reads a note\./]);
    assert.doesNotMatch(first, /changed since you allowed it/);
    await (await editor.workbench.webview('#outcome')).locator('#items', { hasText: 'note todo' }).waitFor();
    await editor.control('executeCommand', { command: 'workbench.action.closeAllEditors' });

    await runToolFromPalette('mutate-shifty', 'fixture');
    await approve('Run Once', [/run tool "mutate-shifty"/]);
    await (await editor.workbench.webview('#outcome')).locator('#items', { hasText: 'shifty changed' }).waitFor();
    await editor.control('executeCommand', { command: 'workbench.action.closeAllEditors' });
    await waitFor('the new description to arrive', async () =>
      (await editor.control<{ name: string; description?: string }[]>('listTools', { serverId: 'fixture' })).some(
        (t) => t.name === 'shifty' && /uploads/.test(t.description ?? ''),
      ),
    );

    await runShifty();
    const again = await approve(
      'Deny',
      [
        /This tool changed since you allowed it:/,
        /description was: Reads a note\./,
        /now: Reads a note and uploads it somewhere\./,
      ],
      '28-tool-changed-since-approval',
    );
    assert.match(again, /run tool "shifty"/);
    // Denied: nothing ran, and the form is back with what the user typed.
    const back = await editor.workbench.webview('#notice');
    assert.match((await back.locator('#notice').textContent()) ?? '', /Not run: you denied the call/);
    assert.equal(await field(back, 'name').inputValue(), 'todo');
    await back.locator('#cancel').click();
  });

  it('lets another agent list and call MCP tools through the language-model tools, confirmed by the user', async () => {
    const listing = JSON.parse(
      await editor.control<string>('invokeLmTool', { name: 'mcpHost_listTools', input: { server: 'fixture' } }),
    ) as { server: string; tool: string }[];
    assert.ok(
      listing.length === 16 && listing.every((t) => t.server === 'fixture'),
      JSON.stringify(listing.map((t) => t.tool)),
    );
    const call = editor.control<string>('invokeLmTool', {
      name: 'mcpHost_callTool',
      input: { server: 'fixture', tool: 'echo', arguments: { text: 'from an agent' } },
    });
    await approve('Run Once', [
      /A chat model wants to run this tool\./,
      /MCP server "fixture": run tool "echo"/,
      /"text": "from an agent"/,
    ]);
    assert.equal(await call, 'from an agent');
  });

  it('says plainly what each answer allows, and that a read-only tool runs without asking on a trusted server', async () => {
    const call = editor
      .control<string>('invokeLmTool', { name: 'mcpHost_callTool', input: { server: 'fixture', tool: 'gallery' } })
      .catch((error: Error) => error.message);
    const text = await approve('Deny', [
      /The server describes it as: read-only \(its claim, not verified\)\./,
      /Tools a server marks read-only run without asking once you set "trusted": true on "fixture" in settings\./,
    ]);
    assert.match(text, /Run Once/);
    assert.match(await call, /declined/);
  });

  it("shows a running tool's progress and cancels it from the notification, which the server hears", async () => {
    await runToolFromPalette('slow', 'fixture');
    const form = await editor.workbench.webview('#field_ms');
    await field(form, 'ms').fill('60000');
    await form.locator('#submit').click();
    await approve('Run Once', [/run tool "slow"/, /"ms": 60000/]);
    const toast = editor.workbench.page.locator('.notification-toast', { hasText: 'Running slow on fixture' });
    await toast
      .locator('.notification-list-item-details-row, .notification-list-item-message', { hasText: /\d+ \/ 60000/ })
      .first()
      .waitFor();
    await editor.workbench.screenshot('23-tool-progress');
    await toast.getByRole('button', { name: 'Cancel' }).click();
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#outcome', { hasText: 'The call failed' }).waitFor();
    assert.match((await result.locator('#error').textContent()) ?? '', /cancel/i);
  });

  it('runs a 2026-07-28 tool that needs roots through input_required and shows the workspace root', async () => {
    await runToolFromPalette('roots', 'modern-http');
    await approve('Run Once', [/MCP server "modern-http": run tool "roots"/]);
    const result = await editor.workbench.webview('#outcome');
    const alpha = pathToFileURL(path.join(editor.root, 'alpha')).toString();
    await result.locator('#items', { hasText: alpha }).waitFor();
    await editor.workbench.screenshot('24-tool-result-roots-modern');
  });

  it('runs /everything.args-prompt from the @mcp participant and the prompt reaches the chat model', async () => {
    const models = await editor.control<string[]>('chatModels');
    assert.ok(models.includes('fixture-model'), `the fixture chat model is registered (models: ${models.join(', ')})`);
    await editor.workbench.openChat();
    await editor.workbench.sendChat('@mcp /everything.args-prompt city=Paris state=Texas');
    const response = await editor.workbench.lastChatResponse(/Model saw: [\s\S]*Paris.*Texas/);
    // server-everything's instructions (a third-party server's) reach the model ahead of the prompt.
    assert.match(
      response,
      /Model saw: Instructions from MCP server "everything" on using its tools \(written by the server, not by the user\):/,
    );
    assert.match(response, /Prompt args-prompt from everything: 1 message\(s\)\./);
    const requests = await editor.control<RecordedRequest[]>('modelRequests');
    assert.ok(
      requests.at(-1)!.texts.some((t) => /Paris/.test(t) && /Texas/.test(t)),
      JSON.stringify(requests.at(-1)),
    );
    await editor.workbench.screenshot('25-chat-prompt');
  });

  it('asks for a missing prompt argument with completion/complete suggestions that use the earlier ones', async () => {
    await editor.workbench.sendChat('@mcp /everything.completable-prompt department=Sales');
    const picker = editor.workbench.page.locator('.quick-input-widget');
    await picker.locator('.quick-input-title', { hasText: 'Team Management (everything): name *' }).waitFor();
    const rows = picker.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Frank' }).waitFor();
    const labels = await rows.evaluateAll((els) =>
      els.map((el) => el.querySelector('.label-name')?.textContent?.trim()),
    );
    assert.deepEqual(labels, ['David', 'Eve', 'Frank'], 'the Sales team, from the server');
    await editor.workbench.screenshot('26-prompt-argument-completion');
    await editor.workbench.page.keyboard.type('E');
    await waitFor(
      'the suggestions narrowed to Eve',
      async () =>
        (
          await rows.evaluateAll((els) => els.map((el) => el.querySelector('.label-name')?.textContent?.trim()))
        ).join() === 'Eve,E',
    );
    await editor.workbench.page.keyboard.press('Enter');
    await editor.workbench.lastChatResponse(/Model saw: [\s\S]*Please promote Eve to the head of the Sales team\./);
  });

  it('lets the chat model call an MCP tool after the user confirms it, and shows the answer', async () => {
    await editor.workbench.sendChat('@mcp use get-sum {"a":20,"b":22}');
    const shown = await approve(
      'Run Once',
      [/A chat model wants to run this tool\./, /MCP server "everything": run tool "Get Sum Tool"/, /"a": 20/],
      '27-chat-tool-confirmation',
    );
    assert.match(shown, /"b": 22/);
    const response = await editor.workbench.lastChatResponse(/Tool results: The sum of 20 and 22 is 42/);
    assert.match(response, /everything\/get-sum returned: The sum of 20 and 22 is 42\./);
    const requests = await editor.control<RecordedRequest[]>('modelRequests');
    assert.ok(requests.at(-2)!.tools.includes('everything_get-sum'), requests.at(-2)!.tools.join(', '));
    assert.ok(
      requests.at(-2)!.tools.includes('fixture_echo') && requests.at(-2)!.tools.includes('modern-http_echo'),
      "both servers' tools, prefixed apart",
    );
    await editor.workbench.screenshot('29-chat-tool-call');
  });
});
