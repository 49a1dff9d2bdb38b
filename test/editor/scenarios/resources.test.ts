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
  fixture: { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--image-resource'] },
};

describe('Resources in a real VS Code', function () {
  this.timeout(180_000);
  const editor = scenarioEditor(servers);

  const view = () => editor().workbench.page.locator('.pane', { has: editor().workbench.page.locator('.pane-header', { hasText: 'MCP Resources' }) });
  const row = (label: string) => view().locator('.monaco-list-row', { hasText: label }).first();
  const serverRow = (id: string) => view().locator('.monaco-list-row').filter({ has: editor().workbench.page.locator('.label-name', { hasText: new RegExp(`^${id}$`) }) });

  /** Shows the Resources view with room to spare (the Servers view folded) and one server expanded. */
  async function expandServer(id: string): Promise<void> {
    await editor().control('executeCommand', { command: 'mcpHost.resources.focus' });
    const servers = editor().workbench.serversPane().locator('.pane-header');
    if ((await servers.getAttribute('aria-expanded')) === 'true') await servers.click();
    await serverRow(id).waitFor();
    if ((await serverRow(id).getAttribute('aria-expanded')) !== 'true') await serverRow(id).click();
  }

  it('lists each server\'s resources and opens a text resource read-only with its language', async () => {
    await expandServer('fixture');
    await row('fixture://readme').waitFor();
    await expandServer('everything');
    await row('architecture.md').waitFor();
    await editor().workbench.screenshot('50-resources-view');
    await row('architecture.md').click();
    const tab = editor().workbench.page.locator('.tab', { hasText: 'architecture.md' });
    await tab.waitFor();
    const expected = readFileSync(path.join(EVERYTHING_DIR, 'docs/architecture.md'), 'utf8').split('\n').find((l) => l.trim())!.trim();
    await editor().workbench.page.locator('.editor-instance .view-lines', { hasText: expected.slice(0, 30) }).waitFor();
    const active = await editor().control<{ uri: string; languageId: string }>('activeEditor');
    assert.equal(active.languageId, 'markdown');
    assert.match(active.uri, /^mcp-host-resource:\/everything\/[A-Za-z0-9_-]+\/architecture\.md$/);
    // Read-only: typing changes nothing.
    await editor().workbench.page.locator('.editor-instance .view-lines').first().click();
    await editor().workbench.page.keyboard.type('xyz');
    assert.doesNotMatch((await editor().workbench.page.locator('.editor-instance .view-lines').first().textContent()) ?? '', /xyz/);
  });

  it('opens an image resource in the image preview', async () => {
    await expandServer('fixture');
    await row('fixture://pixel').click();
    await editor().workbench.page.locator('.tab', { hasText: 'pixel.png' }).waitFor();
    // VS Code's image preview decodes the bytes the file system gave it: a 1×1 picture.
    const preview = await editor().workbench.webview('img.scale-to-fit, img.pixelated, .image-container img');
    await waitFor('the image to decode', async () => (await preview.locator('img').first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 1);
    await editor().workbench.screenshot('51-resource-image');
  });
});
