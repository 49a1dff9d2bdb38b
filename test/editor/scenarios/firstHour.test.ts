// What a new user meets in the first hour, in a real VS Code (code-server) driven through Chromium:
// servers that fail to start, tools found by name, results shown as what they are, a Deny that
// keeps the form, a real third-party server's union types and long description.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { tempDir } from '../../support/tempDir';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { EditorSession, REPO } from '../harness/editorSession';
import { findChromium } from '../harness/editorInstall';
import { refusedPort, waitFor } from '../../unit/support/fixtures';

const node = process.execPath;
const pkg = (name: string) => path.join(REPO, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const PYTHON_SOURCE =
  '# a comment, not a heading\nclass Greeter:\n    def __init__(self, name):\n        self.name = name\n';

describe('The first hour in a real VS Code', function () {
  this.timeout(180_000);
  let editor: EditorSession;
  let closedPort: number;
  const files = tempDir('mcp-host-files-');
  const memoryFile = path.join(tempDir('mcp-host-memory-'), 'memory.jsonl');
  /** A bin path typed wrong, as a user does: Node's trailer follows the cause in its output. */
  const mistyped = path.join(files, 'node_modules', 'some-server', 'dist', 'index.js');
  writeFileSync(path.join(files, 'greeter.py'), PYTHON_SOURCE);

  /** An npm registry on loopback that has no package at all: what npx meets for a name typed wrong. */
  const registry = createServer((_request, response) =>
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}'),
  );

  /** An HTTP server that takes no credentials any more: every request gets a 401. */
  const revoked = createServer((_request, response) =>
    response.writeHead(401, { 'content-type': 'text/plain' }).end('token revoked'),
  );

  before(async () => {
    closedPort = await refusedPort();
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => revoked.listen(0, '127.0.0.1', resolve));
    const registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
    const servers = {
      everything: { command: node, args: [pkg('server-everything'), 'stdio'] },
      thinking: { command: node, args: [pkg('server-sequential-thinking')] },
      memory: { command: node, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: memoryFile } },
      mistyped: { command: node, args: [mistyped], restart: { enabled: false } },
      files: { command: node, args: [pkg('server-filesystem'), files], roots: [files] },
      // Playwright's server drives Debian's Chromium, as a user without Playwright's own browsers runs it.
      browser: {
        command: node,
        args: [
          path.join(REPO, 'node_modules/@playwright/mcp/cli.js'),
          '--headless',
          '--browser',
          'chromium',
          '--executable-path',
          findChromium(),
          '--no-sandbox',
          '--isolated',
          '--output-dir',
          tempDir('mcp-host-playwright-'),
        ],
      },
      broken: {
        command: node,
        args: ['-e', 'console.error("reading settings"); console.error("error: API_KEY is not set"); process.exit(1)'],
        restart: { enabled: false },
      },
      refused: { type: 'http', url: `http://127.0.0.1:${closedPort}/mcp`, restart: { enabled: false } },
      expired: {
        type: 'http',
        url: `http://127.0.0.1:${(revoked.address() as AddressInfo).port}/mcp`,
        headers: { Authorization: 'Bearer expired-token-value' },
        restart: { enabled: false },
      },
      // A shell's way to read a variable, which settings do not expand; started by its test only
      // (not learned in the background, whose failure would notify while others are read).
      github: {
        type: 'http',
        url: `http://127.0.0.1:${(revoked.address() as AddressInfo).port}/mcp`,
        headers: { Authorization: 'Bearer $GITHUB_TOKEN' },
        restart: { enabled: false },
        autoStart: false,
      },
      misspelled: {
        command: 'npx',
        args: ['-y', '@acme/server-wether'],
        env: {
          npm_config_registry: registryUrl,
          npm_config_cache: tempDir('mcp-host-npm-cache-'),
          npm_config_fetch_retries: '0',
          npm_config_update_notifier: 'false',
        },
        restart: { enabled: false },
        // Started by its test, after the others' notifications were read.
        autoStart: 'onDemand',
      },
    };
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      { trusted: true, userSettings: { 'mcpHost.servers': servers } },
    );
    await editor.workbench.openMcpView();
    for (const id of ['everything', 'thinking', 'files', 'memory', 'browser'])
      await editor.workbench.waitForServerDescription(id, /^\d+ tools?/, 90_000);
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await editor?.stop();
    registry.close();
    revoked.close();
  });

  const page = () => editor.workbench.page;
  const toast = (text: string) => page().locator('.notification-toast').filter({ hasText: text });

  /** Hovers the server's row until its tooltip shows `text`, then closes it; its whole text (a screenshot meanwhile when named). */
  async function rowTooltip(id: string, text: string, screenshot?: string): Promise<string> {
    const whole = await editor.workbench.tooltip(editor.workbench.serverRow(id), text);
    const content = (await whole.textContent()) ?? '';
    if (screenshot) await editor.workbench.screenshot(screenshot);
    await page().mouse.move(0, 0);
    await whole.waitFor({ state: 'hidden', timeout: 30_000 });
    return content;
  }

  async function runTool(typed: string, pickText: string, server: string): Promise<void> {
    await editor.workbench.runCommand('MCP Host: Run Tool…');
    await page().locator('.quick-input-widget input').fill(typed);
    await editor.workbench.pick(pickText, server);
  }

  async function confirm(button: string): Promise<string> {
    const dialog = await editor.workbench.dialog();
    const text = (await dialog.textContent()) ?? '';
    await dialog.getByRole('button', { name: button, exact: true }).click();
    return text;
  }

  it('shows why a server failed in its row, and one notification offers Show Output, Open Settings and Restart', async () => {
    // The row leads with the cause, the line of the output that says why, whole at the side bar's
    // default width; the tooltip tells the rest.
    const row = await editor.workbench.waitForServerDescription('broken', /^error: /, 60_000);
    assert.equal(row, 'error: API_KEY is not set');
    assert.ok(await editor.workbench.serverRowFits('broken'), 'the cause fits the side bar');
    await rowTooltip(
      'broken',
      'the process exited with code 1 (last output: reading settings ⏎ error: API_KEY is not set)',
    );
    assert.equal(
      await editor.workbench.waitForServerDescription('refused', /^error: /, 60_000),
      `error: connection refused: nothing is listening at 127.0.0.1:${closedPort} (ECONNREFUSED); is the server running?`,
    );

    const notice = toast('MCP server "broken" failed: the process exited with code 1');
    await notice.waitFor({ timeout: 30_000 });
    assert.equal(await notice.count(), 1, 'one notification per failure');
    for (const action of ['Show Output', 'Open Settings', 'Restart'])
      assert.equal(await notice.getByRole('button', { name: action }).count(), 1, action);
    // The failed servers' check boxes line up with the running ones' (see the on-demand scenario).
    // A row redraws when any server's lists change (its box is then briefly absent): wait until both
    // are drawn, then compare.
    const checkboxAt = async (id: string) =>
      (await editor.workbench.serverRow(id).locator('.custom-view-tree-node-item-checkbox').boundingBox())?.x;
    const [broken, refused] = await waitFor('both check boxes drawn', async () => {
      const xs = [await checkboxAt('broken'), await checkboxAt('refused')];
      return xs.every((x) => x !== undefined) ? xs : undefined;
    });
    assert.equal(broken, refused);
    await editor.workbench.screenshot('60-start-failure');
    await notice.getByRole('button', { name: 'Show Output' }).click();
    // The server's output shows in the panel; then the whole story in view: the panel maximized
    // (maximizing a closed panel would open it on its default view, the terminal).
    const outputView = page().locator('.part.panel .monaco-editor .view-lines');
    await outputView.waitFor({ timeout: 30_000 });
    await editor.control('executeCommand', { command: 'workbench.action.toggleMaximizedPanel' });
    const output = async () => ((await outputView.textContent()) ?? '').replace(/\u00a0/g, ' ');
    await waitFor(
      'the story of the start',
      async () => (await output()).includes('Failed to start: the process exited with code 1'),
      30_000,
    );
    const story = await output();
    assert.match(story, /Starting: .*node -e /);
    assert.match(story, /Protocol: negotiating the era over stdio/);
    assert.match(story, /\[stderr\] error: API_KEY is not set/);
    await editor.workbench.screenshot('61-start-failure-output');
    await editor.control('executeCommand', { command: 'workbench.action.toggleMaximizedPanel' });
    await editor.control('executeCommand', { command: 'workbench.action.closePanel' });
  });

  it("shows the cause line of a crash in the row, not Node's trailer", async () => {
    assert.equal(
      await editor.workbench.waitForServerDescription('mistyped', /^error: /, 60_000),
      `error: Cannot find module '${mistyped}'`,
    );
    await rowTooltip(
      'mistyped',
      `the process exited with code 1 (cause: Error: Cannot find module '${mistyped}'; the whole output is in the server's log)`,
    );
  });

  it('leads the row of an HTTP server that refused the credentials in "headers" with that, and names the header to check', async () => {
    // What the status means comes first, where the side bar's default width shows it; the URL is in the tooltip.
    assert.equal(
      await editor.workbench.waitForServerDescription('expired', /^error: /, 60_000),
      'error: "headers" refused (HTTP 401)',
    );
    const whole = await rowTooltip(
      'expired',
      'refused the credentials in "headers" (HTTP 401 Unauthorized); check the value of "Authorization"',
      '129-headers-refused',
    );
    assert.doesNotMatch(whole, /expired-token-value|\\/);
  });

  it('says that a $NAME in "headers" is not expanded when the server refuses it, and how to read the variable', async () => {
    await editor.control('executeCommand', { command: 'mcpHost.startServer', args: ['github'] }).catch(() => undefined);
    assert.equal(
      await editor.workbench.waitForServerDescription('github', /^error: /, 60_000),
      'error: $NAME unexpanded (HTTP 401)',
    );
    await rowTooltip(
      'github',
      '"Authorization" holds a $NAME as written, which MCP Host does not expand: to read an environment variable, write ${env:NAME}',
      '130-headers-name-not-expanded',
    );
  });

  it('names the package npx could not find in the row, when its name was typed wrong', async () => {
    await editor
      .control('executeCommand', { command: 'mcpHost.startServer', args: ['misspelled'] })
      .catch(() => undefined);
    // npm's report ends with advice and the path of its log; the row names the package.
    assert.equal(
      await editor.workbench.waitForServerDescription('misspelled', /^error: /, 60_000),
      'error: no npm package "@acme/server-wether"',
    );
    const notice = toast(
      'MCP server "misspelled" failed: the process exited with code 1 (cause: npm error 404 Not Found',
    );
    await notice.waitFor({ timeout: 30_000 });
    await editor.workbench.screenshot('128-npx-package-not-found');
  });

  it('runs servers nobody here wrote, each with a real call: memory keeps what it was told, sequential thinking takes a thought, Playwright reads a page in Chromium', async () => {
    type Result = { content: { type: string; text?: string }[]; isError?: boolean };
    const text = (result: Result) => result.content.map((c) => c.text ?? '').join('');
    const created = await editor.control<Result>('callTool', {
      serverId: 'memory',
      name: 'create_entities',
      args: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    });
    assert.notEqual(created.isError, true, text(created));
    const graph = await editor.control<Result>('callTool', { serverId: 'memory', name: 'read_graph', args: {} });
    // A row fits the side bar's default width when the server has few kinds of lists: the lists it
    // does not have are not counted ("0 prompts · 0 resources" cut it before).
    assert.equal(await editor.workbench.serverDescription('thinking'), '1 tool');
    assert.ok(await editor.workbench.serverRowFits('thinking'), 'the row of "thinking" is cut');
    assert.match(text(graph), /"name":\s*"Ada"[\s\S]*wrote the first program/);
    const thought = await editor.control<Result>('callTool', {
      serverId: 'thinking',
      name: 'sequentialthinking',
      args: { thought: 'Check the input first.', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
    });
    assert.notEqual(thought.isError, true, text(thought));
    assert.match(text(thought), /"thoughtNumber":\s*1/);
    // Playwright opens a page in Chromium and reads it back.
    const site = createServer((_request, response) =>
      response.end('<html><title>Greeting</title><h1>Hello from a local page</h1></html>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
      const opened = await editor.control<Result>('callTool', {
        serverId: 'browser',
        name: 'browser_navigate',
        args: { url },
      });
      assert.notEqual(opened.isError, true, text(opened));
      assert.match(text(opened), /Page Title: Greeting/);
      const snapshot = await editor.control<Result>('callTool', {
        serverId: 'browser',
        name: 'browser_snapshot',
        args: {},
      });
      assert.match(text(snapshot), /heading "Hello from a local page"/);
      await editor.control<Result>('callTool', { serverId: 'browser', name: 'browser_close', args: {} });
    } finally {
      site.close();
    }
  });

  it('finds a tool by its name when a title is shown', async () => {
    await editor.workbench.runCommand('MCP Host: Run Tool…');
    await page().locator('.quick-input-widget input').fill('get-sum');
    const rows = page().locator('.quick-input-list .monaco-list-row').filter({ visible: true });
    await rows.first().waitFor();
    assert.match((await rows.first().textContent()) ?? '', /Get Sum Tool.*get-sum.*everything/);
    await page().locator('.quick-input-widget input').fill('sequentialthinking');
    await rows.filter({ hasText: 'Sequential Thinking' }).first().waitFor();
    await editor.workbench.screenshot('62-run-tool-by-name');
    await page().keyboard.press('Escape');
  });

  it('gives a ["boolean","string"] parameter a real control, hides generated bounds, and folds a long description', async () => {
    await runTool('sequentialthinking', 'Sequential Thinking', 'thinking');
    const form = await editor.workbench.webview('#field_thought');
    const description = form.locator('#description');
    assert.equal(await description.getAttribute('class'), 'description folded');
    const folded = (await description.boundingBox())!.height;
    await form.locator('#description-toggle').click();
    assert.equal(await description.getAttribute('class'), 'description');
    assert.ok((await description.boundingBox())!.height > folded * 3, 'More shows the whole description');
    await form.locator('#description-toggle').click();
    // The union is a switch between its types, the first (boolean) shown as a checkbox.
    const union = form.locator('.field', { has: form.locator('#field_nextThoughtNeeded') }).first();
    assert.match((await union.textContent()) ?? '', /Yes \/ no \(boolean\)/);
    assert.equal(await form.locator('vscode-checkbox#field_nextThoughtNeeded').count(), 1);
    assert.doesNotMatch((await form.locator('body').textContent()) ?? '', /9007199254740991/);
    assert.doesNotMatch((await form.locator('body').textContent()) ?? '', /JSON: /);
    await form.locator('#field_thought textarea, #field_thought input').first().fill('First, list the facts.');
    await form.locator('#field_thoughtNumber input').fill('1');
    await form.locator('#field_totalThoughts input').fill('2');
    await form.locator('vscode-checkbox#field_nextThoughtNeeded').click();
    await editor.workbench.screenshot('63-union-type-and-folded-description');
    await form.locator('#submit').click();
    const shown = await confirm('Run Once');
    assert.match(shown, /"nextThoughtNeeded": true/);
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#items', { hasText: '"thoughtNumber": 1' }).waitFor();
    assert.match((await result.locator('#outcome').textContent()) ?? '', /^Succeeded/);
  });

  it('brings the form back with the arguments after Deny', async () => {
    await runTool('get-sum', 'Get Sum Tool', 'everything');
    let form = await editor.workbench.webview('#field_a');
    await form.locator('#field_a input').fill('19');
    await form.locator('#field_b input').fill('23');
    await form.locator('#submit').click();
    await confirm('Deny');
    form = await editor.workbench.webview('#notice');
    assert.match(
      (await form.locator('#notice').textContent()) ?? '',
      /Not run: you denied the call\. Change the arguments and Run again, or Cancel\./,
    );
    assert.equal(await form.locator('#field_a input').inputValue(), '19');
    assert.equal(await form.locator('#field_b input').inputValue(), '23');
    await editor.workbench.screenshot('64-form-after-deny');
    await form.locator('#field_b input').fill('1');
    await form.locator('#submit').click();
    assert.match(await confirm('Run Once'), /"b": 1/);
    await (
      await editor.workbench.webview('#outcome')
    )
      .locator('#items', { hasText: 'The sum of 19 and 1 is 20' })
      .waitFor();
  });

  it('shows a source file from server-filesystem as it is, with Rendered as a choice', async () => {
    await runTool('read_text_file', 'Read Text File', 'files');
    const form = await editor.workbench.webview('#field_path');
    await form.locator('#field_path input, #field_path textarea').first().fill(path.join(files, 'greeter.py'));
    await form.locator('#submit').click();
    await confirm('Run Once');
    const result = await editor.workbench.webview('#outcome');
    const raw = result.locator('.markdown-like pre.text');
    await raw.waitFor();
    assert.equal(await raw.textContent(), PYTHON_SOURCE);
    assert.equal(await result.locator('.markdown-like .markdown h1').count(), 0, 'no heading until asked');
    await editor.workbench.screenshot('65-tool-text-as-is');
    await result.locator('.render-toggle').click();
    await result.locator('.markdown-like .markdown h1', { hasText: 'a comment, not a heading' }).waitFor();
    assert.equal(await raw.isVisible(), false);
    await result.locator('.render-toggle', { hasText: 'Show Raw' }).click();
    assert.equal(await raw.isVisible(), true);
  });
});

