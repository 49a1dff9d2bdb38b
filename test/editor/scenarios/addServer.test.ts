// "MCP Host: Add Server…" in a real VS Code, as a new user would go through it: a package from
// npm (server-everything, run with npx -y as the entry says) and a URL (our HTTP fixture on
// loopback, first mistyped), each checked before anything is written, then running; and a server
// found in an MCP registry (the loopback registry fixture), filled in and running.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { EditorSession } from '../harness/editorSession';
import { startHttpFixture, waitFor, type RunningProcess } from '../../unit/support/fixtures';
import { startRegistryFixture, type RegistryFixture } from '../../fixtures/registry/registryFixture';

describe('Add Server in a real VS Code', function () {
  this.timeout(300_000);
  let editor: EditorSession;
  let http: RunningProcess;
  let registry: RegistryFixture;

  before(async () => {
    http = await startHttpFixture();
    // Five servers a page, so that a search needs "Load more".
    registry = await startRegistryFixture({ pageSize: 5 });
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      { trusted: true, userSettings: { 'mcpHost.registry.url': registry.url } },
    );
    await editor.workbench.openMcpView();
  });

  closeEverythingAfterEach(() => editor);
  after(async () => {
    await editor?.stop();
    await http?.stop();
    await registry?.close();
  });

  const page = () => editor.workbench.page;
  const input = () => page().locator('.quick-input-widget input');
  const message = () => page().locator('.quick-input-widget .quick-input-message');

  /** Types into the open input box and waits for the box to take it (its validation message). */
  async function type(text: string, expectMessage?: RegExp): Promise<void> {
    await input().fill(text);
    if (expectMessage) await message().filter({ hasText: expectMessage }).waitFor({ timeout: 10_000 });
  }

  it('adds an npm package: says what is wrong with a bad name, writes npx -y into user settings, opens it on the entry, and the server runs', async () => {
    // The welcome of an empty Servers view offers it.
    await editor.workbench.serversPane().getByRole('button', { name: 'Add a Server' }).click();
    await editor.workbench.pick('npm package');
    await type('Server Everything', /"Server Everything" is not an npm package name/);
    await editor.workbench.screenshot('91-add-server-npm-validation');
    await type('@modelcontextprotocol/server-everything');
    await page().keyboard.press('Enter');
    // Arguments: none; secrets: none; the id it suggests; user settings.
    await message().filter({ hasText: 'Arguments for the server after the package' }).waitFor();
    await page().keyboard.press('Enter');
    await message().filter({ hasText: 'Environment variables that hold secrets' }).waitFor();
    await page().keyboard.press('Enter');
    await message().filter({ hasText: "The server's id" }).waitFor();
    assert.equal(await input().inputValue(), 'everything');
    await page().keyboard.press('Enter');
    await editor.workbench.pick('User settings');
    let user: unknown;
    await waitFor(
      'the entry in user settings',
      async () => (user = await editor.control('userSetting', { section: 'mcpHost.servers' })) !== undefined,
      10_000,
    );
    assert.deepEqual(user, { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } });
    // The user's settings.json opens on the new entry.
    await waitFor(
      'settings.json open',
      async () =>
        /\/User\/settings\.json$/.test((await editor.control<{ uri: string } | undefined>('activeEditor'))?.uri ?? ''),
      20_000,
    );
    await page()
      .locator('.monaco-editor .view-lines', { hasText: '"everything": {' })
      .first()
      .waitFor({ timeout: 10_000 });
    await page()
      .locator('.notification-toast', {
        hasText: 'Added MCP server "everything" to your user settings. It starts now.',
      })
      .waitFor({ timeout: 10_000 });
    await editor.workbench.waitForServerDescription('everything', /^\d+ tools/, 180_000);
    await editor.workbench.screenshot('92-add-server-npm-running');
  });

  it('adds a URL: a wrong path is caught before anything is written, the right one goes to the workspace, and runs after consent', async () => {
    await editor.workbench.runCommand('MCP Host: Add Server…');
    await editor.workbench.pick('HTTP URL');
    const base = `http://127.0.0.1:${http.port}`;
    await type(`${base}/wrong`);
    await page().keyboard.press('Enter');
    const warning = await editor.workbench.dialog();
    assert.match(
      (await warning.textContent()) ?? '',
      new RegExp(`This URL does not look like an MCP server: no MCP endpoint at ${base}/wrong \\(HTTP 404\\)`),
    );
    await editor.workbench.screenshot('93-add-server-url-checked');
    await warning.getByRole('button', { name: 'Change the URL' }).click();
    await input().waitFor();
    assert.equal(await input().inputValue(), `${base}/wrong`);
    await type(`${base}/mcp`);
    await page().keyboard.press('Enter');
    await message()
      .filter({ hasText: `${base}/mcp answers as an MCP server` })
      .waitFor({ timeout: 20_000 });
    await page().keyboard.press('Enter');
    await message().filter({ hasText: "The server's id" }).waitFor();
    await type('remote');
    await page().keyboard.press('Enter');
    await editor.workbench.pick('Workspace settings');
    const consent = await editor.workbench.dialog();
    assert.match((await consent.textContent()) ?? '', /remote/);
    await consent.getByRole('button', { name: 'Allow' }).click();
    await editor.workbench.waitForServerDescription('remote', /^\d+ tools/, 60_000);
    const settings = JSON.parse(
      readFileSync(path.join(editor.root, 'alpha', '.vscode', 'settings.json'), 'utf8'),
    ) as Record<string, Record<string, unknown>>;
    assert.deepEqual(settings['mcpHost.servers'], { remote: { url: `${base}/mcp` } });
    await editor.workbench.screenshot('94-add-server-url-running');
  });

  it('finds a server in the MCP registry page after page, takes its version and fills its argument, and the server runs', async () => {
    await editor.workbench.runCommand('MCP Host: Add Server…');
    await editor.workbench.pick('Search the MCP Registry');
    const row = (text: string) =>
      page().locator('.quick-input-list .monaco-list-row').filter({ hasText: text, visible: true });
    await row('Filesystem').first().waitFor({ timeout: 20_000 });
    await input().fill('server');
    await waitFor('a search for "server"', () => registry.requests.some((r) => /search=server/.test(r)), 10_000);
    await row('Load more…').waitFor({ timeout: 10_000 });
    assert.equal(await row('foxtrot').count(), 0, 'the second page is not shown yet');
    await editor.workbench.screenshot('98-registry-search');
    await row('Load more…').click();
    await row('io.github.example/foxtrot-server').waitFor({ timeout: 10_000 });
    assert.ok(
      registry.requests.some((r) => /search=server&cursor=/.test(r)),
      registry.requests.join(' '),
    );
    assert.equal(await row('Load more…').count(), 0, 'no third page');
    await editor.workbench.pick('Filesystem', 'io.github.modelcontextprotocol/server-filesystem');
    // Two versions: the latest is marked; the older one is there too.
    await row('2026.1.14').waitFor({ timeout: 10_000 });
    await editor.workbench.pick('2026.8.31', 'latest');
    // Its one declared argument: required, a path, this workspace suggested.
    await message()
      .filter({ hasText: 'directory · argument · required — A directory the server may read and write' })
      .waitFor({ timeout: 10_000 });
    assert.equal(await input().inputValue(), '${workspaceFolder}');
    await editor.workbench.screenshot('99-registry-argument');
    await type('', /directory is required\./);
    await type('${workspaceFolder}');
    await page().keyboard.press('Enter');
    await message().filter({ hasText: "The server's id" }).waitFor();
    assert.equal(await input().inputValue(), 'filesystem');
    await page().keyboard.press('Enter');
    await editor.workbench.pick('User settings');
    let servers: Record<string, unknown> | undefined;
    await waitFor(
      'the entry in user settings',
      async () =>
        (servers = await editor.control<Record<string, unknown>>('userSetting', { section: 'mcpHost.servers' }))
          ?.filesystem !== undefined,
      10_000,
    );
    assert.deepEqual(servers!.filesystem, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '${workspaceFolder}'],
    });
    await editor.workbench.waitForServerDescription('filesystem', /^\d+ tools/, 180_000);
    // This VS Code opens settings.json over the view; close it to see the row.
    await editor.control('executeCommand', { command: 'workbench.action.closeActiveEditor' });
    await editor.workbench.serverRow('filesystem').waitFor({ state: 'visible' });
    await editor.workbench.screenshot('100-registry-server-running');
  });

  it('under chat.mcp.access "registry" runs only what Add Server installed from the registry, as written', async () => {
    await editor.control('updateUserSetting', { section: 'chat.mcp.access', value: 'registry' });
    // Added by hand (the npm package and the URL above): not from the registry.
    await editor.workbench.waitForServerDescription('everything', /blocked by your settings/, 30_000);
    await editor.workbench.waitForServerDescription('remote', /blocked by your settings/, 30_000);
    const listed = await editor.control<{ id: string; reason?: string }[]>('listServers');
    assert.match(
      listed.find((s) => s.id === 'everything')?.reason ?? '',
      /chat\.mcp\.access is "registry", and this server was not installed from the registry/,
    );
    assert.match(await editor.workbench.serverDescription('filesystem'), /^\d+ tools?\b/);
    await editor.workbench.screenshot('101-registry-access');
    // The registry's entry changed by hand is the registry's no more.
    const servers = await editor.control<Record<string, { args: string[] }>>('userSetting', {
      section: 'mcpHost.servers',
    });
    await editor.control('updateUserSetting', {
      section: 'mcpHost.servers',
      value: { ...servers, filesystem: { ...servers.filesystem, args: [...servers.filesystem.args, '/tmp'] } },
    });
    await editor.workbench.waitForServerDescription('filesystem', /blocked by your settings/, 30_000);
    await editor.control('updateUserSetting', { section: 'chat.mcp.access', value: undefined });
    await editor.workbench.waitForServerDescription('everything', /^\d+ tools?\b|^starts when needed/, 60_000);
    await editor.workbench.waitForServerDescription('remote', /^\d+ tools?\b|^starts when needed/, 60_000);
  });

  it('opens the walkthrough, whose first step starts Add Server', async () => {
    await editor.control('executeCommand', {
      command: 'workbench.action.openWalkthrough',
      args: ['mcp-host.mcp-host#gettingStarted', false],
    });
    const walkthrough = page().locator('.gettingStartedContainer');
    await walkthrough.getByText('Get Started with MCP Host').first().waitFor({ timeout: 30_000 });
    for (const step of ['Add a server', 'Run a tool', 'Use @mcp in chat', 'Browse resources'])
      await walkthrough
        .getByRole('button', { name: new RegExp(step) })
        .first()
        .waitFor();
    await editor.workbench.screenshot('95-walkthrough');
    await walkthrough.getByRole('button', { name: 'Add Server' }).click();
    await page().locator('.quick-input-widget input[placeholder="What kind of server?"]').waitFor({ timeout: 10_000 });
    await page().keyboard.press('Escape');
  });
});
