import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { McpHost } from '../../core/host/mcpHost';
import { sameEntries } from '../../core/view/sameEntries';
import { reasonOf } from './serverReason';

/** `MCP 3/4` in the status bar: servers ready (running, or starting at their first use) over enabled ones; warns when one is in error. */
export class StatusBarSummary implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: { dispose(): void };
  /** Each server as the item shows it, in the host's order (disabled ones count for nothing). */
  private readonly lines = new Map<string, ServerLine | undefined>();

  constructor(private readonly host: McpHost) {
    this.item.name = vscode.l10n.t('MCP Servers');
    this.item.command = 'mcpHost.servers.focus';
    this.subscription = host.onDidChangeServers((id) => this.update(id));
    this.update();
  }

  /** Looks at the server that changed (`id`), or at every server when the set may have changed. */
  private update(id?: string): void {
    const one = id === undefined || !this.lines.has(id) ? undefined : this.host.server(id);
    if (one) {
      const line = lineOf(one);
      // Most changes (a server's lists, its log level) change nothing here; each setting of the
      // item is a message to the window.
      if (sameLine(line, this.lines.get(one.id))) return;
      this.lines.set(one.id, line);
    } else {
      const before = [...this.lines];
      this.lines.clear();
      for (const server of this.host.servers()) this.lines.set(server.id, lineOf(server));
      if (sameEntries(before, [...this.lines], sameLine)) return;
    }
    this.show();
  }

  private show(): void {
    const servers = [...this.lines.values()].filter((line) => line !== undefined);
    if (servers.length === 0) {
      this.item.hide();
      return;
    }
    // A server that starts at its first use is as ready as one that runs: both answer the next call.
    const ready = servers.filter((s) => s.ready).length;
    const failing = servers.some((s) => s.failing);
    this.item.text = `$(${failing ? 'warning' : 'plug'}) MCP ${ready}/${servers.length}`;
    this.item.backgroundColor = failing ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString();
    for (const s of servers) tooltip.appendText(`${s.text}\n\n`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = {
      label: vscode.l10n.t('MCP: {0} of {1} servers ready', ready, servers.length),
    };
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** What the item shows of one server. */
interface ServerLine {
  readonly text: string;
  /** Running, or stopped until its first use. */
  readonly ready: boolean;
  readonly failing: boolean;
}

function lineOf(s: ServerSnapshot): ServerLine | undefined {
  if (s.status === 'disabled') return undefined;
  // A server that waits for its first use is not "stopped" to the user: it says so as the view does.
  const text = s.startsWhenNeeded
    ? `${s.id}: ${reasonOf(s) ?? vscode.l10n.t('starts when needed')}`
    : `${s.id}: ${s.status}${reasonOf(s) ? ` — ${reasonOf(s)}` : ''}`;
  return {
    text,
    ready: s.status === 'running' || s.startsWhenNeeded === true || s.learning === true,
    failing: s.status === 'error' || s.status === 'invalid' || !!s.configError,
  };
}

const sameLine = (a: ServerLine | undefined, b: ServerLine | undefined) =>
  a === b || (!!a && !!b && a.text === b.text && a.ready === b.ready && a.failing === b.failing);
