// A sandboxed stdio server ("sandbox": true) in a real VS Code: the view says so, the server works
// in its workspace folder and is refused outside it (bubblewrap and the sandbox runtime's proxy).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { McpServerInfo } from '../../../src/editor/publicApi';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';

const probe = (name: string) => ({
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/modernStdio.js'), '--probe-tools', '--name', name],
});

describe('A sandboxed server in a real VS Code', function () {
  this.timeout(180_000);
  if (process.platform !== 'linux') return;
  // A stand-in for ~/.ssh: under the home folder, outside the workspace.
  const secretDir = mkdtempSync(path.join(homedir(), '.mcp-sandbox-editor-'));
  writeFileSync(path.join(secretDir, 'id_rsa'), 'PRIVATE KEY');
  after(() => rmSync(secretDir, { recursive: true, force: true }));
  // The repository may be under the home folder: the fixture's folder stays readable, as a user
  // allows the folder of a server that lives there.
  const repo = path.dirname(OUT);
  const editor = scenarioEditor({
    boxed: { ...probe('boxed'), sandbox: { filesystem: { allowRead: [repo] } } },
    open: probe('open'),
  });
  const folder = () => path.join(path.dirname(editor().workspaceFile), 'alpha');
  const call = async (serverId: string, name: string, args: Record<string, unknown>) =>
    (await editor().control<{ content: { text: string }[] }>('callTool', { serverId, name, args })).content[0].text;

  it('shows the server as sandboxed, with what the sandbox allows in its tooltip', async () => {
    assert.match(await editor().workbench.serverDescription('boxed'), /^sandboxed · \d+ tools · 1 prompt/);
    assert.match(await editor().workbench.serverDescription('open'), /^\d+ tools/);
    const info = (await editor().control<McpServerInfo[]>('listServers')).find((s) => s.id === 'boxed')!;
    assert.equal(info.status, 'running');
    // The tooltip, as the user hovers the row.
    const hover = await editor().workbench.tooltip(editor().workbench.serverRow('boxed'), 'Sandbox');
    const tooltip = ((await hover.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.ok(
      tooltip.includes(
        `Sandbox: reads everything except ~ (but ${folder()}, ${repo} and the tool folders under home); writes ${folder()}; network none`,
      ),
      tooltip,
    );
    await editor().workbench.screenshot('76-sandboxed-server');
  });

  it('works in the workspace folder and is refused under home, where the unsandboxed one is not', async () => {
    writeFileSync(path.join(folder(), 'notes.txt'), 'workspace notes');
    assert.equal(await call('boxed', 'read-file', { path: path.join(folder(), 'notes.txt') }), 'read: workspace notes');
    assert.equal(
      await call('boxed', 'write-file', { path: path.join(folder(), 'written.txt'), text: 'from the sandbox' }),
      'written',
    );
    assert.equal(readFileSync(path.join(folder(), 'written.txt'), 'utf8'), 'from the sandbox');
    assert.match(
      await call('boxed', 'read-file', { path: path.join(secretDir, 'id_rsa') }),
      /^refused: (ENOENT|EACCES|EPERM)$/,
    );
    assert.match(await call('boxed', 'write-file', { path: path.join(secretDir, 'planted'), text: 'x' }), /^refused: /);
    assert.match(await call('boxed', 'http-get', { url: 'http://127.0.0.1:9/' }), /^status 403: /);
    assert.equal(await call('open', 'read-file', { path: path.join(secretDir, 'id_rsa') }), 'read: PRIVATE KEY');
  });
});