/** The Servers view of a workspace whose only servers are in VS Code's `.vscode/mcp.json`. */
describe('A workspace with servers in .vscode/mcp.json', function () {
  this.timeout(180_000);
  let editor: EditorSession;

  before(async () => {
    editor = await EditorSession.start({ folders: ['alpha'], settings: {} }, { trusted: true });
  });

  after(async () => {
    await editor?.stop();
  });

  it('says so in the Servers view and uses those servers after the user’s consent', async () => {
    const mcpJson = path.join(editor.root, 'alpha', '.vscode', 'mcp.json');
    mkdirSync(path.dirname(mcpJson), { recursive: true });
    writeFileSync(
      mcpJson,
      `{\n  // written by "MCP: Add Server..."\n  "servers": {\n    "everything": { "type": "stdio", "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(pkg('server-everything'))}, "stdio"] }\n  }\n}\n`,
    );
    // An empty view shows its welcome text instead of the tree.
    await editor.workbench.page.locator('.activitybar .action-label[aria-label^="MCP"]').first().click();
    const welcome = editor.workbench.serversPane().locator('.welcome-view-content');
    await welcome.filter({ hasText: '.vscode/mcp.json' }).waitFor({ timeout: 30_000 });
    assert.match(
      (await welcome.textContent()) ?? '',
      /This workspace lists MCP servers in \.vscode\/mcp\.json, the file of VS Code's built-in MCP support/,
    );
    await editor.workbench.screenshot('66-mcp-json-welcome');
    await welcome.getByRole('button', { name: 'Use Servers from .vscode/mcp.json' }).click();
    // Every server is chosen at first; accept them.
    await editor.workbench.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'everything' })
      .first()
      .waitFor();
    await editor.workbench.page.keyboard.press('Enter');
    const consent = await editor.workbench.dialog(60_000);
    assert.match((await consent.textContent()) ?? '', /Allow MCP server "everything" from workspace settings to run\?/);
    await consent.getByRole('button', { name: 'Allow' }).click();
    await editor.workbench.waitForServerDescription('everything', /^\d+ tools/, 90_000);
    // Both hosts now have it: the row says so, and its tooltip says where and what follows.
    await editor.workbench.waitForServerDescription('everything', /· also in VS Code's MCP$/, 10_000);
    const hover = await editor.workbench.tooltip(editor.workbench.serverRow('everything'), 'Also configured');
    assert.match(
      ((await hover.textContent()) ?? '').replace(/\s+/g, ' '),
      /Also configured in VS Code's built-in MCP support \(\.vscode\/mcp\.json, server "everything"\): when both start it, it runs twice\. Keep it in one place\./,
    );
    await editor.workbench.screenshot('67-also-in-vscode-mcp');
  });
});
