// Servers that start when needed in a real VS Code ("mcpHost.autoStart": "onDemand" for entries
// that do not say): not started with the window (the view says it starts when needed), started by
// the first @mcp request, which waits for its tools; an entry's own "autoStart" still wins. In
// the next window its tools and prompts are known from that run: shown and offered without
// starting it, and the model's call, a Run Tool pick or a prompt asked in chat starts it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { CODE_CACHE_DIR, EditorSession, OUT } from '../harness/editorSession';
import { waitFor } from '../../unit/support/fixtures';
import type { McpServerInfo } from '../../../src/editor/publicApi';

interface RecordedRequest {
  texts: string[];
  tools: string[];
}

const LAZY_INSTRUCTIONS = 'Echo the text back before anything else.';
/** While this file exists, lazy's process answers nothing (its start is held). */
const holdLazy = path.join(os.tmpdir(), `mcp-host-hold-lazy-${process.pid}`);

/**
 * VS Code's chat starts the MCP servers whose tools it has not cached before each request, and
 * waits for them (with a Skip button): MCP Host's servers are published to it, so it would start
 * them too. This file is about MCP Host's own starts; VS Code's are the agents scenario's.
 */
const NO_AUTOSTART_IN_VS_CODE = { 'chat.mcp.autostart': 'never' };

