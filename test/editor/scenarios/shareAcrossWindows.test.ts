// Two windows of one real VS Code (two browser pages on two folders) that define the same user
// servers with "share": "machine" (our fixtures and server-memory from npm): one process serves
// both, stopping it in one window asks about the other, closing the window that runs it hands it
// to the other, a server that asked for roots is not shared between the two folders, a task started from the second window is followed in that
// window's Tasks view, and no process outlives the last window.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { EditorSession, OUT, REPO } from '../harness/editorSession';
import { tempDir } from '../../support/tempDir';
import type { Workbench } from '../harness/workbench';
import { waitFor } from '../../unit/support/fixtures';
import { isAlive } from '../../../src/core/process/processTree';
import type { McpServerInfo } from '../../../src/editor/publicApi';

describe('A server shared between two windows of a real VS Code', function () {
  this.timeout(900_000);
  let editor: EditorSession;
  let second: Workbench | undefined;
  const pids: number[] = [];

  const fixture = (name: string) => ({
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name, '--elicitation-tools', '--skills'],
    share: 'machine',
    autoApprove: ['pid', 'roots', 'ask'],
  });

  // A 2026-07-28 server whose tools run as tasks (the Tasks extension).
  const tasked = {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/modernStdio.js'), '--task-tools', '--task-poll-ms', '200'],
    share: 'machine',
    autoApprove: ['task-sleep'],
  };

  // A server nobody here wrote, from npm: its knowledge graph in a file of this test's.
  const memory = {
    command: process.execPath,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: path.join(tempDir('mcp-host-memory-'), 'memory.jsonl') },
    share: 'machine',
    autoApprove: ['read_graph'],
  };

  before(async () => {
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      {
        trusted: true,
        userSettings: { 'mcpHost.servers': { shared: fixture('shared'), rooted: fixture('rooted'), tasked, memory } },
      },
    );
    await editor.workbench.openMcpView();
    for (const id of ['shared', 'rooted', 'tasked', 'memory'])
      await editor.workbench.waitForServerDescription(id, /^\d+ tools/, 90_000);
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    await editor?.workbench
      .screenshot(`failed-share-first-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`)
      .catch(() => undefined);
    await second
      ?.screenshot(`failed-share-second-${this.currentTest.title.slice(0, 30).replace(/\W+/g, '-')}`)
      .catch(() => undefined);
  });

  after(async () => {
    await second?.close().catch(() => undefined);
    await editor?.stop();
    for (const pid of pids) assert.equal(isAlive(pid), false, `server process ${pid} outlived the windows`);
  });

  const servers = async () => {
    const all = await editor.control<McpServerInfo[]>('listServers');
    return Object.fromEntries(all.map((s) => [s.id, s]));
  };

  /** Runs a tool without parameters from the palette of `window` and returns what its result panel shows. */
  async function runFrom(window: Workbench, tool: string, server: string): Promise<string> {
    await window.runCommand('MCP Host: Run Tool…');
    await window.page.locator('.quick-input-widget input').fill(tool);
    await window.pick(tool, server);
    const result = await window.webview('#outcome');
    await result.locator('#outcome', { hasText: 'Succeeded' }).waitFor({ timeout: 60_000 });
    const text = ((await result.locator('#items').textContent()) ?? '').trim();
    await window.page.keyboard.press('Escape');
    await window.runCommand('View: Close All Editors');
    return text;
  }

  it("serves the second window from the first window's process, and a server that asked for roots only its own folder", async () => {
    // "rooted" asks for the first window's roots: from now on it is not shared with other folders.
    await editor.control('callTool', { serverId: 'rooted', name: 'roots', args: {} });
    const first = await servers();
    const sharedPid = first.shared.pid!;
    const rootedPid = first.rooted.pid!;
    pids.push(sharedPid, rootedPid);

    second = await editor.openWindow('beta');
    await second.openMcpView();
    assert.match(
      await second.waitForServerDescription('shared', /^runs in another window · \d+ tools/, 120_000),
      /runs in another window/,
    );
    // It gets the server's skills too, listed from the process the first window runs.
    await second.waitForServerDescription('shared', /· 2 skills$/, 30_000);
    await second.waitForServerDescription('rooted', /^not shared with other folders · \d+ tools/, 120_000);
    await editor.workbench.waitForServerDescription('shared', /^shared with 1 other window · \d+ tools/, 60_000);
    assert.match(await editor.workbench.serverDescription('rooted'), /^\d+ tools/);

    // The server from npm: the same tools in both windows, and a call from the second one answers.
    const memoryTools = (await editor.workbench.serverDescription('memory')).match(/(\d+) tools/)![1];
    await second.waitForServerDescription(
      'memory',
      new RegExp(`^runs in another window · ${memoryTools} tools`),
      60_000,
    );
    assert.match(await runFrom(second, 'read_graph', 'memory'), /"entities":\s*\[\]/);
    assert.ok(first.memory.pid, 'the first window runs server-memory');
    pids.push(first.memory.pid);
    // The pid each server answers with, asked from the second window's Run Tool.
    assert.equal(await runFrom(second, 'pid', 'shared'), String(sharedPid), 'one process serves both windows');
    const ownRooted = Number(await runFrom(second, 'pid', 'rooted'));
    assert.ok(ownRooted > 0 && ownRooted !== rootedPid, 'a server that asked for roots runs apart for other folders');
    pids.push(ownRooted);
    const roots = await runFrom(second, 'roots', 'rooted');
    assert.match(roots, /\/beta"/, `its own process sees its own folder, not ${roots}`);
    const tooltip = await second.tooltip(
      second.page.locator('.monaco-list-row', { hasText: 'shared' }).first(),
      'another window runs it',
    );
    // The tooltip's Markdown keeps its spaces as no-break spaces.
    assert.match(
      (await tooltip.textContent()) ?? '',
      new RegExp(`another\\swindow\\sruns\\sit\\s\\(pid\\s${sharedPid}\\)`),
    );
    await second.page.mouse.move(0, 0);
    await second.widenSideBar(560);
    await editor.workbench.widenSideBar(560);
    await second.screenshot('122-shared-second-window');
    await editor.workbench.screenshot('123-shared-first-window');
  });

  it("shows what the server asks during the second window's call in the second window", async () => {
    const window = second!;
    await window.runCommand('MCP Host: Run Tool…');
    await window.page.locator('.quick-input-widget input').fill('ask');
    await window.pick('ask', 'shared');
    await (await window.webview('#submit')).locator('#submit').click();
    // The server's form (elicitation/create) opens in the window whose call it is.
    const form = await window.webview('#decline', 60_000);
    await window.screenshot('125-shared-elicitation-in-its-window');
    await form.locator('#decline').click();
    const result = await window.webview('#outcome');
    await result.locator('#items', { hasText: '"action":"decline"' }).waitFor({ timeout: 60_000 });
    await window.page.keyboard.press('Escape');
    await window.runCommand('View: Close All Editors');
  });

  /** The MCP Tasks view of `window`, opened. */
  async function tasksPane(window: Workbench) {
    const pane = window.page
      .locator('.pane')
      .filter({ has: window.page.locator('.pane-header', { hasText: 'MCP Tasks' }) });
    const header = pane.locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await pane.locator('.pane-header[aria-expanded="true"]').waitFor({ timeout: 10_000 });
    return pane;
  }

  it("follows a task started from the second window in that window's Tasks view", async () => {
    const window = second!;
    await window.waitForServerDescription('tasked', /^runs in another window · \d+ tools/, 60_000);
    pids.push((await servers()).tasked.pid!);
    const ownersTasks = await tasksPane(editor.workbench);
    const tasks = await tasksPane(window);
    await window.runCommand('MCP Host: Run Tool…');
    await window.page.locator('.quick-input-widget input').fill('task-sleep');
    await window.pick('task-sleep', 'tasked');
    const form = await window.webview('#field_ms');
    await form.locator('#field_ms input').fill('4000');
    await form.locator('#submit').click();
    const row = (pattern: RegExp) => tasks.locator('.monaco-list-row').filter({ hasText: pattern }).first();
    await row(/task-sleep.*tasked · working · \d+ of 4000 ms/).waitFor({ timeout: 60_000 });
    await window.screenshot('127-shared-task-in-second-window');
    await row(/task-sleep.*tasked · completed/).waitFor({ timeout: 60_000 });
    const result = await window.webview('#outcome');
    await result.locator('#items', { hasText: 'slept 4000 ms' }).waitFor({ timeout: 60_000 });
    // The window that runs the process did not follow it: the task is the second window's.
    assert.equal(await ownersTasks.locator('.monaco-list-row', { hasText: 'task-sleep' }).count(), 0);
    await window.page.keyboard.press('Escape');
    await window.runCommand('View: Close All Editors');
  });

  it('asks whether to stop it in every window, and stopped in one window it keeps running for the other', async () => {
    const window = second!;
    await window.runCommand('MCP Host: Stop Server');
    await window.pick('shared');
    const dialog = await window.dialog();
    assert.match(
      (await dialog.textContent()) ?? '',
      /MCP server "shared" is shared with 1 other window\. Stop it there too\?/,
    );
    await window.screenshot('124-stop-shared-asks');
    await dialog.getByRole('button', { name: 'Stop in This Window', exact: true }).click();
    await window.waitForServerDescription('shared', /^stopped$/, 60_000);
    await editor.workbench.waitForServerDescription('shared', /^\d+ tools/, 60_000);
    assert.equal((await servers()).shared.pid, pids[0], 'the first window still runs the same process');

    await window.runCommand('MCP Host: Start Server');
    await window.pick('shared');
    await window.waitForServerDescription('shared', /^runs in another window/, 60_000);
  });

  it('hands the process to the second window when the first one closes', async () => {
    const firstHost = await editor.control<number>('extensionHostPid');
    await editor.workbench.closeWindow();
    await waitFor("the first window's extension host to end", () => !isAlive(firstHost), 120_000);
    await waitFor("the first window's shared process to end", () => !isAlive(pids[0]), 30_000);
    const window = second!;
    await window.waitForServerDescription('shared', /^\d+ tools/, 120_000);
    // The second window's extension host now answers the control channel the first one held.
    assert.notEqual(await editor.control<number>('extensionHostPid', {}, 120_000), firstHost);
    const now = await servers();
    assert.equal(now.shared.share?.role, 'owner');
    const taken = now.shared.pid!;
    pids.push(taken);
    assert.ok(isAlive(taken) && taken !== pids[0]);
    const answer = await editor.control<{ content: { text?: string }[] }>('callTool', {
      serverId: 'shared',
      name: 'pid',
      args: {},
    });
    assert.equal(answer.content[0].text, String(taken), 'the second window calls the process it runs now');
    await window.screenshot('126-shared-taken-over');
  });
});
