import * as vscode from 'vscode';
import type { McpHost } from '../core/host/mcpHost';

/** A tree over the host's servers that redraws whenever a server or its lists change. */
export abstract class HostTreeProvider<Node> implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(protected readonly host: McpHost) {
    // list_changed refreshes a server's lists, which fires this too.
    this.subscription = host.onDidChangeServers(() => this.changed.fire(undefined));
  }

  /** Redraws the whole tree. */
  protected refresh(): void {
    this.changed.fire(undefined);
  }

  abstract getChildren(node?: Node): Node[] | Promise<Node[]>;
  abstract getTreeItem(node: Node): vscode.TreeItem;

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
