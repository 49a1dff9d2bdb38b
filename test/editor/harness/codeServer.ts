// Runs a real VS Code (code-server) on 127.0.0.1 with our extensions installed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { removeTempDir, tempDir } from '../../support/tempDir';
import { freePort } from '../../unit/support/fixtures';
import type { EditorInstall } from './editorInstall';

const run = promisify(execFile);

export interface CodeServerOptions {
  readonly install: EditorInstall;
  readonly vsixes: readonly string[];
  /** A folder, or a `.code-workspace` file. */
  readonly open: string;
  readonly trustWorkspaces: boolean;
  readonly userSettings?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  /** Keep the same profile across launches (the demo); tests use a fresh one each time. */
  readonly profileDir?: string;
  /** Files written into the user data folder before the editor starts (path inside it → content). */
  readonly userDataFiles?: Readonly<Record<string, Uint8Array>>;
  /** A fixed port (the demo); tests take a free one. */
  readonly port?: number;
}

export interface RunningCodeServer {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  readonly userDataDir: string;
  readonly logs: string[];
  stop(): Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
  const profile = options.profileDir ?? tempDir('mcp-host-editor-');
  const userDataDir = path.join(profile, 'user-data');
  const extensionsDir = path.join(profile, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  for (const [file, content] of Object.entries(options.userDataFiles ?? {})) {
    mkdirSync(path.dirname(path.join(userDataDir, file)), { recursive: true });
    writeFileSync(path.join(userDataDir, file), content);
  }
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'chat.disableAIFeatures': true,
        'window.restoreWindows': 'none',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'git.openRepositoryInParentFolders': 'never',
        // The suites try what running servers do, so theirs start with the window; what the
        // default (first use, lists learned in the background) does is tried in onDemand.test.ts,
        // which sets this to undefined (left out of the file).
        'mcpHost.autoStart': 'startup',
        ...options.userSettings,
      },
      null,
      2,
    ),
  );
  for (const vsix of options.vsixes) {
    await run(options.install.node, [
      options.install.codeServerEntry,
      '--install-extension',
      vsix,
      '--force',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
    ]);
  }
  const port = options.port ?? (await freePort());
  const args = [
    options.install.codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    // A reloaded page whose goodbye to its extension host was lost leaves that host waiting for it
    // to come back (three hours by default; five minutes once another page connects), holding the
    // control port the new window's host needs (a CI run stalled so). Thirty seconds is plenty for
    // a page on this machine to come back.
    '--reconnection-grace-time',
    '30',
    '--extensions-dir',
    extensionsDir,
    '--user-data-dir',
    userDataDir,
    ...(options.trustWorkspaces ? ['--disable-workspace-trust'] : []),
    options.open,
  ];
  const child = spawn(options.install.node, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs: string[] = [];
  const collect = (chunk: Buffer) => logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${logs.join('\n')}`)), 60_000);
    const check = () => {
      if (logs.some((l) => l.includes('HTTP server listening'))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`code-server exited with ${code}:\n${logs.join('\n')}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    port,
    process: child,
    userDataDir,
    logs,
    stop: async () => {
      await stopProcessGroup(child);
      // A test's fresh profile (about 7 MB: extensions, logs, state) goes with its editor.
      if (!options.profileDir) removeTempDir(profile);
    },
  };
}

/** code-server forks the extension host and more; end the whole group, then wait. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
  await Promise.race([exited, timeout]);
  // Whatever code-server left behind in its group (helpers, a wedged extension host) goes too.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}
