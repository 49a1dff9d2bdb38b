// Resources in a real VS Code (code-server) driven through Chromium: the MCP Resources view, and
// resources opened read-only through the mcp-host-resource: file system.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { OUT, REPO } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const EVERYTHING_DIR = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist');
const servers = {
  everything: { command: process.execPath, args: [path.join(EVERYTHING_DIR, 'index.js'), 'stdio'] },
  fixture: {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--image-resource'],
  },
  // Last in the view, so End reaches its rows: a resource kit and 5,000 more resources in pages of 100.
  kit: {
    command: process.execPath,
    args: [
      path.join(OUT, 'test/fixtures/servers/legacyStdio.js'),
      '--resource-kit',
      '--extra-resources',
      '5000',
      '--resource-page-size',
      '100',
    ],
  },
};

const SERVER_IDS = Object.keys(servers);

describe('Resources in a real VS Code', function () {
  this.timeout(180_000);
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false });

  const view = () =>
    editor().workbench.page.locator('.pane', {
      has: editor().workbench.page.locator('.pane-header', { hasText: 'MCP Resources' }),
    });
  const row = (label: string) => view().locator('.monaco-list-row', { hasText: label }).first();
  const serverRow = (id: string) =>
    view()
      .locator('.monaco-list-row')
      .filter({ has: editor().workbench.page.locator('.label-name', { hasText: new RegExp(`^${id}$`) }) });

  /** Shows the Resources view with room to spare (the Servers view folded) and one server expanded. */
  async function expandServer(id: string): Promise<void> {
    await editor().control('executeCommand', { command: 'mcpHost.resources.focus' });
    const servers = editor().workbench.serversPane().locator('.pane-header');
    if ((await servers.getAttribute('aria-expanded')) === 'true') await servers.click();
    await serverRow(id).waitFor();
    for (const other of SERVER_IDS) if (other !== id) await collapseServer(other);
    if ((await serverRow(id).getAttribute('aria-expanded')) !== 'true') await serverRow(id).click();
  }

  async function collapseServer(id: string): Promise<void> {
    if ((await serverRow(id).getAttribute('aria-expanded')) === 'true') await serverRow(id).click();
  }

  const page = () => editor().workbench.page;
  /** The active editor as extensions see it: the extension host hears of it a moment after the page shows it. */
  const activeResourceEditor = (name: string) =>
    waitFor(
      `the resource editor of ${name}, active for extensions`,
      async () => {
        const active = await editor().control<{ uri: string; languageId: string } | undefined>('activeEditor');
        return active?.uri.startsWith('mcp-host-resource:') && active.uri.split('?')[0].endsWith(`/${name}`)
          ? active
          : undefined;
      },
      10_000,
    );
  const quickInput = () => page().locator('.quick-input-widget input');
  /** An editor's text area showing `text`. */
  const editorShowing = (text: string) => page().locator('.editor-instance .view-lines', { hasText: text }).first();

  /** Answers the variable quick pick: types `typed`, then takes the suggestion `take`. */
  async function answerVariable(
    title: RegExp,
    typed: string,
    take: string,
    expectedSuggestions?: string[],
  ): Promise<void> {
    await page().locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
    await quickInput().fill(typed);
    if (expectedSuggestions) {
      const rows = page().locator('.quick-input-list .monaco-list-row').filter({ visible: true });
      let shown: string[] = [];
      await waitFor(
        `suggestions ${expectedSuggestions.join(', ')}`,
        async () => {
          shown = await rows.evaluateAll((found) =>
            found.map((row) =>
              ['.label-name', '.label-description']
                .map((part) => row.querySelector(part)?.textContent?.trim())
                .filter(Boolean)
                .join(' — '),
            ),
          );
          return JSON.stringify(shown) === JSON.stringify(expectedSuggestions) || undefined;
        },
        30_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; the list shows ${JSON.stringify(shown)}`);
      });
    }
    await editor().workbench.pick(take);
  }

  it('opens the Resources view with room for its list beside the Servers view', async () => {
    const { page } = editor().workbench;
    await editor().workbench.openMcpView();
    const header = view().locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await row(SERVER_IDS[0]).waitFor();
    const height = async (pane: import('playwright-core').Locator) => (await pane.boundingBox())?.height ?? 0;
    // Both lists open: the Resources view gets about as much room as the Servers view, not a sliver.
    const [servers, resources] = [await height(editor().workbench.serversPane()), await height(view())];
    assert.ok(resources >= 0.4 * (servers + resources), JSON.stringify({ servers, resources }));
    await editor().workbench.screenshot('58-resources-view-beside-servers');
    await page.keyboard.press('Escape');
  });

  it("counts each server's resources and templates in the Resources view, a count loaded a page at a time marked as not all of them", async () => {
    await editor().control('executeCommand', { command: 'mcpHost.resources.focus' });
    const description = (id: string) => serverRow(id).locator('.label-description');
    // The kit's first page holds 100 of its 5,000 and more; templates are not resources, counted apart.
    await description('kit')
      .filter({ hasText: /^\d+\+ resources, \d+ templates?$/ })
      .waitFor({ timeout: 30_000 });
    await description('fixture')
      .filter({ hasText: /^\d+ resources?, 1 template$/ })
      .waitFor({ timeout: 30_000 }); // a server with one page says its count as it is
    // The Servers view's row counts what is under it there (tools, prompts), and fits the side bar.
    assert.match(await editor().workbench.serverDescription('kit'), /^\d+ tools?( · \d+ prompts?)?$/);
    assert.ok(await editor().workbench.serverRowFits('kit'), 'the row of "kit" is cut');
  });

  it("lists each server's resources and opens a text resource read-only with its language", async () => {
    await expandServer('fixture');
    await row('fixture://readme').waitFor();
    await expandServer('everything');
    await row('architecture.md').waitFor();
    await editor().workbench.screenshot('50-resources-view');
    // Its tooltip, made as the row is hovered: the server's description, the URI and the type, as plain text.
    const hover = await editor().workbench.tooltip(row('architecture.md'), 'Static document file');
    assert.equal(
      (await hover.innerText()).replace(/\s+/g, ' ').trim(),
      'Static document file exposed from /docs: architecture.md demo://resource/static/document/architecture.md text/markdown',
    );
    await page().mouse.move(0, 0);
    await row('architecture.md').click();
    const tab = editor().workbench.page.locator('.tab', { hasText: 'architecture.md' });
    await tab.waitFor();
    const expected = readFileSync(path.join(EVERYTHING_DIR, 'docs/architecture.md'), 'utf8')
      .split('\n')
      .find((l) => l.trim())!
      .trim();
    await editor()
      .workbench.page.locator('.editor-instance .view-lines', { hasText: expected.slice(0, 30) })
      .waitFor();
    const active = await activeResourceEditor('architecture.md');
    assert.equal(active.languageId, 'markdown');
    // A readable path (the breadcrumb), the exact URI in the query.
    const [editorPath, query] = active.uri.split('?');
    assert.equal(editorPath, 'mcp-host-resource:/everything/demo/resource/static/document/architecture.md');
    assert.equal(
      new URLSearchParams(decodeURIComponent(query)).get('uri'),
      'demo://resource/static/document/architecture.md',
    );
    const crumbs = (
      await editor().workbench.page.locator('.breadcrumbs-control .monaco-breadcrumb-item').allTextContents()
    )
      .map((t) => t.trim())
      .filter(Boolean);
    assert.deepEqual(crumbs.slice(0, 6), ['everything', 'demo', 'resource', 'static', 'document', 'architecture.md']);
    await editor().workbench.screenshot('57-resource-readable-path');
    // Read-only: typing changes nothing.
    await editor().workbench.page.locator('.editor-instance .view-lines').first().click();
    await editor().workbench.page.keyboard.type('xyz');
    assert.doesNotMatch(
      (await editor().workbench.page.locator('.editor-instance .view-lines').first().textContent()) ?? '',
      /xyz/,
    );
  });

  it('opens an image resource in the image preview', async () => {
    await expandServer('fixture');
    await row('fixture://pixel').click();
    await editor().workbench.page.locator('.tab', { hasText: 'pixel.png' }).waitFor();
    // VS Code's image preview decodes the bytes the file system gave it: a 1×1 picture.
    const preview = await editor().workbench.webview('img.scale-to-fit, img.pixelated, .image-container img');
    await waitFor(
      'the image to decode',
      async () =>
        (await preview
          .locator('img')
          .first()
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 1,
    );
    await editor().workbench.screenshot('51-resource-image');
  });

  it("opens a template from server-everything with the server's completion, and the open editor refreshes on updates", async () => {
    await expandServer('everything');
    await row('Resource Templates').click();
    await row('Dynamic Text Resource').waitFor();
    await editor().workbench.screenshot('52-resource-templates');
    await row('Dynamic Text Resource').click();
    await answerVariable(/Dynamic Text Resource \(everything\): resourceId \(1\/1\)/, '7', '7', ['7']);
    await page().locator('.tab', { hasText: '7.txt' }).waitFor();
    const resource7 = page().locator('.editor-instance .view-lines', {
      hasText: 'Resource 7: This is a plaintext resource created at',
    });
    await resource7.waitFor();
    const first = (await resource7.textContent()) ?? '';
    // Subscribed while the editor is open: server-everything's simulated updates reload it.
    await editor().control('callTool', { serverId: 'everything', name: 'toggle-subscriber-updates', args: {} });
    try {
      await waitFor(
        'the editor to show the re-read resource',
        async () => {
          const now = (await resource7.textContent().catch(() => '')) ?? '';
          return now !== '' && now !== first;
        },
        30_000,
      );
    } finally {
      await editor().control('callTool', { serverId: 'everything', name: 'toggle-subscriber-updates', args: {} });
    }
  });

  it('completes a template variable from the one chosen before it', async () => {
    await expandServer('kit');
    await row('Resource Templates').click();
    await row('Note').click();
    // The server's suggestion first, so Enter takes it; what was typed stays one arrow away.
    await answerVariable(/Note \(kit\): folder \(1\/2\)/, 'h', 'home', ['home', 'h — as typed']);
    await answerVariable(/Note \(kit\): name \(2\/2\)/, '', 'garden', ['groceries', 'garden']);
    await page().locator('.tab', { hasText: 'garden.md' }).waitFor();
    await editorShowing('A note in home.').waitFor();
    assert.equal((await activeResourceEditor('garden.md')).languageId, 'markdown');
  });

  it('shows the first page of 5,000 resources and loads the next on "Load more…"', async () => {
    await expandServer('kit');
    // The last row of the view is kit's "Load more…"; the tree is virtual, so go there by keyboard.
    await row('fixture://readme').click();
    await page().keyboard.press('End');
    const more = view().locator('.monaco-list-row', { hasText: 'Load more…' });
    await more.filter({ hasText: '100 loaded' }).waitFor();
    await editor().workbench.screenshot('53-resources-load-more');
    await page().keyboard.press('Enter');
    await waitFor(
      'the second page and a new "Load more…"',
      async () => {
        await page().keyboard.press('End');
        return (await more.filter({ hasText: '200 loaded' }).count()) > 0;
      },
      30_000,
    );
    await view().locator('.monaco-list-row', { hasText: 'fixture://item/194' }).waitFor();
  });

  it('finds a resource across servers by name, loading the pages not yet seen', async () => {
    await editor().workbench.runCommand('MCP Host: Find Resource…');
    await quickInput().fill('item-4999');
    await page()
      .locator('.quick-input-list .monaco-list-row', { hasText: 'fixture://item/4999' })
      .filter({ visible: true })
      .waitFor({ timeout: 60_000 });
    await editor().workbench.screenshot('54-find-resource');
    await editor().workbench.pick('fixture://item/4999');
    await page().locator('.tab', { hasText: '4999.txt' }).waitFor();
    await editorShowing('4999').waitFor();
  });

  it('opens a multi-megabyte blob as binary, and reads slow resources with a way to cancel', async () => {
    await editor().workbench.runCommand('MCP Host: Open Resource from Template…');
    await editor().workbench.pick('fixture://blob/{bytes}', 'kit');
    await answerVariable(/blob \(kit\): bytes \(1\/1\)/, String(5 * 1024 * 1024), String(5 * 1024 * 1024));
    await page()
      .locator('.tab', { hasText: String(5 * 1024 * 1024) })
      .waitFor();
    await page()
      .getByText(
        'The file is not displayed in the text editor because it is either binary or uses an unsupported text encoding.',
      )
      .waitFor({ timeout: 60_000 });
    await editor().workbench.runCommand('MCP Host: Open Resource from Template…');
    await editor().workbench.pick('fixture://slow/{ms}', 'kit');
    await answerVariable(/slow \(kit\): ms \(1\/1\)/, '60000', '60000');
    const reading = page().locator('.notification-toast', {
      hasText: 'Reading fixture://slow/60000 from MCP server "kit"',
    });
    await reading.waitFor();
    await editor().workbench.screenshot('55-resource-slow-read');
    await reading.getByRole('button', { name: 'Cancel' }).click();
    await page().getByText('The editor could not be opened').waitFor();
    await reading.waitFor({ state: 'detached' });
    // A resource the server no longer has: the reason, with the server and the URI, in an error.
    await editor().workbench.runCommand('MCP Host: Find Resource…');
    await quickInput().fill('fixture://gone');
    await editor().workbench.pick('fixture://gone', 'kit');
    await page()
      .locator('.notification-toast', { hasText: 'MCP server "kit" has no resource fixture://gone' })
      .waitFor();
  });

  it('adds an open resource to a chat request, and @mcp hands its text to the model', async () => {
    await editor().workbench.runCommand('MCP Host: Find Resource…');
    await quickInput().fill('fixture://readme');
    await editor().workbench.pick('fixture://readme', 'kit');
    await page().locator('.tab', { hasText: 'readme.txt' }).waitFor();
    await editor().workbench.runCommand('MCP Host: Add Resource to Chat');
    await page()
      .locator('.interactive-input-part .chat-attached-context-attachment', { hasText: 'readme.txt' })
      .waitFor();
    assert.deepEqual(await editor().control('chatModels'), ['fixture-model'], 'the stand-in chat model is ready');
    await editor().workbench.sendChat('@mcp what does the attached resource say?');
    const answer = await editor().workbench.lastChatResponse(/Model saw: [\s\S]*README of fixture-legacy/);
    assert.match(
      answer,
      /Resource fixture:\/\/readme from MCP server "kit" \(text\/plain\):\s*README of fixture-legacy/,
    );
    await editor().workbench.screenshot('56-resource-in-chat');
  });

  it('reopens a resource editor after a window reload, waiting for its server instead of failing', async () => {
    await editor().workbench.runCommand('MCP Host: Find Resource…');
    await quickInput().fill('fixture://readme');
    await editor().workbench.pick('fixture://readme', 'kit');
    await editorShowing('README of fixture-legacy').waitFor();
    await editor().reloadWindow();
    // The reloaded window restores the editor before the servers run; it waits, then shows the text.
    await page().locator('.tab', { hasText: 'readme.txt' }).waitFor({ timeout: 60_000 });
    await editorShowing('README of fixture-legacy').waitFor({ timeout: 90_000 });
    assert.equal(await page().getByText('The editor could not be opened').count(), 0);
    assert.deepEqual(
      (await editor().workbench.notifications()).filter((n) => /could not read|is not running/.test(n)),
      [],
    );
    await editor().workbench.screenshot('58-resource-after-reload');
  });
});
