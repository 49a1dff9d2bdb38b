import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DevSettings, ServerDefinition } from '../../core/config/serverDefinition';
import type { ServerLog } from '../../core/connection/serverLog';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { spawnsProcess } from '../../core/config/transportKinds';

interface Watch {
  readonly key: string;
  readonly disposables: vscode.Disposable[];
  timer?: ReturnType<typeof setTimeout>;
  changed?: string;
}

/**
 * Dev mode (`dev.watch`): for each running-or-starting server that has it, watches its files and
 * restarts the server once the changes settle (`debounceMs`). Requests in flight are told why
 * ("restarting for a change in src/tools.ts"); a server the user stopped stays stopped. With
 * `dev.debug` the editor's debugger attaches to a Node server's inspector each time it starts.
 */
export class DevModeWatcher implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();
  private readonly listener: { dispose(): void };
  private readonly debugListener: { dispose(): void };

  constructor(
    private readonly host: ServerDirectory & Pick<ServerLifecycle, 'restart' | 'onDebuggerListening'>,
    private readonly logFor: (id: string) => ServerLog,
  ) {
    this.listener = host.onDidChangeServers((id) => this.update(id));
    this.debugListener = host.onDebuggerListening((e) => void this.attach(e.serverId, e.address));
    this.update();
  }

  dispose(): void {
    this.listener.dispose();
    this.debugListener.dispose();
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }

  /** Watches what the servers' dev settings say: of the server that changed (`only`), or of every server. */
  private update(only?: string): void {
    const wanted = new Map<string, ServerDefinition>();
    const all = this.host.serverIds();
    const ids = only !== undefined && all.includes(only) ? [only] : all;
    for (const id of ids) {
      const definition = this.host.definition(id);
      if (definition?.dev?.watch.length && spawnsProcess(definition.transport)) wanted.set(id, definition);
    }
    for (const id of ids === all ? [...this.watches.keys()] : ids) if (!wanted.has(id)) this.unwatch(id);
    for (const [id, definition] of wanted) {
      const base = baseFolder(definition);
      const key = JSON.stringify([definition.dev, base]);
      if (this.watches.get(id)?.key === key || !base) continue;
      this.unwatch(id);
      this.watch(id, definition.dev!, base, key);
    }
  }

  private watch(id: string, dev: DevSettings, base: string, key: string): void {
    const watch: Watch = { key, disposables: [] };
    const changed = (uri: vscode.Uri) => {
      watch.changed = path.relative(base, uri.fsPath) || uri.fsPath;
      clearTimeout(watch.timer);
      watch.timer = setTimeout(() => void this.restart(id, watch), dev.debounceMs);
    };
    for (const glob of dev.watch) {
      const watcher = vscode.workspace.createFileSystemWatcher(watchPattern(base, glob));
      watch.disposables.push(
        watcher,
        watcher.onDidChange(changed),
        watcher.onDidCreate(changed),
        watcher.onDidDelete(changed),
      );
    }
    this.watches.set(id, watch);
    this.logFor(id).info(`Dev mode: watching ${dev.watch.join(', ')} under ${base}; a change restarts the server.`);
  }

  private async restart(id: string, watch: Watch): Promise<void> {
    const status = this.host.server(id)?.status;
    // A server the user stopped (or that never started) is not started by a save.
    if (status !== 'running' && status !== 'starting' && status !== 'error' && status !== 'restarting') return;
    const reason = vscode.l10n.t('restarting for a change in {0}', watch.changed ?? '?');
    this.logFor(id).info(`Dev mode: ${reason}.`);
    await this.host
      .restart(id, reason)
      .catch((error: unknown) => this.logFor(id).warn(`Dev mode: the restart failed: ${(error as Error).message}`));
  }

  /** `dev.debug`: the editor's JavaScript debugger attaches to the server's inspector (after each start). */
  private async attach(id: string, address: string): Promise<void> {
    const definition = this.host.definition(id);
    const folder = definition?.folder
      ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(definition.folder.path))
      : vscode.workspace.workspaceFolders?.[0];
    this.logFor(id).info(`Dev mode: the debugger attaches to ${address}.`);
    const started = await Promise.resolve(
      vscode.debug.startDebugging(folder, {
        type: 'node',
        request: 'attach',
        name: vscode.l10n.t('MCP server {0}', id),
        websocketAddress: address,
        skipFiles: ['<node_internals>/**'],
      }),
    ).catch((error: unknown) => {
      this.logFor(id).warn(`Dev mode: the debugger could not attach: ${(error as Error).message}`);
      return false;
    });
    if (!started)
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The debugger could not attach to MCP server "{0}" ({1}). Is the JavaScript debugger enabled?',
          id,
          address,
        ),
      );
  }

  private unwatch(id: string): void {
    const watch = this.watches.get(id);
    if (!watch) return;
    clearTimeout(watch.timer);
    for (const d of watch.disposables) d.dispose();
    this.watches.delete(id);
  }
}

/** Where a server's relative globs start: an absolute `cwd` without variables, else its folder, else the first workspace folder. */
function baseFolder(definition: ServerDefinition): string | undefined {
  if (definition.cwd && path.isAbsolute(definition.cwd) && !definition.cwd.includes('${')) return definition.cwd;
  return definition.folder?.path ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/**
 * The pattern for one glob: relative to the workspace folder that holds it when there is one, so
 * the editor's own recursive workspace watcher serves it (a pattern on a bare folder gets a
 * watcher of its own, which in some editors does not see into new subfolders).
 */
function watchPattern(base: string, glob: string): vscode.RelativePattern {
  const absolute = path.isAbsolute(glob) ? glob : path.join(base, glob);
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(absolute));
  if (folder)
    return new vscode.RelativePattern(folder, path.relative(folder.uri.fsPath, absolute).split(path.sep).join('/'));
  return path.isAbsolute(glob)
    ? new vscode.RelativePattern(vscode.Uri.file(path.dirname(glob)), path.basename(glob))
    : new vscode.RelativePattern(vscode.Uri.file(base), glob);
}
