import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CommandNotFoundError, ExecutableResolver } from '../../../src/core/process/executableResolver';
import { tempDir } from '../../support/tempDir';

describe('ExecutableResolver', () => {
  const dir = tempDir('mcp-path-');
  const bin = path.join(dir, 'login-bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'only-in-login-shell'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(bin, 'only-in-login-shell'), 0o755);
  writeFileSync(path.join(bin, 'not-executable'), 'data');
  // A login shell whose profile prints noise and sets a PATH the editor process does not have.
  const shell = path.join(dir, 'fake-login-shell');
  writeFileSync(shell, `#!/bin/sh\necho "welcome banner"\nPATH="${bin}:/usr/bin:/bin"\nexport PATH\neval "$2"\n`);
  chmodSync(shell, 0o755);

  it('finds commands on the login shell PATH even when the editor PATH lacks them', async () => {
    const resolver = new ExecutableResolver({ SHELL: shell, PATH: '/usr/bin' }, 'linux');
    assert.equal(await resolver.resolve('only-in-login-shell', undefined), path.join(bin, 'only-in-login-shell'));
    assert.equal((await resolver.searchPath()).split(':')[0], bin);
  });

  it('reads the login shell once and caches the PATH', async () => {
    const resolver = new ExecutableResolver({ SHELL: shell, PATH: '/usr/bin' }, 'linux');
    const first = resolver.searchPath();
    assert.equal(resolver.searchPath(), first);
  });

  it('says which command is missing and which PATH it searched', async () => {
    const resolver = new ExecutableResolver({ SHELL: shell, PATH: '/usr/bin' }, 'linux');
    await assert.rejects(resolver.resolve('npx-missing', undefined), (error: unknown) => {
      assert.ok(error instanceof CommandNotFoundError);
      assert.equal(
        error.message,
        `command \`npx-missing\` not found (searched PATH: ${bin}:/usr/bin:/bin). Install it, or set "command" to its full path.`,
      );
      return true;
    });
    await assert.rejects(resolver.resolve('not-executable', undefined), CommandNotFoundError);
  });

  it('names what provides a missing launcher servers are often started with, and where to get it', async () => {
    const resolver = new ExecutableResolver({ SHELL: shell, PATH: '/usr/bin' }, 'linux');
    const missing = async (command: string) => {
      const error = await resolver.resolve(command, undefined).then(
        () => assert.fail(`${command} was found`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof CommandNotFoundError);
      return error;
    };
    const uvx = await missing('uvx');
    assert.equal(
      uvx.message,
      `command \`uvx\` not found (searched PATH: ${bin}:/usr/bin:/bin). Install uv (https://docs.astral.sh/uv/), which provides it, or set "command" to its full path.`,
    );
    assert.equal(uvx.inFewWords, 'uvx not found: install uv');
    const deno = await missing('deno');
    assert.match(deno.message, /\. Install Deno \(https:\/\/deno\.com\), or set "command" to its full path\.$/);
    assert.equal(deno.inFewWords, 'deno not found: install Deno');
    const other = await missing('npx-missing');
    assert.equal(other.inFewWords, 'npx-missing not found on PATH');
    // A program named like an object's own property is no launcher MCP Host knows.
    assert.equal((await missing('constructor')).inFewWords, 'constructor not found on PATH');
    assert.equal((await missing('./nope')).inFewWords, './nope not found or not executable');
  });

  it('says how to split a whole command line written in "command" when its program exists', async () => {
    const resolver = new ExecutableResolver({ SHELL: shell, PATH: '/usr/bin' }, 'linux');
    await assert.rejects(resolver.resolve('only-in-login-shell -y @modelcontextprotocol/server-memory', undefined), {
      name: 'CommandNotFoundError',
      message:
        'command `only-in-login-shell -y @modelcontextprotocol/server-memory` not found: "command" names the program alone and "args" its arguments; write "command": "only-in-login-shell", "args": ["-y","@modelcontextprotocol/server-memory"]',
    });
    // A program that is missing too, or a line with quotes (which a split by spaces would get wrong), gets the plain message.
    await assert.rejects(resolver.resolve('npx-missing -y x', undefined), /not found \(searched PATH: /);
    await assert.rejects(
      resolver.resolve("only-in-login-shell --name 'a b'", undefined),
      /not found \(searched PATH: /,
    );
  });

  it('resolves relative paths against the working directory', async () => {
    const resolver = new ExecutableResolver({ PATH: '' }, 'linux');
    assert.equal(await resolver.resolve('./login-bin/only-in-login-shell', dir), path.join(bin, 'only-in-login-shell'));
    await assert.rejects(resolver.resolve('./nope', dir), /command `.\/nope` not found or not executable/);
  });

  it('tries PATHEXT extensions for Windows .cmd shims', async () => {
    writeFileSync(path.join(bin, 'npx.CMD'), '@echo off');
    const resolver = new ExecutableResolver({ PATH: bin, PATHEXT: '.EXE;.CMD' }, 'win32');
    assert.equal(await resolver.resolve('npx', undefined), path.join(bin, 'npx.CMD'));
  });
});
