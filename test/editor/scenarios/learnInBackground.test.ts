// The default in a real VS Code (no "mcpHost.autoStart"): servers wait for their first use, and
// one that has not run yet starts once in the background when the window is idle, to learn its
// lists, then stops; its row then shows what it offers, and its first call starts it for good.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { closeEverythingAfterEach } from '../harness/scenarioEditor';
import { EditorSession, OUT } from '../harness/editorSession';
import { waitFor } from '../../unit/support/fixtures';
import type { McpServerInfo } from '../../../src/editor/publicApi';

describe('By default, servers start at their first use and learn their lists in the background, in a real VS Code', function () {
  this.timeout(600_000);
  let editor: EditorSession;
  const ids = ['first', 'second'];

  before(async () => {
    const fixture = (name: string) => ({
      command: process.execPath,
      args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name],
      autoApprove: ['echo'],
    });
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {} },
      {
        trusted: true,
        userSettings: {
          'mcpHost.servers': Object.fromEntries(ids.map((id) => [id, fixture(id)])),
          // The default, not the suites' "startup" (left out of the settings file).
          'mcpHost.autoStart': undefined,
          // VS Code's chat would start them through the gateway before a request; none is sent here.
          'chat.mcp.autostart': 'never',
        },
      },
    );
    await editor.workbench.openMcpView();
  });

  closeEverythingAfterEach(() => editor);

  after(async () => editor?.stop());

  const servers = async () => {
    const all = await editor.control<McpServerInfo[]>('listServers');
    return Object.fromEntries(all.map((s) => [s.id, s]));
  };

  it('learns the tools of servers that have not run once the window is idle, stops them, and the first call starts one for good', async () => {
    // The window waits to be idle (10 s, then 2 quiet seconds), and the servers learn one at a time.
    await waitFor(
      'both servers to know their lists',
      async () => {
        const all = await servers();
        return ids.every((id) => all[id].fromLastRun) || undefined;
      },
      240_000,
    );
    // Stopped again: nothing of them runs until it is needed.
    await waitFor(
      'both learned servers to be stopped, without a process',
      async () => {
        const all = await servers();
        return ids.every((id) => all[id].status === 'stopped' && all[id].pid === undefined) || undefined;
      },
      30_000,
    );
    const before = await servers();
    for (const id of ids)
      assert.deepEqual(
        [before[id].startsWhenNeeded, before[id].fromLastRun],
        [true, true],
        `${id} waits for its first use with the lists it learned`,
      );
    // The row follows the state it was told of (a redraw later): it says the state, nothing else.
    for (const id of ids) await editor.workbench.waitForServerDescription(id, /^starts when needed$/, 30_000);
    // Ready, not "0 of 2": each answers the next call.
    await waitFor(
      'the status bar to count both as ready',
      async () => (await editor.workbench.statusBarText('MCP')) === 'MCP 2 ready · 0 running' || undefined,
      30_000,
    ).catch(async (error: Error) => assert.fail(`${error.message}: "${await editor.workbench.statusBarText('MCP')}"`));
    await editor.workbench.screenshot('121-learned-in-background');

    const result = await editor.control<{ content: { type: string; text?: string }[] }>('callTool', {
      serverId: 'first',
      name: 'echo',
      args: { text: 'hello' },
    });
    assert.match(result.content.map((c) => c.text ?? '').join(''), /hello/);
    const after = await servers();
    assert.equal(after.first.status, 'running', 'the call started it');
    assert.equal(typeof after.first.pid, 'number');
    assert.equal(after.second.status, 'stopped', 'the other one still waits');
    // It stays up after its first use: it is not learning any more.
    await editor.workbench.waitForServerDescription('first', /^\d+ tools/, 30_000);
    assert.equal((await servers()).first.pid, after.first.pid);
  });
});
