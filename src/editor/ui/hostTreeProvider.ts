import * as vscode from 'vscode';
import type { ServerDirectory } from '../../core/host/hostPorts';

/** A tree over the host's servers that redraws whenever a server or its lists change. */
export abstract class HostTreeProvider<Node, Host extends ServerDirectory = ServerDirectory>
  implements vscode.TreeDataProvider<Node>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<Node | Node[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(protected readonly host: Host) {
    // list_changed refreshes a server's lists, which fires this too.
    this.subscription = host.onDidChangeServers((serverId) => this.hostChanged(serverId));
  }

  /**
   * A server or its lists changed (`serverId`; `undefined`: any server, or which servers there
   * are): redraws the whole tree, unless the tree knows which rows changed.
   */
  protected hostChanged(_serverId?: string): void {
    this.refresh();
  }

  /** Redraws these rows (each with its children), or the whole tree. */
  protected refresh(rows?: Node[]): void {
    if (rows?.length === 0) return;
    this.changed.fire(rows);
  }

  abstract getChildren(node?: Node): Node[] | Promise<Node[]>;
  abstract getTreeItem(node: Node): vscode.TreeItem;

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
