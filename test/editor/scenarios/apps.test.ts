// MCP Apps in a real VS Code: a real App server from npm (server-basic-vanillajs, run as its
// package ships it) and the fixture's board app, rendered in the sandbox, driven as a user would.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { OUT, REPO } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';
import { minimalPdf } from '../../support/minimalPdf';
import { tempDir } from '../../support/tempDir';

interface RecordedRequest {
  texts: string[];
  tools: string[];
}

/** A local PDF for server-pdf's viewer (offline: no arxiv), allowed by naming it on its command line. */
const PDF_TEXT = 'MCP Host shows this PDF';
const pdfFile = path.join(tempDir('mcp-pdf-'), 'fixture.pdf');
writeFileSync(pdfFile, minimalPdf(PDF_TEXT));

const servers = {
  vanilla: {
    command: process.execPath,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'],
  },
  board: { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--app-tools'] },
  // PDF.js in the viewer makes its worker from a data: URL: the sandbox must let it run.
  pdf: {
    command: process.execPath,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js'), '--stdio', pdfFile],
  },
  // An app that makes code from text: the sandbox never allows it, and the panel says so plainly.
  evalapp: {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--eval-app'],
    autoApprove: ['show-eval'],
  },
  // The same server with apps off: it is not told MCP Host shows apps, and no app opens.
  plain: {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--app-tools'],
    apps: false,
    autoApprove: ['show-board'],
  },
};

describe('MCP Apps in a real VS Code', function () {
  this.timeout(240_000);
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false });
  const page = () => editor().workbench.page;

  async function approve(expect: RegExp): Promise<void> {
    const dialog = await editor().workbench.dialog();
    assert.match((await dialog.textContent()) ?? '', expect);
    await dialog.getByRole('button', { name: 'Run Once', exact: true }).click();
  }
  /** The app's own document: the innermost frame, inside the sandbox proxy, inside the webview. */
  const appFrame = (selector: string) => editor().workbench.webview(selector, 60_000);
  const hostFrame = () => editor().workbench.webview('#app-frame', 60_000);
  async function showOutput(serverId: string): Promise<() => Promise<string>> {
    await editor().control('executeCommand', { command: 'mcpHost.showOutput', args: [serverId] });
    return async () =>
      ((await page().locator('.part.panel .monaco-editor .view-lines').textContent()) ?? '').replace(/\u00a0/g, ' ');
  }

  /** Runs server-basic-vanillajs's get-time from Run Tool, once: its app, and where the app shows the time. */
  async function runGetTime() {
    await editor().workbench.runCommand('MCP Host: Run Tool…');
    await page().locator('.quick-input-widget input').fill('get-time');
    await editor().workbench.pick('get-time', 'vanilla');
    await approve(/MCP server "vanilla": run tool "Get Time"\?/);
    const app = await appFrame('#get-time-btn');
    return { app, time: app.locator('#server-time') };
  }

  it('renders server-basic-vanillajs beside the result; its button calls get-time (the tool that opened it) without a dialog and the app shows the answer', async () => {
    const { app, time } = await runGetTime();
    await waitFor(
      'the result in the app',
      async () => /^\d{4}-\d\d-\d\dT/.test((await time.textContent()) ?? ''),
      30_000,
    );
    const first = await time.textContent();
    // The sandbox: the app runs on the loopback sandbox origin, not the webview's, and the header names the server.
    assert.match(app.url(), /^about:blank|^http:\/\/127\.0\.0\.1:\d+\//);
    const host = await hostFrame();
    assert.equal(await host.locator('#app-title').textContent(), 'Get Time — MCP server: vanilla');
    await editor().workbench.screenshot('85-app-basic-vanillajs');
    await app.locator('#get-time-btn').click();
    await waitFor(
      "a newer time from the app's own call",
      async () => ((await time.textContent()) ?? '') !== first,
      30_000,
    );
    assert.equal(
      await page().locator('.monaco-dialog-box').count(),
      0,
      "the app's call of the tool that opened it asked nothing",
    );
  });

  it("moves an app into the result's group when the Chat view leaves the column beside it too narrow", async () => {
    await editor().control('executeCommand', { command: 'workbench.action.closeAllEditors' });
    await editor().control('executeCommand', { command: 'workbench.action.chat.open' });
    await page().locator('.interactive-input-part').first().waitFor();
    const { app, time } = await runGetTime();
    const groups = page().locator('.editor-group-container');
    const appTab = page().locator('.tab', { hasText: 'Get Time — vanilla' });
    const resultTab = page().locator('.tab', { hasText: 'Result: Get Time' });
    await waitFor(
      'the app and the result in one group',
      async () =>
        (await groups.count()) === 1 &&
        (await groups.filter({ has: appTab }).filter({ has: resultTab }).count()) === 1 &&
        /^\d{4}-\d\d-\d\dT/.test((await time.textContent()) ?? ''),
      30_000,
    );
    const width = (await (await hostFrame()).locator('#app-frame').boundingBox())?.width ?? 0;
    assert.ok(width >= 480, `the app is ${width} px wide`);
    await editor().workbench.screenshot('119-app-wide-beside-chat');
    // The page lived through the move: its own call still answers.
    const first = await time.textContent();
    await app.locator('#get-time-btn').click();
    await waitFor('a newer time after the move', async () => ((await time.textContent()) ?? '') !== first, 30_000);
  });

  it('runs the board from @mcp: the model never sees the app-only tool, the answer links to the app, which blocks an undeclared script', async () => {
    // The stand-in chat model registers with the test extension; wait for it before chatting.
    await waitFor(
      'the fixture chat model',
      async () => (await editor().control<string[]>('chatModels')).includes('fixture-model'),
      30_000,
    );
    await editor().workbench.openChat();
    await editor().workbench.sendChat('@mcp use show-board {"title":"Sprint"}');
    await approve(
      /MCP server "board": run tool "show-board"\?A chat model wants to run this tool\.[\s\S]*"title": "Sprint"/,
    );
    const response = await editor().workbench.lastChatResponse(/Tool results: Board "Sprint" at \d+\./);
    assert.match(response, /board\/show-board returned/);
    const requests = await editor().control<RecordedRequest[]>('modelRequests');
    const offered = requests.at(-1)!.tools;
    // "Host MUST NOT include tools in the agent's tool list when their visibility does not include model"
    assert.ok(
      offered.includes('board_show-board') && !offered.some((t) => t.includes('board-increment')),
      offered.join(', '),
    );
    const app = await appFrame('#increment');
    await app.locator('#title', { hasText: 'Board: Sprint' }).waitFor({ timeout: 30_000 });
    await app.locator('#status', { hasText: 'Got the result.' }).waitFor({ timeout: 30_000 });
    // The policy is enforced by the browser, seen inside the app itself.
    await app
      .locator('#csp', { hasText: 'Blocked by the host: https://cdn.undeclared.example/evil.js (script-src-elem)' })
      .waitFor({ timeout: 10_000 });
    // ...and the panel says so, where the user looks, not only in the server's output.
    await (
      await hostFrame()
    )
      .locator('#app-status', {
        hasText:
          'The app could not load https://cdn.undeclared.example/evil.js (script-src-elem): its server did not declare it in _meta.ui.csp.',
      })
      .waitFor({ timeout: 10_000 });
    await editor().workbench.screenshot('86-app-board-from-chat');
    const show = page()
      .locator('.interactive-item-container')
      .last()
      .getByRole('button', { name: 'Show the app of show-board' });
    await show.waitFor({ timeout: 10_000 });
    // Another editor covers the app in its group; the answer's button brings the app back.
    await (await hostFrame()).locator('#app-title').click();
    await editor().control('executeCommand', { command: 'workbench.action.files.newUntitledFile' });
    const appTab = page().locator('.tab', { hasText: 'show-board — board' });
    await waitFor(
      'the app covered',
      async () => !/\bactive\b/.test((await appTab.getAttribute('class')) ?? ''),
      10_000,
    );
    await show.click();
    await waitFor(
      'the app shown again',
      async () => /\bactive\b/.test((await appTab.getAttribute('class')) ?? ''),
      10_000,
    );
    await app.locator('#title', { hasText: 'Board: Sprint' }).waitFor({ timeout: 10_000 });
  });

  it('opens a second app in the group of the first, not in another column beside it', async () => {
    const { page } = editor().workbench;
    const appTabs = page.locator('.tab', { hasText: 'show-board — board' });
    for (const [i, title] of ['One', 'Two'].entries()) {
      const call = editor().control('invokeTool', { serverId: 'board', name: 'show-board', args: { title } });
      await approve(/MCP server "board": run tool "show-board"/);
      await call;
      await waitFor(`app tab ${i + 1}`, async () => (await appTabs.count()) === i + 1, 30_000);
    }
    const groups = page.locator('.editor-group-container');
    assert.equal(await groups.filter({ has: appTabs }).count(), 1, 'both apps are tabs of one group');
    assert.ok((await groups.count()) <= 2, `the editor has ${await groups.count()} groups`);
    await editor().workbench.screenshot('114-apps-share-a-group');
  });

  it('leaves an app-only tool out of Run Tool: its app calls it, not the user', async () => {
    const { page } = editor().workbench;
    await editor().workbench.runCommand('MCP Host: Run Tool…');
    await page.locator('.quick-input-widget input').fill('board');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'show-board' })
      .first()
      .waitFor({ timeout: 10_000 });
    const rows = await page.locator('.quick-input-list .monaco-list-row').allTextContents();
    assert.equal(rows.filter((r) => r.includes('board-increment')).length, 0, `Run Tool lists: ${rows.join(' / ')}`);
    await page.keyboard.press('Escape');
  });

  it('lets the app call its app-only tool without asking (a destructive one after confirmation), open a link only with consent and go full size, and removes it when it navigates away', async () => {
    void editor()
      .control('invokeTool', { serverId: 'board', name: 'show-board', args: { title: 'Ops' } })
      .catch(() => undefined);
    await approve(/MCP server "board": run tool "show-board"/);
    const app = await appFrame('#increment');
    await app.locator('#status', { hasText: 'Got the result.' }).waitFor({ timeout: 30_000 });
    const before = Number(await app.locator('#count').textContent());
    await app.locator('#increment').click();
    await app.locator('#count', { hasText: String(before + 1) }).waitFor({ timeout: 10_000 });
    assert.equal(await page().locator('.monaco-dialog-box').count(), 0, "the app's own tool ran without a dialog");
    await app.locator('#reset').click();
    await approve(/MCP server "board": run tool "board-reset"\?[\s\S]*The app of this server wants to run this tool\./);
    await app.locator('#status', { hasText: 'count is 0' }).waitFor({ timeout: 10_000 });
    await app.locator('#open-link').click();
    const consent = await editor().workbench.dialog();
    assert.match(
      (await consent.textContent()) ?? '',
      /The app of MCP server "board" wants to open a link\.[\s\S]*https:\/\/example\.com\/board-docs/,
    );
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await app.locator('#status', { hasText: 'Link not opened.' }).waitFor({ timeout: 10_000 });
    // Full size, asked by the app (ui/request-display-mode), then back with the header's button.
    await app.locator('#fullscreen').click();
    await app.locator('#mode', { hasText: 'fullscreen' }).waitFor({ timeout: 10_000 });
    const host = await hostFrame();
    assert.equal(
      await host
        .locator('body')
        .getAttribute('class')
        .then((c) => /fullscreen/.test(c ?? '')),
      true,
    );
    await editor().workbench.screenshot('87-app-full-size');
    await host.locator('#app-mode', { hasText: 'Exit full size' }).click();
    await app.locator('#mode', { hasText: 'inline' }).waitFor({ timeout: 10_000 });
    // An app that navigates its frame away would leave its policy behind: the sandbox removes it.
    await app.locator('#leave').click();
    await host
      .locator('#app-status', {
        hasText: 'The app tried to leave its page (a navigation), which would escape its policy; MCP Host removed it.',
      })
      .waitFor({ timeout: 10_000 });
    assert.equal(await host.locator('#app-frame').count(), 0);
  });

  it("shows server-pdf's viewer: PDF.js runs its worker in the sandbox and the page's text is drawn, with no dialog for the app's own reads", async () => {
    void editor()
      .control('invokeTool', { serverId: 'pdf', name: 'display_pdf', args: { url: pdfFile } })
      .catch(() => undefined);
    await approve(/MCP server "pdf": run tool "Display PDF"\?/);
    const app = await appFrame('#pdf-canvas');
    await app.locator('#text-layer span', { hasText: PDF_TEXT }).first().waitFor({ timeout: 60_000 });
    assert.equal((await app.locator('#total-pages').textContent())?.replace(/\D/g, ''), '1');
    assert.equal(
      await app.locator('#error').isVisible(),
      false,
      `the viewer shows: ${await app.locator('#error').textContent()}`,
    );
    assert.equal(await page().locator('.monaco-dialog-box').count(), 0, 'its read_pdf_bytes calls asked nothing');
    // PDF.js's probe for eval is blocked and it goes on without: the panel shows no error for it.
    const status = (await hostFrame()).locator('#app-status');
    assert.equal(await status.getAttribute('class'), 'app-status', `the panel says: ${await status.textContent()}`);
    assert.equal(await status.textContent(), 'App ui://pdf-viewer/mcp-app.html, sandboxed.');
    await editor().workbench.screenshot('116-app-pdf-viewer');
  });

  it('says plainly that an app needing eval cannot run here, not the raw CSP error', async () => {
    void editor()
      .control('invokeTool', { serverId: 'evalapp', name: 'show-eval', args: {} })
      .catch(() => undefined);
    const status = (await hostFrame()).locator('#app-status', { hasText: 'runs code made from text (eval)' });
    await status.waitFor({ timeout: 30_000 });
    assert.match(
      (await status.textContent()) ?? '',
      /MCP Host never allows an app, whatever its server declares: it cannot work here\. The server's tools still work from Run Tool and chat\./,
    );
    await editor().workbench.screenshot('117-app-needs-eval');
    await editor().control('executeCommand', { command: 'workbench.action.closeAllEditors' });
  });

  it("follows the editor's theme, hands its context to the next @mcp turn, and is torn down before it closes", async () => {
    void editor()
      .control('invokeTool', { serverId: 'board', name: 'show-board', args: { title: 'Theme' } })
      .catch(() => undefined);
    await approve(/MCP server "board": run tool "show-board"/);
    const app = await appFrame('#increment');
    await app.locator('#status', { hasText: 'Got the result.' }).waitFor({ timeout: 30_000 });
    const theme = app.locator('#theme');
    const first = await theme.textContent();
    assert.ok(first === 'dark' || first === 'light', first ?? '');
    await editor().control('updateUserSetting', {
      section: 'workbench.colorTheme',
      value: first === 'dark' ? 'Default Light Modern' : 'Default Dark Modern',
    });
    await theme.filter({ hasText: first === 'dark' ? 'light' : 'dark' }).waitFor({ timeout: 20_000 });
    await editor().workbench.screenshot('88-app-theme-switched');
    await editor().control('updateUserSetting', { section: 'workbench.colorTheme', value: undefined });
    await app.locator('#context').click();
    await app.locator('#status', { hasText: 'Context shared.' }).waitFor({ timeout: 10_000 });
    // ui/message goes into the chat input, where the user reads it before anything reaches a model.
    await editor().workbench.openChat();
    await app.locator('#tell-chat').click();
    await app.locator('#status', { hasText: 'Message sent.' }).waitFor({ timeout: 10_000 });
    const input = page().locator('.interactive-input-part .monaco-editor .view-lines').first();
    await waitFor(
      "the app's message in the chat input",
      async () => ((await input.textContent()) ?? '').replace(/\u00a0/g, ' ').includes('@mcp The board says hello.'),
      10_000,
    );
    assert.equal(
      (await editor().control<RecordedRequest[]>('modelRequests')).some((r) =>
        r.texts.some((t) => t.includes('The board says hello.')),
      ),
      false,
    );
    await editor()
      .control('executeCommand', { command: 'workbench.action.chat.clearInput' })
      .catch(() => undefined);
    await editor().workbench.sendChat('@mcp what does the board say?');
    await editor().workbench.lastChatResponse(
      /Model saw: [\s\S]*Context from the app of tool "show-board" \(MCP server "board"\)[\s\S]*The board count is \d+\./,
    );
    const host = await hostFrame();
    await host.locator('#app-close').click();
    const output = await showOutput('board');
    await waitFor(
      'the teardown in the server log',
      async () => (await output()).includes('app: board: teardown received (The user closed the app.)'),
      20_000,
    );
    assert.match(
      await output(),
      /App ui:\/\/fixture\/board\.html of tool "show-board": sandbox Content-Security-Policy "default-src 'none'; script-src 'self' 'unsafe-inline' blob: data:; worker-src 'self' blob: data:;/,
    );
    assert.match(
      await output(),
      /the sandbox blocked https:\/\/cdn\.undeclared\.example\/evil\.js \(script-src-elem\)/,
    );
  });

  it('shows a text result only for a server with apps off, which is not told about apps', async () => {
    type Invocation = { outcome: string; result: { structuredContent: { appsDeclared: unknown } }; appViewId?: string };
    const plain = await editor().control<Invocation>('invokeTool', {
      serverId: 'plain',
      name: 'show-board',
      args: { title: 'Plain' },
    });
    assert.deepEqual(
      [plain.outcome, plain.result.structuredContent.appsDeclared, plain.appViewId],
      ['ok', null, undefined],
    );
    // The same tool on the server with apps on opens its app (the API says which).
    const call = editor().control<Invocation>('invokeTool', {
      serverId: 'board',
      name: 'show-board',
      args: { title: 'Declared' },
    });
    await approve(/MCP server "board": run tool "show-board"/);
    const board = await call;
    assert.deepEqual(board.result.structuredContent.appsDeclared, ['text/html;profile=mcp-app']);
    assert.match(board.appViewId ?? '', /^app-\d+$/);
    await page().locator('.tab', { hasText: 'show-board — board' }).waitFor({ timeout: 20_000 });
    assert.equal(await page().locator('.tab', { hasText: 'show-board — plain' }).count(), 0);
  });
});
