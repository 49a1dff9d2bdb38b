import * as vscode from 'vscode';
import { convertHostConfig, sameServer, type ServerIdentity } from '../core/config/otherHostConfigs';
import { importSources, type ImportSource } from './serverImport';

/** A server of VS Code's built-in MCP support: which file, under which name. */
export interface BuiltInServer {
  readonly id: string;
  /** The file, as the user knows it (`.vscode/mcp.json` of a folder, or the user's mcp.json path). */
  readonly file: string;
  readonly identity: ServerIdentity;
}

/**
 * The servers VS Code's own MCP support is configured with (each folder's `.vscode/mcp.json`
 * and the user's `mcp.json`), read again when those files change: to say in the Servers view
 * that a server is configured in both places (it would run twice), and to offer their import.
 */
export class BuiltInMcpServers implements vscode.Disposable {
  private servers: readonly BuiltInServer[] = [];
  private files: readonly ImportSource[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private reading = Promise.resolve();

  constructor(private readonly userDataDir: string | undefined) {
    const watchers = [vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json')];
    if (userDataDir) watchers.push(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(userDataDir), 'mcp.json')));
    const read = () => void this.read();
    for (const watcher of watchers) this.disposables.push(watcher, watcher.onDidCreate(read), watcher.onDidChange(read), watcher.onDidDelete(read));
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(read), this.changed);
    read();
  }

  /** The workspace folders' `.vscode/mcp.json` files that exist. */
  workspaceFiles(): readonly ImportSource[] {
    return this.files.filter((s) => s.folder);
  }

  /** The built-in's server that runs the same thing as `ours`, if there is one. */
  sameAs(ours: ServerIdentity): BuiltInServer | undefined {
    return this.servers.find((s) => sameServer(s.identity, ours));
  }

  /** Resolves once the files as they are now have been read (tests, and the first render). */
  ready(): Promise<void> {
    return this.reading;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private read(): Promise<void> {
    this.reading = this.reading.then(async () => {
      const files: ImportSource[] = [];
      const servers: BuiltInServer[] = [];
      for (const source of importSources(this.userDataDir).filter((s) => s.host === 'vscode')) {
        let text: string;
        try {
          text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source.uri));
        } catch {
          continue;
        }
        files.push(source);
        const file = source.folder ? vscode.workspace.asRelativePath(source.uri) : source.uri.fsPath;
        for (const server of convertHostConfig('vscode', text).servers) {
          const entry = server.entry as ServerIdentity;
          if (entry.command !== undefined || entry.url !== undefined) servers.push({ id: server.id, file, identity: entry });
        }
      }
      this.files = files;
      this.servers = servers;
      this.changed.fire();
    });
    return this.reading;
  }
}
