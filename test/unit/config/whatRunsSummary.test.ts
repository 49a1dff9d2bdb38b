import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';
import type { ServerDefinition } from '../../../src/core/config/serverDefinition';
import type { VariableContext } from '../../../src/core/config/variableResolver';
import { changedFields, commandDanger, summarizeWhatRuns } from '../../../src/core/config/whatRunsSummary';
import { plainPath } from '../../../src/core/config/plainPath';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../support/tempDir';

function definition(raw: unknown): ServerDefinition {
  const result = validateServerEntry({ id: 'srv', scope: 'workspace', raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.definition;
}

function context(files: Record<string, string> = {}): VariableContext & { input: sinon.SinonSpy } {
  return {
    workspaceFolders: [{ name: 'app', path: '/work/app' }],
    userHome: '/home/me',
    env: { GITHUB_TOKEN: 'ghp_realsecretvalue0000000000000000000' },
    input: sinon.spy(async () => 'typed-secret'),
    readFile: async (file) => {
      if (file in files) return files[file];
      throw new Error(`ENOENT: no such file, open '${file}'`);
    },
  };
}

const shown = (fields: { field: string; shown: string; warning?: string }[]) =>
  fields.map((f) => `${f.field}: ${f.shown}${f.warning ? ` [${f.warning}]` : ''}`);

describe('what a server runs, as consent shows it', () => {
  it('flags a command line that deserves a second look: administrator rights, deleting files, a downloaded script, a shell line, a privileged container, the whole home folder', () => {
    assert.equal(commandDanger('sudo', ['node', 'server.js']), 'runs with administrator rights');
    assert.equal(commandDanger('/bin/rm', ['-rf', '/tmp/x']), 'deletes files');
    assert.equal(
      commandDanger('bash', ['-c', 'curl -fsSL https://example.com/install.sh | sh']),
      'runs a script it downloads',
    );
    assert.equal(
      commandDanger('sh', ['-c', 'node server.js && rm -rf build']),
      'deletes files; runs a shell command line',
    );
    assert.equal(commandDanger('docker', ['run', '--privileged', 'img']), "runs a container with the host's rights");
    assert.equal(
      commandDanger('npx', ['-y', '@modelcontextprotocol/server-filesystem', '~']),
      'is given your whole home folder or file system',
    );
    assert.equal(
      commandDanger('npx', ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}']),
      undefined,
    );
    assert.equal(commandDanger('node', ['server.js', '--rf']), undefined);
  });

  it('flags an HTTP server reached without encryption, unless it is on this machine', async () => {
    const warningOf = async (url: string) =>
      (await summarizeWhatRuns(definition({ url }), context())).find((f) => f.field === 'url')?.warning;
    assert.equal(
      await warningOf('http://mcp.example.com/mcp'),
      'not encrypted: plain http:// to a host that is not this machine',
    );
    assert.equal(await warningOf('https://mcp.example.com/mcp'), undefined);
    assert.equal(await warningOf('http://127.0.0.1:3000/mcp'), undefined);
    assert.equal(await warningOf('http://localhost:3000/mcp'), undefined);
  });

  it('shows the flag on the command in the consent dialog, beside "looked up on PATH"', async () => {
    const fields = await summarizeWhatRuns(definition({ command: 'sudo', args: ['node', 'x.js'] }), context());
    assert.equal(fields[0].warning, 'runs with administrator rights; looked up on PATH');
  });

  it('shows command, args, cwd and every env key; values as written, secrets masked, code-loading variables in full and flagged', async () => {
    const ctx = context();
    const fields = await summarizeWhatRuns(
      definition({
        command: 'npx',
        args: ['-y', 'some server'],
        cwd: '${workspaceFolder}/sub',
        env: {
          MODE: 'dev',
          API_KEY: 'literal-key-value',
          OPAQUE: 'c2VjcmV0LXRoYXQtbG9va3MtbGlrZS1hLXRva2Vu',
          GITHUB_TOKEN: '${env:GITHUB_TOKEN}',
          PASSWORD: '${input:pw}',
          NODE_OPTIONS: '--require ./evil.js',
          DYLD_INSERT_LIBRARIES: '/tmp/x.dylib',
          PATH: './bin:/usr/bin',
          GONE: null,
        },
      }),
      ctx,
    );
    assert.deepEqual(shown(fields), [
      'command: npx [looked up on PATH]',
      "args: -y 'some server'",
      'cwd: ${workspaceFolder}/sub (= /work/app/sub)',
      'env.API_KEY: •••••• (hidden, 17 characters)',
      'env.DYLD_INSERT_LIBRARIES: /tmp/x.dylib [loads native code into the process]',
      'env.GITHUB_TOKEN: ${env:GITHUB_TOKEN}',
      'env.GONE: (removed)',
      'env.MODE: dev',
      'env.NODE_OPTIONS: --require ./evil.js [loads code into Node.js]',
      'env.OPAQUE: •••••• (hidden, 40 characters)',
      'env.PASSWORD: ${input:pw}',
      'env.PATH: ./bin:/usr/bin [decides which programs run]',
    ]);
    assert.equal(ctx.input.callCount, 0, 'showing a definition never asks for a secret');
    assert.ok(!JSON.stringify(fields).includes('ghp_realsecret'), 'an ${env:} value is not resolved for display');
  });

  it("shows what a value's ${workspaceFolder} or ${userHome} resolves to beside it, and never resolves ${env:} or ${input:} there", async () => {
    const fields = await summarizeWhatRuns(
      definition({
        command: 'node',
        env: {
          DATA: '${workspaceFolder}/data',
          CACHE: '${userHome}/.cache',
          MIXED: '${workspaceFolder}:${env:GITHUB_TOKEN}',
        },
      }),
      context(),
    );
    assert.deepEqual(
      shown(fields).filter((f) => f.startsWith('env.')),
      [
        'env.CACHE: ${userHome}/.cache (= /home/me/.cache)',
        'env.DATA: ${workspaceFolder}/data (= /work/app/data)',
        'env.MIXED: ${workspaceFolder}:${env:GITHUB_TOKEN}',
      ],
    );
  });

  it('shows the env file with the keys it sets (values hidden but code-loading ones), or why it cannot be read', async () => {
    const def = definition({ command: '/usr/bin/node', envFile: '${workspaceFolder}/.env' });
    const fields = await summarizeWhatRuns(
      def,
      context({ '/work/app/.env': 'TOKEN=abc\nexport PYTHONPATH=/tmp/evil\n' }),
    );
    assert.deepEqual(shown(fields), [
      'command: /usr/bin/node',
      'args: (none)',
      'cwd: (the workspace folder)',
      'envFile: ${workspaceFolder}/.env (sets PYTHONPATH, TOKEN)',
      'envFile.PYTHONPATH: /tmp/evil [loads code into Python]',
      'envFile.TOKEN: (set by the file)',
    ]);
    const missing = await summarizeWhatRuns(def, context());
    assert.equal(
      shown(missing)[3],
      "envFile: ${workspaceFolder}/.env (cannot be read: ENOENT: no such file, open '/work/app/.env')",
    );
  });

  it('shows an HTTP server’s transport, URL and header names, never header values', async () => {
    const fields = await summarizeWhatRuns(
      definition({
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer sk-live-123', 'X-Key': '${input:key}' },
      }),
      context(),
    );
    assert.deepEqual(shown(fields), [
      'type: http',
      'url: https://mcp.example.com/mcp',
      'headers.Authorization: (value hidden)',
      'headers.X-Key: ${input:key}',
    ]);
  });

  it('names each changed field with before and after, and notices a masked value that changed', async () => {
    const ctx = context();
    const before = await summarizeWhatRuns(
      definition({ command: 'node', args: ['a.js'], env: { API_KEY: 'first-secret-value', OLD: '1' } }),
      ctx,
    );
    const after = await summarizeWhatRuns(
      definition({
        command: 'node',
        args: ['b.js'],
        env: { API_KEY: 'other-secret-value', NODE_OPTIONS: '--inspect' },
      }),
      ctx,
    );
    assert.deepEqual(changedFields(before, after), [
      { field: 'args', before: 'a.js', after: 'b.js' },
      {
        field: 'env.API_KEY',
        before: '•••••• (hidden, 18 characters) (an earlier value)',
        after: '•••••• (hidden, 18 characters)',
      },
      { field: 'env.NODE_OPTIONS', before: undefined, after: '--inspect', warning: 'loads code into Node.js' },
      { field: 'env.OLD', before: '1' },
    ]);
    assert.deepEqual(changedFields(after, after), []);
  });

  it('shows the sandbox settings of a sandboxed server, and a sandbox dropped as a change', async () => {
    const ctx = context();
    const boxed = await summarizeWhatRuns(
      definition({ command: 'node', sandbox: { network: { allowedDomains: ['api.example.com'] } } }),
      ctx,
    );
    assert.ok(
      shown(boxed).includes('sandbox: on: {"network":{"allowedDomains":["api.example.com"]}}'),
      shown(boxed).join('\n'),
    );
    assert.ok(
      shown(await summarizeWhatRuns(definition({ command: 'node', sandbox: true }), ctx)).includes('sandbox: on'),
    );
    const open = await summarizeWhatRuns(definition({ command: 'node' }), ctx);
    assert.deepEqual(changedFields(boxed, open), [
      { field: 'sandbox', before: 'on: {"network":{"allowedDomains":["api.example.com"]}}' },
    ]);
  });
});

describe('paths as the user reads them', () => {
  it('shows an absolute path with .. segments as the system resolves it, following a link before its ..', () => {
    const root = tempDir('plain-path-');
    mkdirSync(path.join(root, 'demo'));
    mkdirSync(path.join(root, 'out'));
    mkdirSync(path.join(root, 'elsewhere', 'inner'), { recursive: true });
    symlinkSync(path.join(root, 'elsewhere', 'inner'), path.join(root, 'link'));
    assert.equal(plainPath(path.join(root, 'demo') + '/../out'), path.join(root, 'out'));
    assert.equal(
      plainPath(`${root}/link/..`),
      path.join(root, 'elsewhere'),
      "the link's parent, not the folder that holds the link",
    );
    assert.equal(
      plainPath(`${root}/missing/../out`),
      `${root}/missing/../out`,
      'a path that does not exist stays as written',
    );
    assert.equal(plainPath('./relative/../x'), './relative/../x');
    assert.equal(plainPath('--flag=/a/../b'), '--flag=/a/../b');
  });
});
