// Importing servers from other hosts' configurations in a real VS Code: a Claude Desktop file
// (found through XDG_CONFIG_HOME, as Claude's Linux builds do), a workspace's Cursor and Claude
// Code files, chosen in one pick, converted, and running; then, with readLive, other hosts' servers
// run as their files say, following the files as they change.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { EditorSession, OUT } from '../harness/editorSession';
import { waitFor } from '../../unit/support/fixtures';
import { tempDir } from '../../support/tempDir';

const fixture = path.join(OUT, 'test/fixtures/servers/legacyStdio.js');

describe('Importing servers from other hosts in a real VS Code', function () {
  this.timeout(240_000);
  let editor: EditorSession;

  before(async () => {
    const xdg = tempDir('mcp-host-xdg-');
    mkdirSync(path.join(xdg, 'Claude'));
    writeFileSync(
      path.join(xdg, 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          desk: { command: process.execPath, args: [fixture, '--name', 'desk'], env: { DESK_API_TOKEN: 'tok-123' } },
          homebound: { command: 'node', args: ['${HOME}/server.js'] },
        },
      }),
    );
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      { trusted: true, env: { XDG_CONFIG_HOME: xdg }, userSettings: {} },
    );
    const alpha = path.join(editor.root, 'alpha');
    mkdirSync(path.join(alpha, '.cursor'));
    writeFileSync(
      path.join(alpha, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { cur: { command: process.execPath, args: [fixture, '--name', 'cur'] } } }),
    );
    writeFileSync(
      path.join(alpha, '.mcp.json'),
      JSON.stringify({ mcpServers: { remote: { type: 'http', url: '${BASE:-http://127.0.0.1:1}/mcp' } } }),
    );
    await editor.workbench.openMcpView();
  });

  closeEverythingAfterEach(() => editor);
  after(async () => editor?.stop());

  it('finds Claude Desktop, Cursor and Claude Code servers, imports the chosen ones with the secret kept out of settings, and says what it left out', async () => {
    const page = editor.workbench.page;
    await editor.workbench.runCommand('MCP Host: Import Servers…');
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.quick-input-list .monaco-list-row', { hasText: 'desk' }).waitFor({ timeout: 20_000 });
    const rows = await picker.locator('.quick-input-list .monaco-list-row').allTextContents();
    const text = rows.join('\n');
    assert.match(text, /Claude Desktop · .*claude_desktop_config\.json/);
    assert.match(text, /Cursor · \.cursor\/mcp\.json/);
    assert.match(text, /desk/);
    assert.match(text, /1 secret\(s\) go to the secret storage, not to settings/);
    assert.ok(!/homebound|remote/.test(text), 'servers that cannot be converted are not offered');
    await editor.workbench.screenshot('89-import-servers');
    await page.keyboard.press('Enter');
    const toast = page.locator('.notification-toast', {
      hasText: 'Imported 2 server(s) into "mcpHost.servers". 2 thing(s) could not be carried over.',
    });
    await toast.waitFor({ timeout: 20_000 });
    // The Cursor server is the workspace's: it starts after the usual consent.
    const consent = await editor.workbench.dialog();
    assert.match((await consent.textContent()) ?? '', /cur/);
    await consent.getByRole('button', { name: 'Allow' }).click();
    await toast.getByRole('button', { name: 'Show What Was Not Imported' }).click();
    const report = page.locator('.editor-instance .view-lines').first();
    await waitFor('the report', async () => ((await report.textContent()) ?? '').includes('homebound'), 10_000);
    const reported = ((await report.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(
      reported,
      /homebound: "args\[0\]" holds \$\{HOME\}, which MCP Host would read as a variable; the server was not imported/,
    );
    assert.match(
      reported,
      /remote: "url" uses \$\{BASE:-http:\/\/127\.0\.0\.1:1\}: MCP Host has no default values for variables; the server was not imported/,
    );
    // The Claude Desktop server went to the user settings, its token to the secret storage.
    const user = await editor.control<Record<string, { env?: Record<string, string> }>>('userSetting', {
      section: 'mcpHost.servers',
    });
    assert.deepEqual(user.desk.env, { DESK_API_TOKEN: '${input:desk.DESK_API_TOKEN}' });
    // It starts without asking for the token: the value is already in the secret storage.
    await editor.workbench.waitForServerDescription('desk', /^\d+ tools/, 60_000);
    assert.equal(await page.locator('.quick-input-widget input[type="password"]').isVisible(), false);
    await editor.workbench.waitForServerDescription('cur', /^\d+ tools/, 60_000);
    await editor.workbench.screenshot('90-imported-servers-running');
  });

  it("with readLive, runs a server of another host's file as it is, says where it comes from, and follows the file", async () => {
    const alpha = path.join(editor.root, 'alpha');
    const claudeCode = path.join(alpha, '.mcp.json');
    writeFileSync(
      claudeCode,
      JSON.stringify({
        mcpServers: {
          live: { command: process.execPath, args: [fixture, '--name', 'live'], env: { LIVE_TOKEN: 'tok-live' } },
        },
      }),
    );
    await editor.control('updateUserSetting', { section: 'mcpHost.otherHosts.readLive', value: true });
    // A folder's file is the workspace's: its server starts after the usual consent.
    const consent = await editor.workbench.dialog();
    assert.match((await consent.textContent()) ?? '', /live/);
    await consent.getByRole('button', { name: 'Allow' }).click();
    await editor.workbench.waitForServerDescription('live', /^from Claude Code · \d+ tools/, 60_000);
    // Its literal token is used as it is, not asked for; it never goes to settings.
    assert.equal(await editor.workbench.page.locator('.quick-input-widget input[type="password"]').isVisible(), false);
    assert.equal(
      JSON.stringify(await editor.control('userSetting', { section: 'mcpHost.servers' })).includes('tok-live'),
      false,
    );
    // Servers MCP Host has already (desk and cur, imported above) are not run twice.
    for (const id of ['desk', 'cur']) {
      assert.equal(await editor.workbench.serverRow(id).count(), 1);
      assert.doesNotMatch(await editor.workbench.serverDescription(id), /from /);
    }
    const hover = await editor.workbench.tooltip(editor.workbench.serverRow('live'), 'read live');
    assert.match(
      ((await hover.textContent()) ?? '').replace(/\s+/g, ' '),
      /Defined in: Claude Code: \.mcp\.json \(read live, treated as folder settings\)/,
    );
    await editor.workbench.screenshot('101-other-hosts-read-live');
    // The file changes: its server goes.
    writeFileSync(claudeCode, JSON.stringify({ mcpServers: {} }));
    await waitFor('the live server gone', async () => (await editor.workbench.serverRow('live').count()) === 0, 30_000);
    await editor.control('updateUserSetting', { section: 'mcpHost.otherHosts.readLive', value: undefined });
  });
});
