import * as vscode from 'vscode';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/client';
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppModelContext } from '../../core/apps/appModelContext';
import { AppRelayTransport } from '../../core/apps/appRelayTransport';
import type { AppResource } from '../../core/apps/appResource';
import { AppSession } from '../../core/apps/appSession';
import type { ServerLog } from '../../core/connection/serverLog';
import type { ServerCalls } from '../../core/host/hostPorts';
import type { ToolInvoker } from '../../core/tools/toolInvoker';
import type { AppDisplayMode, AppHostToPanel, AppPanelLook, AppPanelToHost } from '../../shared/protocol/appPanel';
import { openWebviewPanel } from '../webviews/webviewPanel';
import { toolLabel } from '../tools/toolLabels';
import type { AppSandboxServer } from './appSandboxServer';

/** What a page's `securitypolicyviolation` names when code, not a load, was blocked. */
const EVAL_PROBES = new Set(['eval', 'wasm-eval']);

export interface AppPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly sandbox: AppSandboxServer;
  readonly invoker: ToolInvoker;
  readonly host: Pick<ServerCalls, 'readResource'>;
  readonly modelContext: AppModelContext;
  readonly hostInfo: { readonly name: string; readonly version: string };
  logFor(serverId: string): ServerLog;
}

/** The modes MCP Host offers: in its panel beside the result, or filling its editor tab. */
const HOST_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen'];

/**
 * One MCP App in an editor tab: the webview holds the sandbox proxy; the ext-apps bridge runs
 * here and answers the app through the host (tool calls confirmed like any other, links after
 * consent, messages into the chat input for the user to send).
 */
/**
 * How long a panel's page may take to start before it is opened again, once: the editor
 * sometimes leaves a webview created together with another one blank (its page never runs).
 */
export const APP_PAGE_LOAD_TIMEOUT_MS = 10_000;
/** Narrower than this (CSS pixels), an app's column is too narrow for most apps' layouts: it moves to a wider group. */
const MIN_APP_WIDTH_PX = 480;

