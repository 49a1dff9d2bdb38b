import * as vscode from 'vscode';
import type { McpHost } from '../../core/host/mcpHost';
import { parseResourcePath, RESOURCE_SCHEME, resourcePath, type ResourceLocation } from '../../core/resources/resourceUris';
import { ResourceSubscriptions } from '../../core/resources/resourceSubscriptions';

/** The editor URI of a server's resource (read through {@link ResourceFileSystem}). */
export function resourceEditorUri(location: ResourceLocation, name?: string, mimeType?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: resourcePath(location, name, mimeType) });
}

/**
 * Servers' resources as read-only files on `mcp-host-resource:`: reading is `resources/read` (text as
 * UTF-8, blobs decoded), the extension in the name picks the language or the image preview, and
 * while an editor shows a resource the host subscribes to it (servers that take subscriptions)
 * and reloads it on `notifications/resources/updated`. Errors name the server and the resource.
 */
export class ResourceFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  /** Editor URIs watched per `server\0uri`, so an update reaches every editor of that resource. */
  private readonly watched = new Map<string, Set<string>>();
  /** What the last read learnt of each resource; `mtime` moves on every update notification. */
  private readonly stats = new Map<string, { ctime: number; mtime: number; size: number }>();
  private readonly subscriptions: ResourceSubscriptions;
  private readonly listener: { dispose(): void };

  constructor(
    private readonly host: McpHost,
    private readonly log: (message: string) => void,
  ) {
    this.subscriptions = new ResourceSubscriptions(
      (serverId, uri) => host.subscribeResource(serverId, uri),
      (serverId, uri) => host.unsubscribeResource(serverId, uri),
    );
    this.listener = host.onDidUpdateResource(({ serverId, uri }) => {
      const key = keyOf({ serverId, uri });
      const editors = this.watched.get(key);
      if (!editors) return;
      const stat = this.stats.get(key);
      if (stat) stat.mtime = Date.now();
      this.changes.fire([...editors].map((e) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.parse(e) })));
    });
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const location = parseResourcePath(uri.path);
    if (!location) return new vscode.Disposable(() => undefined);
    const key = keyOf(location);
    const editors = this.watched.get(key) ?? new Set<string>();
    this.watched.set(key, editors);
    editors.add(uri.toString());
    this.subscriptions.open(location.serverId, location.uri).catch((error) => this.log(`Could not subscribe to ${location.uri}: ${(error as Error).message}`));
    return new vscode.Disposable(() => {
      editors.delete(uri.toString());
      if (editors.size === 0) this.watched.delete(key);
      this.subscriptions.close(location.serverId, location.uri).catch((error) => this.log(`Could not unsubscribe from ${location.uri}: ${(error as Error).message}`));
    });
  }

  /**
   * Answered from what the host knows, without a round trip: a resource not read yet gets the
   * current time and size 0 until its first read fills them in.
   */
  stat(uri: vscode.Uri): vscode.FileStat {
    const key = keyOf(this.locate(uri));
    let known = this.stats.get(key);
    if (!known) {
      const now = Date.now();
      known = { ctime: now, mtime: now, size: 0 };
      this.stats.set(key, known);
    }
    return { type: vscode.FileType.File, ctime: known.ctime, mtime: known.mtime, size: known.size, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = this.locate(uri);
    const part = Number(new URLSearchParams(uri.query).get('part') ?? 0);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0} from {1}', location.uri, location.serverId) },
      async () => {
        try {
          return await this.host.readResource(location.serverId, location.uri);
        } catch (error) {
          throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('MCP server "{0}" could not read {1}: {2}', location.serverId, location.uri, (error as Error).message));
        }
      },
    );
    const content = result.contents[part];
    if (!content) throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('{0} from MCP server "{1}" has no part {2} (it has {3}).', location.uri, location.serverId, part, result.contents.length));
    const bytes = 'blob' in content && typeof content.blob === 'string' ? Buffer.from(content.blob, 'base64') : Buffer.from(String((content as { text?: string }).text ?? ''), 'utf8');
    const key = keyOf(location);
    const now = Date.now();
    const known = this.stats.get(key);
    this.stats.set(key, { ctime: known?.ctime ?? now, mtime: known?.mtime ?? now, size: bytes.byteLength });
    return bytes;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('MCP resources are read-only.'));
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('MCP resources are read-only.'));
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('MCP resources are read-only.'));
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('MCP resources are read-only.'));
  }

  private locate(uri: vscode.Uri): ResourceLocation {
    const location = parseResourcePath(uri.path);
    if (!location) throw vscode.FileSystemError.FileNotFound(uri);
    return location;
  }

  dispose(): void {
    this.listener.dispose();
    this.changes.dispose();
  }
}

const keyOf = (location: ResourceLocation) => `${location.serverId}\u0000${location.uri}`;
