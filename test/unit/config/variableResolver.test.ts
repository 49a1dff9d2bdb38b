import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { resolveDefinition, displayContext, type VariableContext } from '../../../src/core/config/variableResolver';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';
import { parseEnvFile } from '../../../src/core/config/envFile';
import type { ServerDefinition } from '../../../src/core/config/serverDefinition';

function definition(raw: unknown, folder?: { name: string; path: string }): ServerDefinition {
  const result = validateServerEntry({ id: 'srv', scope: folder ? 'folder' : 'workspace', folder, raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.definition;
}

function context(overrides: Partial<VariableContext> = {}): VariableContext {
  return {
    workspaceFolders: [
      { name: 'app', path: '/work/app' },
      { name: 'lib', path: '/work/lib' },
    ],
    userHome: '/home/me',
    env: { TOKEN: 'from-env' },
    input: async (id) => `secret-${id}`,
    readFile: async () => 'FROM_FILE=1\nTOKEN=file-token\n',
    ...overrides,
  };
}

describe('resolveDefinition', () => {
  it('resolves workspaceFolder, named folders, userHome, env and input variables', async () => {
    const def = definition({
      command: '${userHome}/bin/server',
      args: ['--root', '${workspaceFolder}', '--lib=${workspaceFolder:lib}', '${env:MISSING}'],
      env: { TOKEN: '${env:TOKEN}', KEY: '${input:api-key}', DROP: null },
      cwd: '${workspaceFolder:lib}',
    });
    const resolved = await resolveDefinition(def, context());
    assert.equal(resolved.command, '/home/me/bin/server');
    assert.deepEqual(resolved.args, ['--root', '/work/app', '--lib=/work/lib', '']);
    assert.deepEqual(resolved.env, { TOKEN: 'from-env', KEY: 'secret-api-key', DROP: null });
    assert.equal(resolved.cwd, '/work/lib');
  });

  it('loads envFile first and lets env override it', async () => {
    const def = definition({ command: 'x', envFile: '${workspaceFolder}/.env', env: { TOKEN: 'explicit' } });
    const readFile = sinon.stub<[string], Promise<string>>().resolves('FROM_FILE=1\nTOKEN=file-token\n');
    const resolved = await resolveDefinition(def, context({ readFile }));
    assert.deepEqual(readFile.firstCall.args, ['/work/app/.env']);
    assert.deepEqual(resolved.env, { FROM_FILE: '1', TOKEN: 'explicit' });
  });

  it('asks for each input once per resolution, even when used twice', async () => {
    const input = sinon.stub<[string, string], Promise<string>>().resolves('s3cret');
    const def = definition({
      url: 'https://x.test/mcp?k=${input:tok}',
      headers: { Authorization: 'Bearer ${input:tok}' },
    });
    const resolved = await resolveDefinition(def, context({ input }));
    assert.equal(resolved.headers.Authorization, 'Bearer s3cret');
    assert.equal(input.callCount, 2, 'once per field; the editor caches the secret itself');
    assert.deepEqual(input.firstCall.args, ['tok', 'srv']);
  });

  it('uses the defining folder for a folder-scoped server', async () => {
    const def = definition(
      { command: 'x', args: ['${workspaceFolder}'], roots: ['${workspaceFolder}/src'] },
      { name: 'lib', path: '/work/lib' },
    );
    const resolved = await resolveDefinition(def, context());
    assert.deepEqual(resolved.args, ['/work/lib']);
    assert.equal(resolved.cwd, '/work/lib');
    assert.deepEqual(resolved.roots, [{ uri: 'file:///work/lib/src', name: 'src' }]);
  });

  it('runs a server in the first folder by default, and one shared between windows in the home folder', async () => {
    assert.equal((await resolveDefinition(definition({ command: 'x' }), context())).cwd, '/work/app');
    const shared = definition({ command: 'x', share: 'machine' });
    assert.equal((await resolveDefinition(shared, context())).cwd, '/home/me', 'the same folder in every window');
    const written = definition({ command: 'x', share: 'machine', cwd: '${workspaceFolder:lib}' });
    assert.equal((await resolveDefinition(written, context())).cwd, '/work/lib', 'a cwd it sets wins');
  });

  it('fails with the server and field for unknown variables, missing folders and refused inputs', async () => {
    // Unknown variables are caught when settings are applied; the resolver still refuses one that got past.
    const unchecked = { ...definition({ command: 'x' }), args: ['${foo}'] };
    await assert.rejects(
      resolveDefinition(unchecked, context()),
      /MCP server "srv": "args\[0\]" uses the unknown variable \$\{foo\}/,
    );
    await assert.rejects(
      resolveDefinition(definition({ command: 'x', cwd: '${workspaceFolder:nope}' }), context()),
      /MCP server "srv": "cwd" uses \$\{workspaceFolder:nope\} but no open folder is named "nope"/,
    );
    await assert.rejects(
      resolveDefinition(definition({ command: 'x', args: ['${workspaceFolder}'] }), context({ workspaceFolders: [] })),
      /"args\[0\]" uses \$\{workspaceFolder\} but no folder is open/,
    );
    await assert.rejects(
      resolveDefinition(
        definition({ command: 'x', env: { K: '${input:key}' } }),
        context({ input: async () => Promise.reject(new Error('no value was entered')) }),
      ),
      /MCP server "srv": "env.K" needs \$\{input:key\}: no value was entered/,
    );
  });

  it('names the env and headers fields whose value as written holds a $NAME it does not expand, never from a value it read', async () => {
    const def = definition({
      type: 'http',
      url: 'https://example.com/mcp',
      headers: {
        Authorization: 'Bearer $GITHUB_TOKEN',
        'X-Api-Key': '${env:TOKEN}',
        'X-Read': '${input:key}',
        'X-Plain': 'price: 5$',
      },
    });
    // The values read hold a $NAME too: read, not written, so not a mistake of the settings.
    const resolved = await resolveDefinition(def, context({ env: { TOKEN: 'a$SECRET' }, input: async () => 'b$KEY' }));
    assert.deepEqual(resolved.unexpanded, ['headers.Authorization']);
    const stdio = definition({
      command: 'server',
      env: { HOME_DATA: '$HOME/data', READ: '${env:TOKEN}', ASKED: '${input:key}', DROPPED: null },
    });
    const run = await resolveDefinition(stdio, context({ env: { TOKEN: 'a$SECRET' }, input: async () => 'b$KEY' }));
    assert.deepEqual(run.unexpanded, ['env.HOME_DATA']);
    assert.equal(resolved.headers.Authorization, 'Bearer $GITHUB_TOKEN');
    const none = await resolveDefinition(
      definition({ type: 'http', url: 'https://example.com/mcp', headers: { 'X-Api-Key': '${env:TOKEN}' } }),
      context(),
    );
    assert.equal('unexpanded' in none, false, 'a definition without one has no such field (its hash is unchanged)');
  });

  it('keeps secrets as placeholders when resolving for display', async () => {
    const def = definition({ command: 'npx', args: ['--token', '${input:tok}', '${workspaceFolder}'] });
    const shown = await resolveDefinition(def, displayContext(context()));
    assert.deepEqual(shown.args, ['--token', '${input:tok}', '/work/app']);
  });
});

describe('parseEnvFile', () => {
  it('reads KEY=value lines, quotes, export and comments', () => {
    assert.deepEqual(parseEnvFile('# c\nexport A=1\nB="two words"\nC=\'x#y\'\nD=3 # trailing\n\nnot a line\n'), {
      A: '1',
      B: 'two words',
      C: 'x#y',
      D: '3',
    });
  });
});
