import * as vscode from 'vscode';
import { hostSetting } from '../config/hostSettings';
import type { Tool } from '@modelcontextprotocol/client';
import { loadAppResource } from '../../core/apps/appResource';
import { appResourceUri } from '../../core/apps/appToolMeta';
import type { ServerCalls, ServerDirectory } from '../../core/host/hostPorts';
import type { ToolCallWatcher, ToolInvocation } from '../../core/tools/toolInvoker';
import { toolLabel } from '../tools/toolLabels';
import { AppPanel, type AppPanelDeps } from './appPanel';
import { AppModelContext } from '../../core/apps/appModelContext';
import { AppSandboxServer } from './appSandboxServer';

/** Open apps at once; the oldest closes (after its teardown) when one more opens. */
export const MAX_OPEN_APPS = 8;

/**
 * Opens a tool's MCP App when the tool runs, from any caller (palette, Servers view, `@mcp`,
 * language-model tools, the public API), feeds it the call's input and outcome, and closes the
 * apps of a server that stops.
 */
export class AppLauncher implements ToolCallWatcher, vscode.Disposable {
  private readonly panels = new Map<string, AppPanel>();
  private next = 1;
  private readonly listener: vscode.Disposable;

  constructor(
    private readonly deps: AppPanelDeps & {
      readonly host: ServerDirectory & Pick<ServerCalls, 'readResource'>;
    },
  ) {
    this.listener = { dispose: deps.host.onDidChangeServers(() => this.closeStoppedServers()).dispose };
  }

  started(call: {
    serverId: string;
    tool: Tool;
    args: Record<string, unknown>;
  }): { viewId: string; finished(invocation: ToolInvocation): void } | undefined {
    let uri: string | undefined;
    try {
      uri = appResourceUri(call.tool);
    } catch (error) {
      this.deps.logFor(call.serverId).warn(`${(error as Error).message} Its result shows as text.`);
      return undefined;
    }
    if (!uri || !this.enabled(call.serverId)) return undefined;
    const viewId = `app-${this.next++}`;
    const opened = this.open(viewId, call.serverId, call.tool, uri, call.args);
    return {
      viewId,
      finished: (invocation) =>
        void opened.then((panel) => {
          if (!panel) return;
          if (invocation.result && (invocation.outcome === 'ok' || invocation.outcome === 'toolError'))
            panel.sendToolResult(invocation.result);
          else panel.sendToolCancelled(invocation.error ?? 'The call ended without a result.');
        }),
    };
  }

  /** Shows an open app (the chat's "Show the app" button). */
  show(viewId: string): void {
    const panel = this.panels.get(viewId);
    if (panel) panel.reveal();
    else void vscode.window.showInformationMessage(vscode.l10n.t('That app is closed. Run its tool again to open it.'));
  }

  dispose(): void {
    this.listener.dispose();
    for (const panel of this.panels.values()) panel.dispose();
    this.panels.clear();
  }

  private enabled(serverId: string): boolean {
    return hostSetting('appsEnabled') && this.deps.host.definition(serverId)?.apps !== false;
  }

  private async open(
    viewId: string,
    serverId: string,
    tool: Tool,
    uri: string,
    args: Record<string, unknown>,
  ): Promise<AppPanel | undefined> {
    try {
      const resource = await loadAppResource((u) => this.deps.host.readResource(serverId, u), serverId, uri);
      const page = await this.deps.sandbox.open(resource.policy);
      // Where the browser reaches the page: the editor's mapping (port forwarding, a proxy domain)
      // first, the loopback address itself when the browser runs on this machine.
      const external = (await vscode.env.asExternalUri(vscode.Uri.parse(page.url))).toString(true);
      const urls = external === page.url ? [page.url] : [external, page.url];
      if (this.panels.size >= MAX_OPEN_APPS)
        void [...this.panels.values()][0].close(vscode.l10n.t('Too many apps are open; this one, the oldest, closes.'));
      const group = [...this.panels.values()].reverse().find((open) => open.viewColumn !== undefined)?.viewColumn;
      const panel = new AppPanel(
        this.deps,
        viewId,
        serverId,
        tool,
        resource,
        { urls, dispose: () => page.dispose() },
        () => this.panels.delete(viewId),
        group,
      );
      this.panels.set(viewId, panel);
      panel.sendToolInput(args);
      return panel;
    } catch (error) {
      const message = vscode.l10n.t(
        'Cannot show the app of tool "{0}": {1} Its result shows as text.',
        toolLabel(tool),
        (error as Error).message,
      );
      this.deps.logFor(serverId).warn(message);
      void vscode.window.showWarningMessage(message);
      return undefined;
    }
  }

  private closeStoppedServers(): void {
    for (const panel of [...this.panels.values()]) {
      const status = this.deps.host.server(panel.serverId)?.status;
      if (status !== 'running') void panel.close(vscode.l10n.t('MCP server "{0}" stopped.', panel.serverId));
    }
  }
}

/**
 * MCP Apps in the editor: tool calls open their app (the invoker tells the launcher), served from
 * the sandbox's own origin; `mcpHost.showApp` brings one back. Returns what the apps tell models.
 */
export function registerApps(
  deps: Omit<AppPanelDeps, 'sandbox' | 'modelContext'> & {
    readonly host: ServerDirectory & Pick<ServerCalls, 'readResource'>;
    /** The folder of the built webviews (dist/webview). */
    readonly webviewFolder: string;
  },
): { readonly modelContext: AppModelContext; readonly disposables: vscode.Disposable[] } {
  const modelContext = new AppModelContext();
  const sandbox = new AppSandboxServer(deps.webviewFolder);
  const apps = new AppLauncher({ ...deps, sandbox, modelContext });
  deps.invoker.watch(apps);
  return {
    modelContext,
    disposables: [
      apps,
      sandbox,
      vscode.commands.registerCommand('mcpHost.showApp', (viewId: string) => apps.show(viewId)),
    ],
  };
}