export class AppPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel;
  private readonly panelDisposables: vscode.Disposable[] = [];
  private pageStarted = false;
  /** Whether the app already moved out of a column too narrow for it. */
  private widened = false;
  private pageAttempts = 0;
  private loadTimer?: ReturnType<typeof setTimeout>;
  private session?: AppSession;
  private transport?: AppRelayTransport;
  private mode: AppDisplayMode = 'inline';
  private closing = false;
  private readonly log: ServerLog;
  /** Sent once the session exists (the call may end before the panel is ready). */
  private readonly early: ((session: AppSession) => void)[] = [];
  /** When each step of showing the app happened (ms since the panel opened), for the log. */
  private readonly opened = performance.now();
  private readonly steps: string[] = [];

  constructor(
    private readonly deps: AppPanelDeps,
    readonly id: string,
    readonly serverId: string,
    private readonly tool: Tool,
    private readonly resource: AppResource,
    /** The app's sandbox page: where the browser reaches it, best first. */
    private readonly page: { readonly urls: readonly string[]; dispose(): void },
    private readonly onClosed: () => void,
    /** The group the other apps are in: apps share one instead of each opening a column beside the last. */
    group?: vscode.ViewColumn,
  ) {
    this.log = deps.logFor(serverId);
    this.panel = this.openPanel(group);
  }

  /** The editor group the app's panel is in (undefined once closed). */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this.closing ? undefined : this.panel.viewColumn;
  }

  /** The app's editor tab; its page frames the sandbox as soon as it loads (the addresses come with it). */
  private openPanel(viewColumn?: vscode.ViewColumn): vscode.WebviewPanel {
    const title = vscode.l10n.t('{0} — {1}', toolLabel(this.tool), this.serverId);
    const frameSources = [...new Set(this.page.urls.map((u) => new URL(u).origin))];
    const panel = openWebviewPanel(this.deps.extensionUri, 'mcpHost.app', title, 'appHost', {
      beside: viewColumn === undefined,
      viewColumn,
      background: true,
      frameSources,
      data: {
        'sandbox-urls': JSON.stringify(this.page.urls),
        server: this.serverId,
        title: toolLabel(this.tool),
        border: String(this.resource.prefersBorder !== false),
        allow: this.resource.policy.allow,
      },
    });
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'mcp.svg');
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((message: AppPanelToHost) => void this.fromPanel(message)),
      panel.onDidDispose(() => void this.closed()),
    );
    this.pageAttempts++;
    this.loadTimer = setTimeout(() => this.pageDidNotStart(), APP_PAGE_LOAD_TIMEOUT_MS);
    return panel;
  }

  /** The page never ran: open the panel again in its place once, then tell the user. */
  private pageDidNotStart(): void {
    if (this.pageStarted || this.closing) return;
    if (this.pageAttempts > 1) {
      const message = vscode.l10n.t(
        'The panel of the app of tool "{0}" (MCP server "{1}") did not load. Close it and run the tool again.',
        toolLabel(this.tool),
        this.serverId,
      );
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
      return;
    }
    this.log.warn(
      `App ${this.resource.uri}: its panel's page did not start within ${APP_PAGE_LOAD_TIMEOUT_MS / 1000} s; opening it again.`,
    );
    const stale = this.panel;
    for (const d of this.panelDisposables.splice(0)) d.dispose();
    this.panel = this.openPanel(stale.viewColumn);
    stale.dispose();
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.withSession((s) => s.sendToolInput(args));
  }

  sendToolResult(result: CallToolResult): void {
    this.withSession((s) => s.sendToolResult(result));
  }

  sendToolCancelled(reason: string): void {
    this.withSession((s) => s.sendToolCancelled(reason));
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Closes the app the way the specification asks: teardown first, then the panel. */
  async close(reason: string): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.session?.close(reason);
    this.panel.dispose();
  }

  dispose(): void {
    void this.close('MCP Host is shutting down.');
  }

  private withSession(send: (session: AppSession) => void): void {
    if (this.session) send(this.session);
    else this.early.push(send);
  }

  private post(message: AppHostToPanel): void {
    void this.panel.webview.postMessage(message);
  }

  private async fromPanel(message: AppPanelToHost): Promise<void> {
    switch (message?.type) {
      case 'ready':
        this.pageStarted = true;
        clearTimeout(this.loadTimer);
        this.widen(message.width);
        await this.load(message);
        break;
      case 'look':
        this.session?.updateContext(this.lookContext(message));
        break;
      case 'proxyReady':
        this.step('sandbox');
        this.post({ type: 'resource', html: this.resource.html });
        break;
      case 'fromApp':
        this.transport?.receive(message.message);
        break;
      case 'blocked': {
        const what = message.uri || vscode.l10n.t('an inline resource');
        this.log.warn(
          EVAL_PROBES.has(message.uri)
            ? `App ${this.resource.uri}: the sandbox blocked code made from text (${message.uri}, ${message.directive}); apps never get 'unsafe-eval', whatever their server declares.`
            : `App ${this.resource.uri}: the sandbox blocked ${what} (${message.directive}); the server did not declare it in _meta.ui.csp.`,
        );
        // A blocked eval is most often a library testing what it may do (PDF.js does), and going on
        // without: the log keeps it; an app that needed it fails, and the panel shows that failure.
        if (EVAL_PROBES.has(message.uri)) break;
        this.post({
          type: 'status',
          text: vscode.l10n.t(
            "The app could not load {0} ({1}): its server did not declare it in _meta.ui.csp. See the server's output.",
            what,
            message.directive,
          ),
          error: true,
        });
        break;
      }
      case 'pageError':
        this.failed(
          /unsafe-eval|evaluate a string as JavaScript|WebAssembly\.(instantiate|compile)|wasm-eval/i.test(message.text)
            ? vscode.l10n.t(
                "This app runs code made from text (eval), which MCP Host never allows an app, whatever its server declares: it cannot work here. The server's tools still work from Run Tool and chat. ({0})",
                message.text,
              )
            : vscode.l10n.t("The app's page failed: {0}", message.text),
        );
        break;
      case 'navigated':
        this.failed(
          vscode.l10n.t(
            'The app tried to leave its page (a navigation), which would escape its policy; MCP Host removed it. Close this tab and run the tool again to reload it.',
          ),
        );
        await this.session?.close('navigated away', false);
        break;
      case 'unsandboxable':
        this.log.warn(
          `App ${this.resource.uri}: not shown, no address of its sandbox (${this.page.urls.join(', ')}) is on another origin than the editor's page.`,
        );
        break;
      case 'close':
        await this.close(vscode.l10n.t('The user closed the app.'));
        break;
      case 'toggleMode':
        await this.setMode(this.mode === 'inline' ? 'fullscreen' : 'inline');
        break;
    }
  }

  private step(name: string): void {
    this.steps.push(`${name} ${(performance.now() - this.opened).toFixed(0)} ms`);
  }

  /**
   * An app opened beside the editor it came from (a result, a file) in a column narrower than
   * apps are laid out for moves into that editor's group, in front of it: the editor stays a tab
   * away, and the app has the group's whole width. Once, when its page first starts.
   */
  private widen(width: number): void {
    const column = this.panel.viewColumn;
    if (this.widened || width >= MIN_APP_WIDTH_PX || column === undefined || column <= 1) return;
    this.widened = true;
    this.log.info(`App ${this.resource.uri}: its column is ${width} px wide; it moves into the group on its left.`);
    this.panel.reveal(column - 1, true);
  }

  private async load(look: AppPanelLook): Promise<void> {
    if (this.session) return;
    this.step('page');
    const policy = this.resource.policy;
    // "Host SHOULD log CSP configurations for security review."
    this.log.info(
      `App ${this.resource.uri} of tool "${this.tool.name}": sandbox Content-Security-Policy "${policy.csp}"${policy.allow ? `, allow "${policy.allow}"` : ''}.`,
    );
    if (policy.refused.length)
      this.log.warn(
        `App ${this.resource.uri}: refused these _meta.ui entries (not a source MCP Host applies): ${policy.refused.join('; ')}.`,
      );
    this.transport = new AppRelayTransport(
      (message: JSONRPCMessage) => this.post({ type: 'toApp', message }),
      (reason) => this.failed(reason),
    );
    const session = new AppSession(this.transport, this.ports(), {
      hostInfo: this.deps.hostInfo,
      resource: this.resource,
      hostContext: {
        ...this.lookContext(look),
        toolInfo: { tool: this.tool },
        displayMode: this.mode,
        availableDisplayModes: [...HOST_MODES],
        locale: vscode.env.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        userAgent: `${vscode.env.appName} ${vscode.version}; ${this.deps.hostInfo.name} ${this.deps.hostInfo.version}`,
        platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
      },
    });
    this.session = session;
    await session.start();
    for (const send of this.early.splice(0)) send(session);
    this.post({ type: 'status', text: vscode.l10n.t('App {0}, sandboxed.', this.resource.uri) });
  }

  private lookContext(look: AppPanelLook): Partial<McpUiHostContext> {
    return {
      theme: look.theme,
      styles: { variables: look.variables as NonNullable<McpUiHostContext['styles']>['variables'] },
      // Inline the app sets its height (up to the panel's); full size it fills the tab.
      containerDimensions:
        this.mode === 'fullscreen'
          ? { width: look.width, height: look.height }
          : { width: look.width, maxHeight: Math.max(look.height, 200) },
    };
  }

  /** The modes the user may switch between: the host's that the app declared, once it did. */
  private modes(): AppDisplayMode[] {
    const declared = this.session?.appDisplayModes;
    return HOST_MODES.filter((m) => declared?.includes(m));
  }

  private async setMode(mode: McpUiDisplayMode): Promise<McpUiDisplayMode> {
    if (!HOST_MODES.includes(mode as AppDisplayMode) || !this.modes().includes(mode as AppDisplayMode))
      return this.mode;
    this.mode = mode as AppDisplayMode;
    this.session?.updateContext({ displayMode: this.mode });
    this.post({ type: 'mode', mode: this.mode, modes: this.modes() });
    if (this.mode === 'fullscreen') this.panel.reveal(undefined, false);
    return this.mode;
  }

  private failed(reason: string): void {
    this.log.warn(`App ${this.resource.uri}: ${reason}`);
    this.post({ type: 'status', text: reason, error: true });
  }

  private ports(): ConstructorParameters<typeof AppSession>[1] {
    return {
      callTool: async (name, args, signal) => {
        const done = await this.deps.invoker.invoke(this.serverId, name, args, {
          origin: 'app',
          appOpenedBy: this.tool.name,
          signal,
        });
        if (done.result && (done.outcome === 'ok' || done.outcome === 'toolError')) return done.result;
        throw new Error(done.error ?? `The call to "${name}" failed.`);
      },
      readResource: async (uri, signal) => {
        return this.deps.host.readResource(this.serverId, uri, signal);
      },
      openLink: async (url) => {
        const open = vscode.l10n.t('Open');
        const answer = await vscode.window.showInformationMessage(
          vscode.l10n.t('The app of MCP server "{0}" wants to open a link.', this.serverId),
          { modal: true, detail: url },
          open,
        );
        if (answer !== open) return false;
        return vscode.env.openExternal(vscode.Uri.parse(url, true));
      },
      message: async (params) => {
        const text = params.content
          .filter((b) => b.type === 'text')
          .map((b) => (b as { text: string }).text)
          .join('\n');
        if (!text) return false;
        // Into the chat input, not to a model: the user reads it and decides to send it.
        await vscode.commands.executeCommand('workbench.action.chat.open', {
          query: `@mcp ${text}`,
          isPartialQuery: true,
        });
        return true;
      },
      updateModelContext: (params) => this.deps.modelContext.set(this.id, this.serverId, this.tool.name, params),
      requestDisplayMode: (mode) => this.setMode(mode),
      resized: (size) => this.post({ type: 'resize', height: size.height }),
      log: (level, text) =>
        level === 'error'
          ? this.log.error(text)
          : level === 'warning'
            ? this.log.warn(text)
            : level === 'debug'
              ? this.log.debug(text)
              : this.log.info(text),
      failed: (reason) => this.failed(reason),
      initialized: () => {
        this.step('app initialized');
        this.log.info(`App ${this.resource.uri} shown: ${this.steps.join(', ')} after its panel opened.`);
        this.post({ type: 'mode', mode: this.mode, modes: this.modes() });
      },
    };
  }

  private async closed(): Promise<void> {
    // Closed from its tab: the webview (and the app in it) is already gone, so no teardown can reach it.
    if (!this.closing) this.log.info(`App ${this.resource.uri} closed from its tab.`);
    this.closing = true;
    clearTimeout(this.loadTimer);
    await this.session?.close('The panel was closed.', false);
    this.page.dispose();
    this.deps.modelContext.delete(this.id);
    for (const d of this.panelDisposables.splice(0)) d.dispose();
    this.onClosed();
  }
}
