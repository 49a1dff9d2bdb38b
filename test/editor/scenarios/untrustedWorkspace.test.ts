// Workspace trust in a real VS Code: servers from workspace settings are code from the repository.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { EditorSession, OUT } from '../harness/editorSession';
import type { McpServerInfo } from '../../../src/editor/publicApi';
import { waitFor } from '../../unit/support/fixtures';

const fixtureServer = (name: string) => ({
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name],
});

describe('An untrusted workspace in a real VS Code', function () {
  this.timeout(180_000);
  let editor: EditorSession;
  const server = async (id: string) => (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === id);

  before(async () => {
    editor = await EditorSession.start(
      { folders: ['repo'], settings: { 'mcpHost.servers': { 'from-repo': fixtureServer('repo-server') } } },
      // The user opened the repository in Restricted Mode (the startup prompt, when shown, offers the same).
      {
        trusted: false,
        userSettings: {
          'security.workspace.trust.startupPrompt': 'never',
          'mcpHost.servers': { mine: fixtureServer('my-server') },
        },
      },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await editor?.workbench.screenshot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  after(async () => {
    await editor?.stop();
  });

  it('does not start workspace servers when the user does not trust the workspace, but runs user servers', async () => {
    const page = editor.workbench.page;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ timeout: 60_000 });
    await editor.workbench.openMcpView();
    assert.equal(await editor.workbench.waitForServerDescription('mine', /^\d+ tools?\b/), '16 tools · 1 prompt');
    assert.equal(await editor.workbench.waitForServerDescription('from-repo', /^untrusted$/), 'untrusted');
    assert.equal(await editor.control('isTrusted'), false);
    const repo = await server('from-repo');
    assert.equal(repo?.status, 'untrusted');
    assert.equal(repo?.pid, undefined);
    assert.equal(repo?.reason, 'defined in workspace settings; trust the workspace to start it');
    // Nothing asked the user to run it, either.
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
    await editor.workbench.screenshot('10-untrusted-workspace');
  });

  it('asks for consent and starts the workspace server once the user trusts the workspace', async () => {
    await editor.workbench.runCommand('Workspaces: Manage Workspace Trust');
    await editor.workbench.page
      .locator('.workspace-trust-editor .workspace-trust-buttons-row .monaco-button', { hasText: /^Trust$/ })
      .first()
      .click();
    // The consent comes up over the trust editor; a key pressed before it shows could dismiss it,
    // so the trust editor is closed only after the user has answered.
    const consent = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Allow MCP server "from-repo"' });
    await consent.waitFor({ timeout: 30_000 });
    await editor.workbench.screenshot('11-consent-after-trust');
    await consent.getByRole('button', { name: 'Allow' }).click();
    await consent.waitFor({ state: 'detached' });
    const trustEditor = editor.workbench.page.locator('.modal-editor-part');
    await trustEditor.locator('.modal-editor-header').click();
    await editor.workbench.page.keyboard.press('Escape');
    await trustEditor.waitFor({ state: 'hidden' });
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('from-repo', /^\d+ tools?\b/);
    await waitFor('a process for the repo server', async () => (await server('from-repo'))?.pid);
    await editor.workbench.screenshot('12-trusted-and-running');
  });
});
