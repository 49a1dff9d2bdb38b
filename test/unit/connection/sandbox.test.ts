import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SandboxSettings } from '../../../src/core/config/serverDefinition';
import { SrtProcessSandbox } from '../../../src/core/process/processSandbox';
import type { ServerConnection } from '../../../src/core/connection/serverConnection';
import { connect, disposeConnections } from '../support/connections';
import { EVERYTHING, fixture, REPO, stdioDefinition, waitFor } from '../support/fixtures';
import { tempDir } from '../../support/tempDir';

/** The text of a tool's first content block. */
async function call(connection: ServerConnection, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await connection.request('tools/call', (c, o) => c.callTool({ name, arguments: args }, o));
  return (result.content as { text: string }[])[0].text;
}

/** Processes whose command line holds `marker`, other than `ps` itself. */
function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

describe('sandboxed stdio servers (the sandbox runtime: bubblewrap and its proxy, for real)', function () {
  this.timeout(60_000);
  let root: string;
  let outside: string;
  let home: string;
  let web: http.Server;
  let port: number;
  const sandbox = new SrtProcessSandbox();
  /** The roots the host shows servers now (a test may move it). */
  let currentRoot: string | undefined;

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'mcp-sandbox-root-'));
    outside = mkdtempSync(path.join(tmpdir(), 'mcp-sandbox-outside-'));
    // A stand-in for ~/.ssh: a secret under the home folder, outside every root.
    home = mkdtempSync(path.join(homedir(), '.mcp-sandbox-test-'));
    writeFileSync(path.join(root, 'notes.txt'), 'in the root');
    writeFileSync(path.join(outside, 'other.txt'), 'outside the roots, not under home');
    writeFileSync(path.join(home, 'id_rsa'), 'PRIVATE KEY');
    web = http.createServer((_req, res) => res.end('hello from loopback'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    port = (web.address() as AddressInfo).port;
  });
  after(async () => {
    await sandbox.dispose();
    web.close();
    for (const dir of [root, outside, home]) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(disposeConnections);

  // The repository may be under the home folder (a clone in ~/src): its fixtures stay readable, as
  // a user allows the folder of a server that lives there.
  const withRepo = (settings: SandboxSettings | undefined): SandboxSettings | undefined =>
    settings && {
      ...settings,
      filesystem: { ...settings.filesystem, allowRead: [...(settings.filesystem?.allowRead ?? []), REPO] },
    };
  const start = async (
    name: string,
    settings: SandboxSettings | undefined,
    runtime = sandbox,
    script = fixture('modernStdio'),
    args = ['--probe-tools', '--name', name],
  ) => {
    const def = stdioDefinition(name, script, { args, sandbox: withRepo(settings) });
    const { connection, log } = connect(def, {
      sandbox: runtime,
      roots: () => [{ uri: pathToFileURL(currentRoot ?? root).href, name: 'root' }],
    });
    await connection.start();
    return { connection, log };
  };

  it('unsandboxed, the probe server reads the secret (so the refusals below are the sandbox)', async () => {
    const { connection } = await start('open-server', undefined);
    assert.equal(await call(connection, 'read-file', { path: path.join(home, 'id_rsa') }), 'read: PRIVATE KEY');
  });

  it('reads and writes its roots; cannot read under home, nor write outside its roots', async () => {
    const { connection, log } = await start('boxed-files', {});
    assert.equal(connection.snapshot().status, 'running');
    assert.ok(
      log
        .text()
        .includes(`Sandboxed: reads everything except ~ (but ${root}, ${REPO} and the tool folders under home)`),
      log.text(),
    );
    assert.ok(log.text().includes(`writes ${root}; network none.`), log.text());
    assert.equal(await call(connection, 'read-file', { path: path.join(root, 'notes.txt') }), 'read: in the root');
    assert.match(
      await call(connection, 'read-file', { path: path.join(home, 'id_rsa') }),
      /^refused: (ENOENT|EACCES|EPERM)$/,
    );
    assert.equal(
      await call(connection, 'read-file', { path: path.join(outside, 'other.txt') }),
      'read: outside the roots, not under home',
    );
    assert.equal(
      await call(connection, 'write-file', { path: path.join(root, 'made.txt'), text: 'made inside' }),
      'written',
    );
    assert.equal(readFileSync(path.join(root, 'made.txt'), 'utf8'), 'made inside');
    assert.match(
      await call(connection, 'write-file', { path: path.join(outside, 'made.txt'), text: 'x' }),
      /^refused: (EROFS|EACCES|EPERM)$/,
    );
    assert.equal(existsSync(path.join(outside, 'made.txt')), false);
  });

  it('the settings add to the defaults: a path to read under home, a folder to write, and no more', async () => {
    mkdirSync(path.join(home, 'shared'), { recursive: true });
    writeFileSync(path.join(home, 'shared', 'ok.txt'), 'shared on purpose');
    const { connection } = await start('boxed-extra', {
      filesystem: { allowRead: [path.join(home, 'shared')], allowWrite: [outside] },
    });
    assert.equal(
      await call(connection, 'read-file', { path: path.join(home, 'shared', 'ok.txt') }),
      'read: shared on purpose',
    );
    assert.match(await call(connection, 'read-file', { path: path.join(home, 'id_rsa') }), /^refused: /);
    assert.equal(
      await call(connection, 'write-file', { path: path.join(outside, 'allowed.txt'), text: 'y' }),
      'written',
    );
    assert.equal(readFileSync(path.join(outside, 'allowed.txt'), 'utf8'), 'y');
  });

  it('reaches only the hosts its settings allow, through the proxy; nothing directly', async () => {
    const { connection } = await start('boxed-net', { network: { allowedDomains: [`127.0.0.1:${port}`] } });
    assert.equal(
      await call(connection, 'http-get', { url: `http://127.0.0.1:${port}/` }),
      'status 200: hello from loopback',
    );
    // Another port of the same address, and a name that resolves to loopback: not allowed.
    assert.match(await call(connection, 'http-get', { url: `http://localhost:${port}/` }), /^status 403: /);
    const other = http.createServer((_req, res) => res.end('should not be reached'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      assert.match(
        await call(connection, 'http-get', { url: `http://127.0.0.1:${(other.address() as AddressInfo).port}/` }),
        /^status 403: /,
      );
    } finally {
      other.close();
    }
    const { connection: none } = await start('boxed-offline', {});
    assert.match(await call(none, 'http-get', { url: `http://127.0.0.1:${port}/` }), /^status 403: /);
  });

  it('shows the sandbox applied at start while it runs, and the one it would start with once stopped', async () => {
    const { connection } = await start('boxed-moved', {});
    currentRoot = outside;
    try {
      assert.match(
        connection.snapshot().sandbox ?? '',
        new RegExp(`writes ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; network none$`),
      );
      await connection.stop();
      assert.match(
        connection.snapshot().sandbox ?? '',
        new RegExp(`writes ${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; network none$`),
      );
    } finally {
      currentRoot = undefined;
    }
  });

  it('runs a server nobody here wrote (server-everything from npm) sandboxed: it starts and answers', async () => {
    const { connection } = await start('boxed-everything', {}, sandbox, EVERYTHING, []);
    assert.equal(connection.snapshot().status, 'running', connection.snapshot().reason);
    assert.ok(connection.snapshot().tools.length > 5);
    assert.equal(await call(connection, 'echo', { message: 'from the sandbox' }), 'Echo: from the sandbox');
  });

  it('ends the whole sandbox (bubblewrap and the server inside it) on stop', async () => {
    const marker = `boxed-stop-${process.pid}`;
    const { connection } = await start(marker, {});
    assert.ok(
      processesWith(marker).some((line) => line.includes('bwrap')),
      'bubblewrap runs the server',
    );
    assert.ok(
      processesWith(marker).some((line) => !line.includes('bwrap') && line.includes('modernStdio')),
      'the server runs inside it',
    );
    await connection.stop();
    await waitFor('every process of the sandbox to end', () => processesWith(marker).length === 0, 5_000);
  });

  it('says what is missing when the sandbox cannot run, and starts nothing', async () => {
    const { connection } = await start('boxed-elsewhere', {}, new SrtProcessSandbox(undefined, 'win32'));
    assert.equal(connection.snapshot().status, 'error');
    assert.match(
      connection.snapshot().reason ?? '',
      /"sandbox" needs Linux or macOS \(this is win32\); remove it to run the server unsandboxed/,
    );
    const savedPath = process.env.PATH;
    process.env.PATH = tempDir('mcp-empty-path-');
    try {
      const { connection: missing } = await start('boxed-nobwrap', {}, new SrtProcessSandbox());
      assert.equal(missing.snapshot().status, 'error');
      assert.match(
        missing.snapshot().reason ?? '',
        /the sandbox cannot run here: ripgrep \(rg\) not found; bubblewrap \(bwrap\) not installed; socat not installed: install them \(for example `sudo apt-get install bubblewrap socat ripgrep`\) and restart the server, or remove "sandbox"/,
      );
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
