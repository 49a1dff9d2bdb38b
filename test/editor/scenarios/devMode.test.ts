// Dev mode in a real VS Code: a server with `dev.watch` restarts when a watched file is saved,
// and a call in flight is told why it ended.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const servers = {
  devsrv: {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')],
    autoApprove: ['hang', 'echo'],
    dev: { watch: ['watched/**/*.txt'], debounceMs: 1000 },
  },
  dbg: {
    command: process.execPath,
    args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')],
    autoApprove: ['echo'],
    dev: { debug: true },
  },
};
const FIXTURE_JS = path.join(OUT, 'test/fixtures/servers/fixtureServer.js');

describe('Dev mode in a real VS Code', function () {
  this.timeout(240_000);
  // The server's sources exist when the window opens, as they do for someone writing a server.
  const editor = scenarioEditor(servers, {}, { 'alpha/watched/sub/tools.txt': 'first' });

  it('restarts the server when a watched file changes, and the call in flight says why', async () => {
    const output = async () => {
      await editor().control('executeCommand', { command: 'mcpHost.showOutput', args: ['devsrv'] });
      return (
        (await editor().workbench.page.locator('.part.panel .monaco-editor .view-lines').textContent()) ?? ''
      ).replace(/\u00a0/g, ' ');
    };
    await waitFor(
      'the watch in the log',
      async () =>
        /Dev mode: watching watched\/\*\*\/\*\.txt under .*alpha; a change restarts the server\./.test(await output()),
      20_000,
    );
    const before = await editor().control<{ result?: { content: { text: string }[] } }>('invokeTool', {
      serverId: 'devsrv',
      name: 'echo',
      args: { text: 'one' },
    });
    assert.equal(before.result?.content[0]?.text, 'one');
    let settled = false;
    const inFlight = editor()
      .control<{ outcome: string; error?: string }>('invokeTool', { serverId: 'devsrv', name: 'hang', args: {} })
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // A file outside the watched globs changes nothing; a watched one restarts the server. (The
    // editor's watcher may start a moment after the log line: the save is repeated until the
    // call ends, at most a few times.)
    for (let attempt = 0; attempt < 5 && !settled; attempt++) {
      writeFileSync(path.join(editor().root, 'alpha', 'ignored.txt'), `x${attempt}`);
      writeFileSync(path.join(editor().root, 'alpha', 'watched', 'sub', 'tools.txt'), `changed ${attempt}`);
      await waitFor('the call ended by the restart', async () => settled, 5_000).catch(() => undefined);
    }
    const ended = await inFlight;
    assert.equal(ended.outcome, 'protocolError');
    assert.match(
      ended.error ?? '',
      /MCP server "devsrv" stopped before answering tools\/call "hang": restarting for a change in watched\/sub\/tools\.txt\./,
    );
    // It runs again. The watcher may report one save more than once, and a save repeated above on a
    // busy machine restarts it once more: a call that meets such a restart ends with its reason, so
    // wait until a call returns the server's result.
    let after: { outcome?: string; result?: { content: { text: string }[] } } | undefined;
    await waitFor(
      'a call to the restarted server',
      async () => {
        await editor().workbench.waitForServerDescription('devsrv', /^\d+ tools/, 60_000);
        after = await editor()
          .control<{ outcome: string; result?: { content: { text: string }[] } }>('invokeTool', {
            serverId: 'devsrv',
            name: 'echo',
            args: { text: 'two' },
          })
          .catch(() => undefined);
        return after?.result !== undefined;
      },
      60_000,
    );
    assert.equal(after?.outcome, 'ok');
    assert.equal(after?.result?.content[0]?.text, 'two');
    let log = '';
    await waitFor(
      'the restart in the log',
      async () => /Dev mode: restarting for a change in watched\/sub\/tools\.txt\./.test((log = await output())),
      10_000,
    );
    assert.doesNotMatch(log, /ignored\.txt/);
    await editor().workbench.screenshot('96-dev-mode-restart');
  });

  it('attaches the debugger to a Node server with dev.debug, and a breakpoint in the server stops its tool call', async () => {
    await waitFor(
      'the debug session',
      async () => (await editor().control<string[]>('debugSessions')).includes('MCP server dbg'),
      60_000,
    );
    // The line of echo's answer in the fixture, as built.
    const lines = readFileSync(FIXTURE_JS, 'utf8').split('\n');
    const echo = lines.findIndex((l) => l.includes("registerTool('echo'"));
    const answer = lines.findIndex((l, i) => i > echo && l.includes('return { content:'));
    assert.ok(echo > 0 && answer > echo);
    await editor().control('addBreakpoint', { file: FIXTURE_JS, line: answer });
    // The editor shows where the server stopped, as for any Node program. (The debugger binds the
    // breakpoint a moment after it is set: a call that went through before is made again.)
    const page = editor().workbench.page;
    const stopped = page.locator('.debug-call-stack', { hasText: 'Paused On Breakpoint' }).first();
    let call: Promise<{ outcome: string; result?: { content: { text: string }[] } }> | undefined;
    for (let attempt = 0; attempt < 5 && !(await stopped.isVisible()); attempt++) {
      let settled = false;
      call = editor().control<{ outcome: string; result?: { content: { text: string }[] } }>('invokeTool', {
        serverId: 'dbg',
        name: 'echo',
        args: { text: 'paused' },
      });
      void call.then(() => (settled = true));
      await waitFor('the call stopped at the breakpoint', async () => settled || (await stopped.isVisible()), 15_000);
    }
    await stopped.waitFor({ timeout: 10_000 });
    await page.locator('.debug-toolbar').waitFor({ timeout: 10_000 });
    await page.locator('.debug-top-stack-frame-line').first().waitFor({ timeout: 10_000 });
    await editor().workbench.screenshot('97-dev-mode-breakpoint');
    let settled = false;
    void call!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(settled, false, 'the call waits at the breakpoint');
    await editor().control('executeCommand', { command: 'workbench.action.debug.continue' });
    const done = await call!;
    assert.equal(done.result?.content[0]?.text, 'paused');
  });
});
