import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerDirectory } from '../../core/host/hostPorts';
import type { TaskStatus, TaskTracker, TaskView } from '../../core/tasks/taskTracker';
import { showToolResult, type ResourceOpener } from '../tools/toolResultPanel';
import { plainMarkdown } from '../ui/plainMarkdown';

const ICONS: Record<TaskStatus, [string, string?]> = {
  working: ['loading~spin'],
  input_required: ['question', 'editorWarning.foreground'],
  completed: ['pass-filled', 'testing.iconPassed'],
  failed: ['error', 'errorForeground'],
  cancelled: ['circle-slash', 'disabledForeground'],
  expired: ['watch', 'editorWarning.foreground'],
  lost: ['warning', 'editorWarning.foreground'],
};
const RUNNING = new Set<TaskStatus>(['working', 'input_required']);
/** The view redraws at most this often (and this often while a task runs, for elapsed times). */
const REDRAW_MS = 1_000;

/** The MCP Tasks view: every task across servers, newest first, with Cancel and Open Result. */
class TasksTreeProvider implements vscode.TreeDataProvider<TaskView>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TaskView | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };
  private timer: NodeJS.Timeout | undefined;
  private lastDraw = 0;

  constructor(private readonly tracker: TaskTracker) {
    this.subscription = tracker.onDidChange(() => this.schedule());
  }

  /**
   * Redraws at most once a second: on changes, and each second while a task runs (its elapsed
   * time). Polls can report every 100 ms; redrawing rows that often would also swallow clicks on
   * their inline actions.
   */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.lastDraw = Date.now();
        this.changed.fire(undefined);
        if (this.tracker.list().some((t) => RUNNING.has(t.status))) this.schedule();
      },
      Math.max(0, this.lastDraw + REDRAW_MS - Date.now()),
    );
  }

  getChildren(node?: TaskView): TaskView[] {
    return node ? [] : this.tracker.list();
  }

  getTreeItem(task: TaskView): vscode.TreeItem {
    const item = new vscode.TreeItem(task.toolName, vscode.TreeItemCollapsibleState.None);
    item.id = task.key;
    const elapsed = duration((task.endedAt ?? Date.now()) - task.startedAt);
    item.description = [
      task.serverId,
      task.status.replace('_', ' '),
      task.statusMessage,
      elapsed,
      task.resumed ? vscode.l10n.t('resumed after reload') : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const [icon, color] = ICONS[task.status];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `mcpTask:${task.status}`;
    const md = new vscode.MarkdownString();
    const row = (label: string, value: string | undefined) =>
      value && md.appendMarkdown(`${label}: ${plainMarkdown(value)}  \n`);
    row(vscode.l10n.t('Tool'), `${task.toolName} on MCP server "${task.serverId}"`);
    row(vscode.l10n.t('Task'), `${task.taskId} (${task.protocol} tasks)`);
    row(vscode.l10n.t('Status'), task.statusMessage ? `${task.status}: ${task.statusMessage}` : task.status);
    row(vscode.l10n.t('Started'), new Date(task.startedAt).toLocaleString());
    row(
      vscode.l10n.t('Kept by the server'),
      task.ttlSeconds === null
        ? vscode.l10n.t('without a limit')
        : task.ttlSeconds === undefined
          ? undefined
          : vscode.l10n.t('{0} from its start', duration(task.ttlSeconds * 1000)),
    );
    row(vscode.l10n.t('Error'), task.error);
    if (task.resumed) row(vscode.l10n.t('Note'), vscode.l10n.t('picked up again after the window reloaded'));
    item.tooltip = md;
    if (!RUNNING.has(task.status))
      item.command = { command: 'mcpHost.openTaskResult', title: vscode.l10n.t('Open Result'), arguments: [task] };
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m ${s % 60}s`
      : `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The view, its commands, and a notification when a task ends. */
export function registerTasksView(
  tracker: TaskTracker,
  host: ServerDirectory,
  extensionUri: vscode.Uri,
  openResource: ResourceOpener,
): vscode.Disposable[] {
  const provider = new TasksTreeProvider(tracker);
  const openResult = (task: TaskView | undefined) => {
    if (!task || RUNNING.has(task.status)) return;
    const tool: Tool = host.server(task.serverId)?.tools.find((t) => t.name === task.toolName) ?? {
      name: task.toolName,
      inputSchema: { type: 'object' },
    };
    const outcome = task.result ? (task.result.isError ? 'toolError' : 'ok') : 'protocolError';
    showToolResult(
      extensionUri,
      {
        serverId: task.serverId,
        tool,
        args: {},
        outcome,
        result: task.result,
        error: task.error,
        durationMs: (task.endedAt ?? Date.now()) - task.startedAt,
      },
      openResource,
    );
  };
  const notify = async (task: TaskView) => {
    if (task.status === 'cancelled') return;
    const open = vscode.l10n.t('Open Result');
    const answer =
      task.status === 'completed'
        ? await vscode.window.showInformationMessage(
            vscode.l10n.t('MCP task "{0}" on server "{1}" finished.', task.toolName, task.serverId),
            open,
          )
        : await vscode.window.showWarningMessage(
            vscode.l10n.t(
              'MCP task "{0}" on server "{1}" ended: {2}',
              task.toolName,
              task.serverId,
              task.error ?? task.status,
            ),
            open,
          );
    if (answer === open) openResult(tracker.get(task.key) ?? task);
  };
  return [
    provider,
    vscode.window.createTreeView('mcpHost.tasks', { treeDataProvider: provider }),
    tracker.onDidEnd((task) => void notify(task)),
    vscode.commands.registerCommand('mcpHost.cancelTask', (task?: TaskView) => task && tracker.cancel(task.key)),
    vscode.commands.registerCommand('mcpHost.openTaskResult', (task?: TaskView) => openResult(task)),
    vscode.commands.registerCommand('mcpHost.clearFinishedTasks', () => tracker.clearFinished()),
  ];
}
