import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory } from '../../core/host/hostPorts';
import { sameEntries } from '../../core/view/sameEntries';
import { reasonOf, stateOf } from './serverReason';

/**
 * `MCP 16 ready · 2 running` in the status bar: servers that answer the next call (running, or
 * starting at their first use) and those running now (`MCP 3 running` when every ready one runs);
 * `· 1 failing`, on a warning background, when one is in error.
 */
export class StatusBarSummary implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: { dispose(): void };
  /** Each server as the item shows it, in the host's order (disabled ones count for nothing). */
  private readonly lines = new Map<string, ServerLine | undefined>();

  constructor(private readonly host: ServerDirectory) {
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
    const running = servers.filter((s) => s.running).length;
    const failing = servers.filter((s) => s.failing).length;
    const parts = [
      ready === running
        ? vscode.l10n.t('{0} running', running)
        : vscode.l10n.t('{0} ready · {1} running', ready, running),
      ...(failing ? [vscode.l10n.t('{0} failing', failing)] : []),
    ];
    this.item.text = `$(${failing ? 'warning' : 'plug'}) MCP ${parts.join(' · ')}`;
    this.item.backgroundColor = failing ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(
      vscode.l10n.t('Ready: running, or starting at its first use. {0} of {1} servers.', ready, servers.length) +
        '\n\n',
    );
    for (const s of servers) tooltip.appendText(`${s.text}\n\n`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = {
      label: vscode.l10n.t(
        'MCP: {0} of {1} servers ready, {2} running, {3} failing',
        ready,
        servers.length,
        running,
        failing,
      ),
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
  /** Running for use (not only to learn its lists). */
  readonly running: boolean;
  readonly failing: boolean;
}

function lineOf(s: ServerSnapshot): ServerLine | undefined {
  if (s.status === 'disabled') return undefined;
  // The state as the row and its tooltip say it, and why when the state alone does not say it.
  const state = stateOf(s);
  const reason = reasonOf(s);
  const text = `${s.id}: ${!reason ? state : reason.startsWith(state) ? reason : `${state} — ${reason}`}`;
  return {
    text,
    running: s.status === 'running' && !s.learning,
    ready: s.status === 'running' || s.startsWhenNeeded === true || s.learning === true,
    failing: s.status === 'error' || s.status === 'invalid' || !!s.configError,
  };
}

const sameLine = (a: ServerLine | undefined, b: ServerLine | undefined) =>
  a === b ||
  (!!a && !!b && a.text === b.text && a.ready === b.ready && a.running === b.running && a.failing === b.failing);