describe('A server that starts when needed, in a real VS Code', function () {
  this.timeout(180_000);
  let editor: EditorSession;

  before(async () => {
    const fixture = (name: string) => ({
      command: process.execPath,
      args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name],
    });
    const lazy = fixture('lazy');
    const servers = {
      lazy: {
        ...lazy,
        args: [...lazy.args, '--instructions', LAZY_INSTRUCTIONS, '--hold-start-while', holdLazy],
        autoApprove: ['echo'],
      },
      eager: { ...fixture('eager'), autoStart: 'startup' },
    };
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      {
        trusted: true,
        userSettings: {
          'mcpHost.servers': servers,
          'mcpHost.autoStart': 'onDemand',
          // What a window does before anything needs a server; learning in the background is learnInBackground.test.ts.
          'mcpHost.learnInBackground': false,
          'chat.disableAIFeatures': false,
          ...NO_AUTOSTART_IN_VS_CODE,
        },
      },
    );
    await editor.workbench.openMcpView();
  });

  closeEverythingAfterEach(() => editor);

  /** A reloaded window, where lazy waits with the tools and prompt of its last run; the row's text. */
  async function reloadUntilLazyWaits(): Promise<string> {
    await editor.reloadWindow();
    await editor.workbench.openMcpView();
    // It knows the lists of its last run (they are under its row); the row keeps to its state.
    await waitFor(
      'lazy to wait with the lists of its last run',
      async () =>
        (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')?.fromLastRun || undefined,
      30_000,
    );
    return editor.workbench.waitForServerDescription('lazy', /^starts when needed$/, 30_000);
  }

  after(async () => {
    rmSync(holdLazy, { force: true });
    await editor?.stop();
  });

  it('shows "starts when needed" without starting it, and the first @mcp request starts it and offers its tools', async () => {
    assert.equal(
      await editor.workbench.waitForServerDescription('lazy', /^starts when needed$/, 30_000),
      'starts when needed',
    );
    await editor.workbench.waitForServerDescription('eager', /^\d+ tools/, 30_000);
    const before = (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!;
    assert.deepEqual([before.status, before.pid], ['stopped', undefined]);
    await editor.workbench.screenshot('102-starts-when-needed');
    // The status bar's summary says the same, not "stopped".
    const summary = await editor.workbench.tooltip(
      editor.workbench.page.locator('.statusbar-item', { hasText: 'MCP 2 ready · 1 running' }).first(),
      'lazy:',
    );
    assert.match((await summary.textContent()) ?? '', /lazy:\s+starts\s+when\s+needed/);
    assert.deepEqual(await editor.control('chatModels'), ['fixture-model'], 'the stand-in chat model is ready');
    await editor.workbench.openChat();
    const seenBefore = (await editor.control<RecordedRequest[]>('modelRequests')).length;
    await editor.workbench.sendChat('@mcp what can you do?');
    await editor.workbench.lastChatResponse(/Model saw: [\s\S]*what can you do\?/, 90_000);
    const [seen] = (await editor.control<RecordedRequest[]>('modelRequests')).slice(seenBefore);
    assert.ok(
      seen.tools.includes('lazy_echo'),
      `the model was offered the started server's tools: ${seen.tools.join(', ')}`,
    );
    await editor.workbench.waitForServerDescription('lazy', /^\d+ tools/, 10_000);
  });

  it("after a reload, shows the tools of its last run without starting it; @mcp offers them and the model's call starts it", async () => {
    const description = await reloadUntilLazyWaits();
    const waiting = (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!;
    assert.deepEqual([waiting.status, waiting.pid], ['stopped', undefined], description);
    // The counts fit the side bar's default width; the tooltip says where they come from.
    assert.ok(await editor.workbench.serverRowFits('lazy'), `the row is cut: "lazy ${description}"`);
    await editor.workbench.tooltip(editor.workbench.serverRow('lazy'), 'from its last run');
    await editor.workbench.page.mouse.move(0, 0);
    // Its tools are there to look at (and to switch off for models) before it runs.
    await editor.workbench.serverRow('lazy').locator('.monaco-tl-twistie').click();
    await editor.workbench
      .serversPane()
      .locator('.monaco-list-row', { hasText: /^Tools \(\d+\)/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await editor.workbench.screenshot('103-tools-from-last-run');
    // VS Code's MCP connects to it through MCP Host's gateway and lists its tools from its last run, and the server still waits.
    // The reloaded window's VS Code learns MCP Host's servers once MCP Host has activated: until then the id is unknown to it.
    let agentTools: string[] = [];
    await waitFor(
      "VS Code's agents to have lazy's echo",
      async () => {
        await editor.control(
          'executeCommand',
          {
            command: 'workbench.mcp.startServer',
            args: ['mcp-host.mcp-host/lazy', { waitForLiveTools: true }],
          },
          60_000,
        );
        agentTools = await editor.control<string[]>('lmTools');
        return agentTools.some((t) => /lazy.*_echo$/.test(t));
      },
      60_000,
    ).catch((error: Error) => assert.fail(`${error.message}: ${agentTools.join(', ')}`));
    assert.equal(
      (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
      'stopped',
    );
    await editor.workbench.openChat();
    const seenBefore = (await editor.control<RecordedRequest[]>('modelRequests')).length;
    await editor.workbench.sendChat('@mcp use lazy_echo {"text":"known before it started"}');
    await editor.workbench.lastChatResponse(/Tool results: known before it started/, 90_000);
    const [seen] = (await editor.control<RecordedRequest[]>('modelRequests')).slice(seenBefore);
    assert.ok(seen.tools.includes('lazy_echo'), `offered from its last run: ${seen.tools.join(', ')}`);
    assert.ok(
      seen.texts.some((t) => t.endsWith(`\n${LAZY_INSTRUCTIONS}`)),
      `its instructions of its last run came with its tools: ${seen.texts.join(' / ')}`,
    );
    await editor.workbench.waitForServerDescription('lazy', /^\d+ tools/, 10_000);
  });

  it('lists the tools of its last run in Run Tool without starting it, and opens the form at once while it starts; the call waits for it', async () => {
    const page = editor.workbench.page;
    await reloadUntilLazyWaits();
    // Its start is held until the form is filled: the form must not wait for it.
    writeFileSync(holdLazy, 'held');
    try {
      await editor.workbench.runCommand('MCP Host: Run Tool…');
      await page.locator('.quick-input-widget input').fill('echo');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'lazy' })
        .first()
        .waitFor({ timeout: 10_000 });
      assert.equal(
        (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
        'stopped',
        'listing its tools started nothing',
      );
      await editor.workbench.pick('echo', 'lazy');
      const form = await editor.workbench.webview('#field_text');
      assert.equal(
        (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
        'starting',
        'its form opened while it starts',
      );
      await form.locator('#field_text input').fill('picked from its last run');
      await form.locator('#submit').click();
    } finally {
      rmSync(holdLazy, { force: true });
    }
    const result = await editor.workbench.webview('#outcome');
    await result.locator('#items', { hasText: 'picked from its last run' }).waitFor({ timeout: 30_000 });
  });

  it('lists the prompt of its last run in @mcp /prompts without starting it, and /lazy.greet starts it and hands the prompt to the model', async () => {
    await reloadUntilLazyWaits();
    await editor.workbench.openChat();
    await editor.workbench.sendChat('@mcp /prompts');
    await editor.workbench.lastChatResponse(/\/lazy\.greet — Greets someone\./, 30_000);
    assert.equal(
      (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
      'stopped',
      'listing its prompts started nothing',
    );
    const seenBefore = (await editor.control<RecordedRequest[]>('modelRequests')).length;
    await editor.workbench.sendChat('@mcp /lazy.greet who=Ada');
    const response = await editor.workbench.lastChatResponse(/Model saw: [\s\S]*Say hello to Ada\./, 90_000);
    assert.match(response, /Prompt greet from lazy: 1 message\(s\)\./);
    const [seen] = (await editor.control<RecordedRequest[]>('modelRequests')).slice(seenBefore);
    assert.ok(
      seen.texts.some((t) => t === 'Say hello to Ada.'),
      `the prompt's message reached the model: ${seen.texts.join(' / ')}`,
    );
    await editor.workbench.waitForServerDescription('lazy', /^\d+ tools · 1 prompt/, 10_000);
  });

  it('lists it in the Resources view from its last run without starting it, and expanding it there starts it and lists its resources', async () => {
    await reloadUntilLazyWaits();
    const page = editor.workbench.page;
    await editor.control('executeCommand', { command: 'mcpHost.resources.focus' });
    // The Servers view folded, for room.
    const serversHeader = editor.workbench.serversPane().locator('.pane-header');
    if ((await serversHeader.getAttribute('aria-expanded')) === 'true') await serversHeader.click();
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'MCP Resources' }) });
    const lazyRow = view
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^lazy$/ }) });
    await lazyRow.locator('.label-description', { hasText: /^starts when needed$/ }).waitFor({ timeout: 10_000 });
    // The server beside it starts with the window: once it lists its resources the view is redrawn,
    // and a click during that redraw lands on whichever row is drawn there. Wait for it first.
    await view
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^eager$/ }) })
      .locator('.label-description', { hasText: /resource/ })
      .waitFor({ timeout: 30_000 });
    assert.equal(
      (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
      'stopped',
      'listing it started nothing',
    );
    await editor.workbench.screenshot('105-resources-starts-when-needed');
    await lazyRow.click();
    await view.locator('.monaco-list-row', { hasText: 'fixture://readme' }).first().waitFor({ timeout: 30_000 });
    assert.equal(await lazyRow.getAttribute('aria-expanded'), 'true', 'its row stayed open while it started');
    assert.equal(
      (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
      'running',
    );
    await serversHeader.click();
  });

  it('starts it for Find Resource, which then lists its resources', async () => {
    await reloadUntilLazyWaits();
    const page = editor.workbench.page;
    await editor.workbench.runCommand('MCP Host: Find Resource…');
    await page.locator('.quick-input-widget input').fill('readme');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'lazy' }).first().waitFor({ timeout: 30_000 });
    assert.equal(
      (await editor.control<McpServerInfo[]>('listServers')).find((s) => s.id === 'lazy')!.status,
      'running',
    );
    await page.keyboard.press('Escape');
  });

  /** Reloads the window; reads the MCP Host log of the new window's extension host once it has activated. */
  async function reloadForHostLog(): Promise<() => string> {
    const userData = editor.codeServer.userDataDir;
    // Each window's extension host logs to a folder of its own (logs/<session>/exthostN).
    const hostLogs = () =>
      readdirSync(path.join(userData, 'logs')).flatMap((session) =>
        readdirSync(path.join(userData, 'logs', session))
          .filter((name) => /^exthost\d+$/.test(name))
          .map((host) => path.join(userData, 'logs', session, host, 'mcp-host.mcp-host', 'MCP Host.log')),
      );
    const before = new Set(hostLogs());
    await editor.reloadWindow();
    const hostLog = () => {
      const file = hostLogs().find((log) => !before.has(log) && existsSync(log));
      return file ? readFileSync(file, 'utf8') : '';
    };
    await waitFor("the reloaded window's activation", () => /activated in/.test(hostLog()), 30_000);
    return hostLog;
  }

  it('loads its code from the code cache an earlier window wrote, and says so in its log', async () => {
    const cacheDir = path.join(editor.codeServer.userDataDir, CODE_CACHE_DIR);
    await waitFor(
      'the code cache',
      () => existsSync(cacheDir) && readdirSync(cacheDir).some((name) => /^main\.js-[0-9a-f]{16}\.v8cache$/.test(name)),
      30_000,
    );
    const hostLog = await reloadForHostLog();
    assert.match(
      hostLog(),
      /MCP Host [\d.]+ activated in [\d.]+ ms\. Its code loaded in [\d.]+ ms, from the code cache\./,
    );
  });

  it('loads the MCP client library only when a server first starts, not with a window whose servers wait', async () => {
    const servers = await editor.control<Record<string, Record<string, unknown>>>('userSetting', {
      section: 'mcpHost.servers',
    });
    await editor.control('updateUserSetting', {
      section: 'mcpHost.servers',
      value: { ...servers, eager: { ...servers.eager, autoStart: 'onDemand' } },
    });
    const hostLog = await reloadForHostLog();
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('lazy', /^starts when needed$/, 30_000);
    await editor.workbench.waitForServerDescription('eager', /^starts when needed/, 30_000);
    // Its tools from the last run, listed under it: each is looked at for an app it may have.
    await editor.workbench.expandServerTools('lazy');
    await editor.workbench.page.locator('.pane .monaco-list-row .label-name', { hasText: /^echo$/ }).waitFor();
    assert.doesNotMatch(
      hostLog(),
      /Loaded the (MCP client library|bundle of the libraries)/,
      'a window whose servers all wait loads neither the client library nor the bundle it is in',
    );
    const result = await editor.control<{ content: { text: string }[] }>('callTool', {
      serverId: 'lazy',
      name: 'echo',
      args: { text: 'first use' },
    });
    assert.match(result.content[0].text, /first use/);
    const loadedOnFirstUse =
      /Loaded the bundle of the libraries loaded on first use \(dist\/libraries\.js\) in [\d.]+ ms, (from the code cache|parsed; the code cache is written for the next window)\.\n.*Loaded the MCP client library in [\d.]+ ms \(on its first use\)\./;
    // The editor writes an output channel's log file after the line is logged.
    await waitFor("the library's load in the MCP Host log", () => loadedOnFirstUse.test(hostLog()), 10_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}. The log:\n${hostLog()}`);
      },
    );
    // The libraries' bundle has a code cache of its own, written once a window has used it.
    const cacheDir = path.join(editor.codeServer.userDataDir, CODE_CACHE_DIR);
    await waitFor(
      "the libraries' code cache",
      () => readdirSync(cacheDir).some((name) => /^libraries\.js-[0-9a-f]{16}\.v8cache$/.test(name)),
      30_000,
    );
    await editor.workbench.waitForServerDescription('lazy', /^\d+ tools/, 10_000);
    // The MCP Apps host bridge builds the extension's schemas when it loads: not for servers without apps.
    assert.doesNotMatch(
      hostLog(),
      /Loaded the MCP Apps host bridge/,
      'neither a start nor a list of tools without apps loads the MCP Apps host bridge',
    );
    // Nor are the HTTP client's and the form validator's bundles loaded for a stdio server's tool call.
    assert.doesNotMatch(
      hostLog(),
      /dist\/libraries-(undici|ajv)\.js/,
      "a stdio server's first use loads the MCP libraries' bundle alone",
    );
    // Where a user reads it: the MCP Host output.
    await editor.workbench.runCommand('Output: Show Output Channels...');
    await editor.workbench.pick('MCP Host');
    // The output's editor renders spaces as no-break spaces.
    await editor.workbench.page
      .locator('.view-line', { hasText: /Loaded\sthe\sMCP\sclient\slibrary\sin/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await editor.workbench.screenshot('104-client-library-on-first-use');
  });

  it("keeps a failed server's check box in line with the others' once a server beside it gets tools", async () => {
    // While no row has children, VS Code draws the rows without a twistie's space; beside a row
    // with a twistie, a row keeps that space so that the check boxes line up. It works that out
    // only when it draws the row.
    await editor.control('updateUserSetting', {
      section: 'mcpHost.servers',
      value: {
        waits: {
          command: process.execPath,
          args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', 'waits'],
        },
        fails: {
          command: process.execPath,
          args: ['-e', 'process.exit(1)'],
          autoStart: 'startup',
          restart: { enabled: false },
        },
      },
    });
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('fails', /^error: /, 30_000);
    await editor.workbench.waitForServerDescription('waits', /^starts when needed$/, 30_000);
    // A row being drawn again has no box for a moment: its check box is read once it is on screen.
    const checkboxAt = (id: string) =>
      waitFor(
        `the check box of ${id}'s row on screen`,
        async () =>
          (
            await editor.workbench
              .serverRow(id)
              .locator('.custom-view-tree-node-item-checkbox')
              .boundingBox({ timeout: 1_000 })
          )?.x,
        10_000,
      );
    const flush = await checkboxAt('fails');
    assert.equal(await checkboxAt('waits'), flush, 'no row has children: the check boxes line up');
    await editor.control('hostStart', { ids: ['waits'] }, 60_000);
    await editor.workbench.waitForServerDescription('waits', /^\d+ tools/, 30_000);
    const besideTwistie = await waitFor(
      "the running row's check box after its twistie",
      async () => ((await checkboxAt('waits')) > flush ? checkboxAt('waits') : undefined),
      10_000,
    );
    await waitFor(
      "the failed row's check box in line with it",
      async () => (await checkboxAt('fails')) === besideTwistie,
      10_000,
    ).catch(async (error: Error) => {
      throw new Error(
        `${error.message}: the failed row's check box at x=${await checkboxAt('fails')}, the running row's at x=${besideTwistie}`,
      );
    });
  });

  it('says what to do in an empty Resources view, and its Find Resource button starts a server that has not run yet', async () => {
    const page = editor.workbench.page;
    await editor.control('updateUserSetting', {
      section: 'mcpHost.servers',
      value: {
        fresh: {
          command: process.execPath,
          args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', 'fresh'],
        },
      },
    });
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('fresh', /^starts when needed$/, 30_000);
    await editor.control('executeCommand', { command: 'mcpHost.resources.focus' });
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'MCP Resources' }) });
    const welcome = view.locator('.welcome-view-content', { hasText: 'No running MCP server offers resources.' });
    await welcome.waitFor({ timeout: 10_000 });
    await editor.workbench.screenshot('106-resources-view-empty');
    // The view's title bar has a Find Resource action too (shown while the pointer is over it); this is the welcome's button.
    await view.locator('.pane-header').hover();
    await welcome.getByRole('button', { name: 'Find Resource…' }).click();
    await page.locator('.quick-input-widget input').fill('readme');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'fresh' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await view
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^fresh$/ }) })
      .waitFor({ timeout: 10_000 });
  });

  it('starts a crowd of servers a few at a time; those waiting say so in their rows and tooltips, one a model needs goes at once, @mcp waits for them, and all of them run', async function () {
    this.timeout(300_000);
    // A start keeps its turn until its server has its lists, and at most 1 s: the crowd's turns come
    // on that clock. Most of the crowd are held before they load anything (a shell that waits while
    // a file exists): each keeps its turn the whole second, the machine stays idle while the test
    // looks at the queue, and the last one's turn is about half a minute away. The first is quick
    // (when it gets tools every row is drawn again, which would take a tooltip away), and so is the
    // one before last: another agent needs it while it waits. Those held start for real once the
    // test lets them, and the last only after the @mcp request is sent.
    const holds = {
      crowd: path.join(os.tmpdir(), `mcp-host-hold-crowd-${process.pid}`),
      last: path.join(os.tmpdir(), `mcp-host-hold-crowd-last-${process.pid}`),
    };
    writeFileSync(holds.crowd, 'held');
    writeFileSync(holds.last, 'held');
    try {
      await crowdScenario(holds);
    } finally {
      rmSync(holds.crowd, { force: true });
      rmSync(holds.last, { force: true });
      // The next test starts from no servers, not from a crowd still stopping.
      await editor.control('updateUserSetting', { section: 'mcpHost.servers', value: {} });
      await waitFor(
        'the crowd removed',
        async () => (await editor.control<McpServerInfo[]>('listServers')).length === 0,
        60_000,
      );
    }
  });

  /** The crowd scenario; its held servers wait while the files `holds` names exist. */
  async function crowdScenario(holds: { readonly crowd: string; readonly last: string }): Promise<void> {
    const fixture = path.join(OUT, 'test/fixtures/servers/legacyStdio.js');
    const quick = { command: process.execPath, args: [fixture], autoStart: 'startup', autoApprove: ['echo'] };
    // A shell that waits while the file exists costs next to nothing, so a long queue of them leaves the machine idle.
    const heldWhile = (hold: string) => ({
      ...quick,
      command: 'sh',
      args: ['-c', 'while [ -e "$1" ]; do sleep 1; done; exec "$2" "$3"', 'held', hold, process.execPath, fixture],
      startTimeoutMs: 180_000,
    });
    const held = heldWhile(holds.crowd);
    const ids = Array.from({ length: 96 }, (_, i) => `crowd-${String(i + 1).padStart(2, '0')}`);
    const needed = ids[ids.length - 2];
    const last = ids[ids.length - 1];
    await editor.control('updateUserSetting', {
      section: 'mcpHost.servers',
      value: Object.fromEntries(
        ids.map((id, i) => [id, i === 0 || id === needed ? quick : id === last ? heldWhile(holds.last) : held]),
      ),
    });
    await editor.workbench.openMcpView();
    await editor.workbench.serverRow(ids[0]).waitFor({ timeout: 20_000 });
    // Those first in the queue start (a spinner), and stay starting while they are held.
    const shown = editor.workbench.serversPane().locator('.monaco-list-row .label-description');
    await waitFor('a row starting', async () => (await shown.allTextContents()).includes('starting'), 20_000);
    // The last rows are below the view's fold: the keyboard takes the list there, as a user would scroll.
    await editor.control('executeCommand', { command: 'mcpHost.servers.focus' });
    await editor.workbench.page.keyboard.press('End');
    assert.equal(
      await editor.workbench.waitForServerDescription(last, /^waiting to start$/, 20_000),
      'waiting to start',
    );
    assert.equal(
      await editor.workbench.serverRow(last).locator('.custom-view-tree-node-item-icon.codicon-watch').count(),
      1,
      'a waiting server shows a watch, not the spinner of a start under way',
    );
    // Another agent calls a tool of a server still waiting for its turn: it starts before its turn and answers.
    assert.equal(await editor.workbench.serverDescription(needed), 'waiting to start');
    const answer = await editor.control<string>('invokeLmTool', {
      name: 'mcpHost_callTool',
      input: { server: needed, tool: 'echo', arguments: { text: 'needed now' } },
    });
    assert.equal(answer, 'needed now');
    // Hover a server that still waits as the extension says, from the last up (those are in view): on
    // a busy machine the one picked may get its turn before the hover, and the next one is tried.
    let tooltip: import('playwright-core').Locator | undefined;
    for (let tries = 0; !tooltip && tries < 6; tries++) {
      const stillWaiting = (await editor.control<McpServerInfo[]>('listServers'))
        .filter((s) => ids.includes(s.id) && s.waitingForTurn)
        .map((s) => s.id);
      const candidate = stillWaiting[stillWaiting.length - 1];
      if (!candidate) break;
      tooltip = await editor.workbench
        .tooltip(editor.workbench.serverRow(candidate), 'waiting for its turn', 6_000)
        .catch(() => undefined);
    }
    assert.ok(tooltip, "a waiting server's tooltip says it waits for its turn");
    // The hover renders some spaces as no-break spaces.
    assert.match(
      (await tooltip.textContent()) ?? '',
      /—\swaiting\sto\sstart\s*Reason:\swaiting\sfor\sits\sturn\sto\sstart:\s\d+\sservers\sstart\sat\sonce\son\sthis\smachine/,
    );
    await editor.workbench.screenshot('107-servers-waiting-to-start');
    // The crowd starts for real: each takes its lists once it runs.
    rmSync(holds.crowd);
    await waitFor(
      'every server of the crowd but the last running',
      async () =>
        (await editor.control<McpServerInfo[]>('listServers')).filter(
          (s) => ids.includes(s.id) && s.id !== last && s.status === 'running',
        ).length ===
        ids.length - 1,
      150_000,
    );
    // An @mcp request meanwhile waits for the servers still starting: it counts the tools of all of
    // them (more than a request takes, so the model searches them).
    const notYet = (await editor.control<McpServerInfo[]>('listServers'))
      .filter((s) => ids.includes(s.id) && s.status !== 'running')
      .map((s) => s.id);
    assert.deepEqual(notYet, [last], 'the last server is still starting as the request is sent');
    assert.deepEqual(await editor.control('chatModels'), ['fixture-model'], 'the stand-in chat model is ready');
    await editor.workbench.openChat();
    await editor.workbench.sendChat('@mcp what can the crowd do?');
    rmSync(holds.last);
    const response = await editor.workbench.lastChatResponse(/Model saw: [\s\S]*what can the crowd do\?/, 90_000);
    const servers = await editor.control<McpServerInfo[]>('listServers');
    assert.deepEqual(
      ids.filter((id) => servers.find((s) => s.id === id)?.status !== 'running'),
      [],
      'all of them run once the request has been answered',
    );
    const total = servers.filter((s) => ids.includes(s.id)).reduce((sum, s) => sum + s.toolCount, 0);
    assert.match(
      response,
      new RegExp(`${total} MCP tools are on`),
      'the request counted the tools of every server, the last of them still starting as it was sent',
    );
    assert.doesNotMatch(response, /Still starting/);
    await editor.workbench.waitForServerDescription(last, /^\d+ tools/, 10_000);
    // The status bar and the rows tell the same story: once it counts every server running, no row
    // says otherwise (VS Code draws a tree's changed rows a moment after the status bar).
    const all = `MCP ${ids.length} running`;
    await waitFor(
      `"${all}" in the status bar`,
      async () => (await editor.workbench.statusBarText('MCP ')) === all,
      30_000,
    );
    await waitFor(
      'every row on screen running',
      async () => {
        const descriptions = await shown.allTextContents();
        return descriptions.length > 0 && descriptions.every((text) => /^\d+ tools?\b/.test(text));
      },
      5_000,
    ).catch(async (error: Error) => {
      throw new Error(
        `${error.message} while the status bar says ${all}: ${(await shown.allTextContents()).join(' | ')}`,
      );
    });
  }

  it('answers an @mcp request without a server that is still starting after 15 s, and says so', async () => {
    const mute = {
      command: process.execPath,
      args: [path.join(OUT, 'test/fixtures/servers/silentStdio.js')],
      autoStart: 'startup',
      startTimeoutMs: 120_000,
    };
    await editor.control('updateUserSetting', { section: 'mcpHost.servers', value: { mute } });
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('mute', /^starting$/, 20_000);
    assert.deepEqual(await editor.control('chatModels'), ['fixture-model'], 'the stand-in chat model is ready');
    await editor.workbench.openChat();
    await editor.workbench.sendChat('@mcp anyone there?');
    const response = await editor.workbench.lastChatResponse(/Model saw: [\s\S]*anyone there\?/, 60_000);
    assert.match(response, /Still starting, so their tools are not offered to this request: mute\./);
    assert.equal(await editor.workbench.serverDescription('mute'), 'starting', 'the server goes on starting');
    await editor.workbench.screenshot('108-chat-without-a-starting-server');
    await editor.control('updateUserSetting', { section: 'mcpHost.servers', value: {} });
  });
});
