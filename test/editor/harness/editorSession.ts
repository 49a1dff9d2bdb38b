// One real editor for a group of scenarios: code-server with MCP Host and the test-host extension,
// a workspace on disk, our HTTP fixture server, and Chromium driving the workbench.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { removeTempDir, tempDir } from '../../support/tempDir';
import { startCodeServer, type RunningCodeServer } from './codeServer';
import { ensureEditorInstall, type EditorInstall } from './editorInstall';
import { Workbench } from './workbench';
import { portOutsideEphemeralRange, waitFor } from '../../unit/support/fixtures';

export const REPO = path.resolve(__dirname, '../../../..');
export const OUT = path.join(REPO, 'out');
export const EXTENSION_VSIX = path.join(REPO, 'dist', 'mcp-host.vsix');
/** Where MCP Host keeps its code cache (src/bootstrap.ts), inside the editor's user data folder. */
export const CODE_CACHE_DIR = 'User/globalStorage/mcp-host.mcp-host/code-cache';

let install: EditorInstall | undefined;
const testHostVsixes = new Map<boolean, string>();

export function editorInstall(): EditorInstall {
  install ??= ensureEditorInstall();
  return install;
}

/**
 * Packages the test-only extension (compiled by `npm run compile-tests`) into a .vsix; `alone`
 * drops its dependency on MCP Host, for a window without MCP Host.
 */
