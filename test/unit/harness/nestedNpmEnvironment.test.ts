import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { nestedNpmEnvironment } from '../../editor/harness/editorInstall';

// What an `npm test` hands its children: code-server's postinstall reads the Node
// version from npm_config_user_agent and refused to install because of it.
const OUTER_NPM_RUN: NodeJS.ProcessEnv = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/root',
  MCPHOST_CACHE: '/tmp/cache',
  npm_config_user_agent: 'npm/0.0.0-outer node/v0.0.0-outer linux x64 workspaces/false',
  npm_config_prefix: '/outer/prefix',
  npm_config_nodedir: '/outer/node20',
  npm_lifecycle_event: 'pretest',
  npm_lifecycle_script: 'node scripts/ensure-setup.mjs',
  npm_package_name: 'mcp-host',
  npm_package_json: '/work/main/package.json',
  npm_node_execpath: '/usr/bin/node',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_command: 'test',
  INIT_CWD: '/work/main',
  NODE: '/usr/bin/node',
};

describe('the editor install runs npm apart from the outer npm run', () => {
  it('keeps nothing of the outer npm run, puts the given Node first on PATH and builds against its headers', () => {
    const env = nestedNpmEnvironment(OUTER_NPM_RUN, '/cache/node24/bin/node');
    const leaked = Object.keys(env).filter((name) => /^npm_/i.test(name) && name !== 'npm_config_nodedir');
    assert.deepEqual(leaked, []);
    assert.equal(env.NODE, undefined);
    assert.equal(env.INIT_CWD, undefined);
    assert.equal(env.npm_config_nodedir, '/cache/node24');
    assert.equal(env.PATH, '/cache/node24/bin:/usr/local/bin:/usr/bin:/bin');
    assert.equal(env.HOME, '/root');
    assert.equal(env.MCPHOST_CACHE, '/tmp/cache');
  });

  it('gives a real nested npm the user agent of the Node first on PATH, not the outer one', function () {
    this.timeout(60_000);
    const work = mkdtempSync(path.join(tmpdir(), 'nested-npm-'));
    try {
      // A stand-in for the downloaded Node: a bin folder whose `node` is this one.
      const bin = path.join(work, 'node-dist', 'bin');
      mkdirSync(bin, { recursive: true });
      symlinkSync(process.execPath, path.join(bin, 'node'));
      const project = path.join(work, 'project');
      mkdirSync(project);
      writeFileSync(
        path.join(project, 'package.json'),
        JSON.stringify({
          name: 'probe',
          private: true,
          scripts: {
            probe:
              'node -e "console.log(JSON.stringify({ ua: process.env.npm_config_user_agent, nodedir: process.env.npm_config_nodedir, prefix: process.env.npm_config_prefix ?? null }))"',
          },
        }),
      );
      const outer = { ...process.env, ...OUTER_NPM_RUN, PATH: process.env.PATH };
      const out = execFileSync('npm', ['run', '--silent', 'probe'], {
        cwd: project,
        env: nestedNpmEnvironment(outer, path.join(bin, 'node')),
        encoding: 'utf8',
      });
      const seen = JSON.parse(out.trim().split('\n').pop()!) as { ua: string; nodedir: string; prefix: string | null };
      assert.match(seen.ua, new RegExp(`node/${process.version.replace(/\./g, '\\.')} `));
      assert.doesNotMatch(seen.ua, /outer/);
      assert.equal(seen.nodedir, path.join(work, 'node-dist'));
      assert.notEqual(seen.prefix, '/outer/prefix');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
