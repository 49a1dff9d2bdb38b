import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServerSettingsEntry } from '../../core/config/serverDefinition';
import {
  convertHostConfig,
  HOST_NAMES,
  sameServer,
  type HostConfigConversion,
  type ServerIdentity,
} from '../../core/config/otherHostConfigs';
import { importSources, type ImportSource } from './serverImport';

/** A server of VS Code's built-in MCP support: which file, under which name. */
export interface BuiltInServer {
  readonly id: string;
  /** The file, as the user knows it (`.vscode/mcp.json` of a folder, or the user's mcp.json path). */
  readonly file: string;
  readonly identity: ServerIdentity;
}

/** Servers read live from other hosts' files, to run beside `mcpHost.servers`. */
export interface LiveServers {
  readonly entries: ServerSettingsEntry[];
  /** Literal secrets of those files, by the `${input:}` id their entries use instead. */
  readonly secrets: ReadonlyMap<string, string>;
  /** What was left out, and why. */
  readonly notes: string[];
}

interface ReadFile {
  readonly source: ImportSource;
  /** As the user knows it: relative to the workspace for a folder's file. */
  readonly file: string;
  readonly conversion: HostConfigConversion;
}

/**
 * The configuration files of other hosts (VS Code's own MCP support, Claude Desktop, Cursor,
 * Claude Code, Copilot CLI, Gemini CLI, Windsurf, Cline, Codex, Zed), read again when they change: to say in the Servers view that a server is in
 * VS Code's built-in MCP support too (it would run twice), to offer their import, and with
 * `mcpHost.otherHosts.readLive` to run their servers as they are.
 */
export class OtherHostFiles implements vscode.Disposable {
  private files: readonly ReadFile[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private reading = Promise.resolve();

  constructor(private readonly userDataDir: string | undefined) {
    const read = () => void this.read();
    const watchers = [
      vscode.workspace.createFileSystemWatcher(
        '**/{.vscode/mcp.json,.cursor/mcp.json,.mcp.json,.gemini/settings.json,.zed/settings.json}',
      ),
    ];
    for (const source of importSources(userDataDir).filter((s) => !s.folder)) {
      watchers.push(
        vscode.workspace.createFileSystemWatcher(
          new vscode.RelativePattern(
            vscode.Uri.file(path.dirname(source.uri.fsPath)),
            path.basename(source.uri.fsPath),
          ),
        ),
      );
    }
    for (const watcher of watchers)
      this.disposables.push(watcher, watcher.onDidCreate(read), watcher.onDidChange(read), watcher.onDidDelete(read));
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(read), this.changed);
    read();
  }

  /** The workspace folders' `.vscode/mcp.json` files that exist. */
  workspaceFiles(): readonly ImportSource[] {
    return this.files.filter((f) => f.source.host === 'vscode' && f.source.folder).map((f) => f.source);
  }

  /** The built-in's server that runs the same thing as `ours`, if there is one. */
  sameAs(ours: ServerIdentity): BuiltInServer | undefined {
    for (const { source, file, conversion } of this.files) {
      if (source.host !== 'vscode') continue;
      const found = conversion.servers.find((s) => sameServer(s.entry as ServerIdentity, ours));
      if (found) return { id: found.id, file, identity: found.entry as ServerIdentity };
    }
    return undefined;
  }

  /**
   * The servers of every file, except those `configured` has (by id, or running the same thing)
   * and those that could not be converted; a folder's file is that folder's (workspace consent),
   * a user's file the user's.
   */
  liveServers(configured: readonly ServerSettingsEntry[]): LiveServers {
    const entries: ServerSettingsEntry[] = [];
    const secrets = new Map<string, string>();
    const notes: string[] = [];
    const taken = new Map<string, string>(configured.map((e) => [e.id, '"mcpHost.servers"']));
    const identities = configured.map((e) => ({ id: e.id, identity: (e.raw ?? {}) as ServerIdentity }));
    for (const { source, file, conversion } of this.files) {
      const origin = { host: HOST_NAMES[source.host], file, path: source.uri.fsPath };
      for (const problem of conversion.problems) notes.push(`${origin.host} · ${file}: ${problem}`);
      for (const server of conversion.servers) {
        const at = `${origin.host} · ${file}, "${server.id}"`;
        if (Object.keys(server.entry).length === 0) {
          notes.push(`${at} is left out: ${server.skipped.join('; ')}`);
          continue;
        }
        const same = identities.find((c) => sameServer(c.identity, server.entry as ServerIdentity));
        if (taken.has(server.id) || same) {
          notes.push(
            `${at} is left out: ${same ? `"${same.id}" runs the same server` : `the id is taken by ${taken.get(server.id)}`}`,
          );
          continue;
        }
        for (const skipped of server.skipped) notes.push(`${at}: ${skipped}`);
        taken.set(server.id, `${origin.host} · ${file}`);
        identities.push({ id: server.id, identity: server.entry as ServerIdentity });
        const folder = source.folder;
        entries.push({
          id: server.id,
          scope: folder ? (vscode.workspace.workspaceFile ? 'folder' : 'workspace') : 'user',
          folder: folder ? { name: folder.name, path: folder.uri.fsPath } : undefined,
          raw: server.entry,
          origin,
        });
        for (const [id, value] of Object.entries(server.secrets)) secrets.set(id, value);
      }
    }
    return { entries, secrets, notes };
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
      const files: ReadFile[] = [];
      for (const source of importSources(this.userDataDir)) {
        let text: string;
        try {
          text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source.uri));
        } catch {
          continue;
        }
        const file = source.folder ? vscode.workspace.asRelativePath(source.uri) : source.uri.fsPath;
        files.push({ source, file, conversion: convertHostConfig(source.host, text) });
      }
      this.files = files;
      this.changed.fire();
    });
    return this.reading;
  }
}