export function packageTestHost(alone = false): string {
  const made = testHostVsixes.get(alone);
  if (made) return made;
  const dir = tempDir('mcp-host-testhost-');
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'test/editor/testHost/package.json'), 'utf8')) as {
    extensionDependencies?: string[];
    contributes?: Record<string, unknown>;
  };
  if (alone) delete manifest.extensionDependencies;
  // The benchmark's floor servers (bench/cannedServer.ts): published only in its windows, as VS
  // Code waits for every contributed provider before it lists MCP tools.
  if (process.env.MCPHOST_BENCH_FLOOR)
    manifest.contributes = {
      ...manifest.contributes,
      mcpServerDefinitionProviders: [{ id: 'mcpHostTest.floor', label: 'Floor' }],
    };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, undefined, 2));
  for (const file of ['extension.js', 'fixtureChatModel.js'])
    copyFileSync(path.join(OUT, 'test/editor/testHost', file), path.join(dir, file));
  writeFileSync(path.join(dir, 'README.md'), '# MCP Host test host\nTest-only extension.\n');
  writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(path.join(dir, '.vscodeignore'), '*.vsix\n');
  const vsix = path.join(dir, 'mcp-host-test-host.vsix');
  execFileSync(
    path.join(REPO, 'node_modules/.bin/vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '-o', vsix],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  testHostVsixes.set(alone, vsix);
  return vsix;
}

export interface WorkspaceLayout {
  /** Folder names to create; the workspace file lists them in order. */
  readonly folders: readonly string[];
  /** `settings` of the .code-workspace file (workspace scope). */
  readonly settings: Record<string, unknown>;
  /** Files that exist before the editor opens (paths relative to the workspace root). */
  readonly files?: Readonly<Record<string, string>>;
}

export class EditorSession {
  private constructor(
    readonly codeServer: RunningCodeServer,
    readonly workbench: Workbench,
    readonly workspaceFile: string,
    readonly root: string,
    private readonly controlPort: number,
  ) {}

  static async start(
    layout: WorkspaceLayout,
    options: {
      trusted: boolean;
      userSettings?: Record<string, unknown>;
      env?: Record<string, string>;
      /** Leave MCP Host out (a window with only VS Code's built-in MCP, for benchmarks). */
      withoutMcpHost?: boolean;
      userDataFiles?: Readonly<Record<string, Uint8Array>>;
    },
  ): Promise<EditorSession> {
    if (!existsSync(EXTENSION_VSIX)) throw new Error(`${EXTENSION_VSIX} is missing: run \`npm run package\` first`);
    const root = tempDir('mcp-host-ws-');
    for (const folder of layout.folders) mkdirSync(path.join(root, folder), { recursive: true });
    for (const [file, text] of Object.entries(layout.files ?? {})) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const workspaceFile = path.join(root, 'test.code-workspace');
    writeWorkspace(workspaceFile, layout.folders, layout.settings);
    // The test-host extension of each new window listens on it again: no outgoing connection may take it meanwhile.
    const controlPort = await portOutsideEphemeralRange();
    const codeServer = await startCodeServer({
      install: editorInstall(),
      vsixes: options.withoutMcpHost ? [packageTestHost(true)] : [EXTENSION_VSIX, packageTestHost()],
      open: workspaceFile,
      trustWorkspaces: options.trusted,
      userSettings: options.userSettings,
      env: { ...options.env, MCPHOST_TEST_CONTROL_PORT: String(controlPort) },
      userDataFiles: options.userDataFiles,
    });
    const workbench = await Workbench.open(
      `${codeServer.url}?workspace=${encodeURIComponent(workspaceFile)}`,
      editorInstall().chromium,
    );
    return new EditorSession(codeServer, workbench, workspaceFile, root, controlPort);
  }

  /**
   * Opens a second window of this editor on another folder (made beside the first ones). Its
   * extension host answers the control channel only once the first window has gone.
   */
  async openWindow(folder: string): Promise<Workbench> {
    const folderPath = path.join(this.root, folder);
    mkdirSync(folderPath, { recursive: true });
    return this.workbench.anotherWindow(`${this.codeServer.url}?folder=${encodeURIComponent(folderPath)}`);
  }

  /** Rewrites the workspace settings on disk, as a user editing the file would. */
  writeSettings(folders: readonly string[], settings: Record<string, unknown>): void {
    writeWorkspace(this.workspaceFile, folders, settings);
  }

  /**
   * Reloads the window; returns once the new window's extension host answers the control channel.
   * A window whose new extension host has not come up after a minute is reloaded once more, as a
   * user looking at it would. (Two CI runs stalled here while the control port was an ephemeral
   * one: an outgoing connection had taken it during the reload; see portOutsideEphemeralRange.)
   */
  async reloadWindow(): Promise<void> {
    const before = await this.control<number>('extensionHostPid');
    // Each probe is bounded: a host that holds the port but never answers must not hang the wait.
    const restarted = async () =>
      (await this.control<number>('extensionHostPid', {}, 5_000, true).catch(() => before)) !== before;
    await this.workbench.reloadWindow();
    const came = await waitFor("the reloaded window's extension host", restarted, 60_000).then(
      () => true,
      () => false,
    );
    if (came) return;
    await this.workbench.screenshot('reload-stalled');
    await this.workbench.page.reload({ waitUntil: 'load', timeout: 90_000 });
    await waitFor('the extension host of the window reloaded again', restarted, 90_000).catch((error: Error) => {
      throw new Error(
        `${error.message}; the extension host before the reload was ${before}; listening on the control port ${this.controlPort}: ${this.controlPortListener()}`,
      );
    });
  }

  /** Which process listens on the control channel's port, as `ss` says (for a failure's message). */
  private controlPortListener(): string {
    try {
      return (
        execFileSync('ss', ['-ltnpH', `sport = :${this.controlPort}`], { encoding: 'utf8', timeout: 5_000 }).trim() ||
        'nothing'
      );
    } catch (error) {
      return `unknown (${(error as Error).message})`;
    }
  }

  /**
   * Asks the test-host extension (inside the editor) to do something; waits until it can answer.
   * With `bounded`, an answer that has not come by then fails too (not only a host not yet up).
   */
  async control<T>(op: string, args: Record<string, unknown> = {}, timeoutMs = 60_000, bounded = false): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      let response: { ok: boolean; result?: T; error?: string };
      try {
        const reply = await fetch(`http://127.0.0.1:${this.controlPort}/`, {
          method: 'POST',
          body: JSON.stringify({ op, args }),
          ...(bounded ? { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) } : {}),
        });
        response = (await reply.json()) as typeof response;
      } catch (error) {
        lastError = error; // the extension host is not up yet
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      if (!response.ok) throw new Error(`${op} failed inside the editor: ${response.error}`);
      return response.result as T;
    }
    throw new Error(`the test-host extension never answered ${op}: ${(lastError as Error)?.message}`);
  }

  async stop(): Promise<void> {
    // Close the window as a user would: servers stop first (some ignore SIGTERM and the end of
    // their input; a killed extension host would leave them to the next window's cleanup).
    const servers = await this.control<{ id: string }[]>('listServers', {}, 5_000, true).catch(() => []);
    for (const { id } of servers)
      await this.control('executeCommand', { command: 'mcpHost.stopServer', args: [id] }, 10_000, true).catch(
        () => undefined,
      );
    await this.workbench.close().catch(() => undefined);
    await this.codeServer.stop();
    removeTempDir(this.root);
  }
}

function writeWorkspace(file: string, folders: readonly string[], settings: Record<string, unknown>): void {
  writeFileSync(file, JSON.stringify({ folders: folders.map((f) => ({ path: f })), settings }, null, 2));
}
