import type { ReadResourceResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { contentBytes } from '../../core/resources/resourceContents';
import type { HostSettings, ResourceBrowsing, ServerCalls, ServerDirectory } from '../../core/host/hostPorts';
import {
  parseResourceAddress,
  partOf,
  RESOURCE_SCHEME,
  resourceAddress,
  resourceKey,
  type ResourceLocation,
} from '../../core/resources/resourceUris';
import { ResourceSubscriptions } from '../../core/resources/resourceSubscriptions';
import { whenServerRunning } from '../../core/host/serverReadiness';

/** A read that takes longer than this shows a notification that can cancel it. */
const SLOW_READ_MS = 1000;
/** How long a read waits for its server to start (after a window reload, say). */
const SERVER_START_WAIT_MS = 60_000;

/** The editor URI of a server's resource (read through {@link ResourceFileSystem}). */
export function resourceEditorUri(location: ResourceLocation, name?: string, mimeType?: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, ...resourceAddress(location, name, mimeType) });
}

/** One part (0-based) of a resource read in several; named after the part's own URI and type. */
export function resourcePartUri(
  location: ResourceLocation,
  part: number,
  partUri: string | undefined,
  mimeType?: string,
): vscode.Uri {
  return vscode.Uri.from({
    scheme: RESOURCE_SCHEME,
    ...resourceAddress(location, `part-${part + 1}`, mimeType, partUri, part),
  });
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
  /** What the last read learnt of each resource; `mtime` moves on every update notification. */
  private readonly stats = new Map<string, { ctime: number; mtime: number; size: number }>();
  /** The subscriptions, and the editor URIs watching each resource (an update reaches them all). */
  private readonly subscriptions: ResourceSubscriptions;
  private readonly partsOffered = new Set<string>();
  private readonly listener: { dispose(): void };

  constructor(
    private readonly host: ServerDirectory & ServerCalls & ResourceBrowsing & Pick<HostSettings, 'settingsApplied'>,
    private readonly log: (message: string) => void,
  ) {
    this.subscriptions = new ResourceSubscriptions(
      (serverId, uri) => host.subscribeResource(serverId, uri),
      (serverId, uri) => host.unsubscribeResource(serverId, uri),
    );
    this.listener = host.onDidUpdateResource(({ serverId, uri }) => {
      const editors = this.subscriptions.watchersOf(serverId, uri);
      if (editors.length === 0) return;
      const stat = this.stats.get(resourceKey({ serverId, uri }));
      if (stat) stat.mtime = Date.now();
      this.changes.fire(editors.map((e) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.parse(e) })));
    });
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const location = parseResourceAddress(uri.path, uri.query);
    if (!location) return new vscode.Disposable(() => undefined);
    const editor = uri.toString();
    this.subscriptions
      .open(location.serverId, location.uri, editor)
      .catch((error) => this.log(`Could not subscribe to ${location.uri}: ${(error as Error).message}`));
    let ended = false;
    return new vscode.Disposable(() => {
      if (ended) return;
      ended = true;
      this.subscriptions
        .close(location.serverId, location.uri, editor)
        .catch((error) => this.log(`Could not unsubscribe from ${location.uri}: ${(error as Error).message}`));
    });
  }

  /**
   * Answered from what the host knows, without a round trip: a resource not read yet gets the
   * current time and size 0 until its first read fills them in.
   */
  stat(uri: vscode.Uri): vscode.FileStat {
    const key = resourceKey(this.locate(uri));
    let known = this.stats.get(key);
    if (!known) {
      const now = Date.now();
      known = { ctime: now, mtime: now, size: 0 };
      this.stats.set(key, known);
    }
    return {
      type: vscode.FileType.File,
      ctime: known.ctime,
      mtime: known.mtime,
      size: known.size,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = this.locate(uri);
    const part = partOf(uri.query);
    const result = await this.read(location);
    const content = result.contents[part];
    if (!content)
      throw vscode.FileSystemError.FileNotFound(
        vscode.l10n.t(
          '{0} from MCP server "{1}" has no part {2} (it has {3}).',
          location.uri,
          location.serverId,
          part + 1,
          result.contents.length,
        ),
      );
    if (!new URLSearchParams(uri.query).has('part') && result.contents.length > 1)
      this.offerParts(location, result.contents);
    const bytes = contentBytes(content);
    const key = resourceKey(location);
    const now = Date.now();
    const known = this.stats.get(key);
    this.stats.set(key, { ctime: known?.ctime ?? now, mtime: known?.mtime ?? now, size: bytes.byteLength });
    return bytes;
  }

  /**
   * `resources/read` with the server's timeouts. A read that takes more than a moment shows a
   * notification with Cancel; a failure names the server and the resource.
   */
  private async read(location: ResourceLocation): Promise<ReadResourceResult> {
    const abort = new AbortController();
    const reading = (async () => {
      // Editors restored by a window reload read before their server runs: wait for it (bounded).
      if (this.host.server(location.serverId)?.status !== 'running')
        await whenServerRunning(this.host, location.serverId, SERVER_START_WAIT_MS, abort.signal);
      return this.host.readResource(location.serverId, location.uri, abort.signal);
    })();
    let settled = false;
    const slow = setTimeout(() => {
      if (settled) return;
      void vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Reading {0} from MCP server "{1}"…', location.uri, location.serverId),
          cancellable: true,
        },
        (_progress, token) => {
          token.onCancellationRequested(() => abort.abort(new Error('Cancelled')));
          return reading.catch(() => undefined);
        },
      );
    }, SLOW_READ_MS);
    try {
      return await reading;
    } catch (error) {
      if (abort.signal.aborted)
        throw vscode.FileSystemError.Unavailable(
          vscode.l10n.t('Reading {0} from MCP server "{1}" was cancelled.', location.uri, location.serverId),
        );
      // The editor's own placeholder cannot carry the reason: the notification does.
      const message = (error as Error).message.startsWith(`MCP server "${location.serverId}"`)
        ? (error as Error).message
        : vscode.l10n.t(
            'MCP server "{0}" could not read {1}: {2}',
            location.serverId,
            location.uri,
            (error as Error).message,
          );
      void vscode.window.showErrorMessage(message);
      throw vscode.FileSystemError.FileNotFound(message);
    } finally {
      settled = true;
      clearTimeout(slow);
    }
  }

  /** A resource in several parts opens on its first; the others are offered once per resource. */
  private offerParts(location: ResourceLocation, contents: ReadResourceResult['contents']): void {
    const key = resourceKey(location);
    if (this.partsOffered.has(key)) return;
    this.partsOffered.add(key);
    const other = vscode.l10n.t('Open Another Part…');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t(
          '{0} from MCP server "{1}" has {2} parts; the editor shows the first.',
          location.uri,
          location.serverId,
          contents.length,
        ),
        other,
      )
      .then(async (choice) => {
        if (choice !== other) return;
        const items = contents.map((content, index) => ({
          label: vscode.l10n.t('Part {0}', index + 1),
          description: [content.uri, content.mimeType].filter(Boolean).join(' · '),
          index,
          content,
        }));
        const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Parts of {0}', location.uri) });
        if (chosen)
          await vscode.commands.executeCommand(
            'vscode.open',
            resourcePartUri(location, chosen.index, chosen.content.uri, chosen.content.mimeType),
          );
      });
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
    const location = parseResourceAddress(uri.path, uri.query);
    if (!location) throw vscode.FileSystemError.FileNotFound(uri);
    return location;
  }

  dispose(): void {
    this.listener.dispose();
    this.changes.dispose();
  }
}
