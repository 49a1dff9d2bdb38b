import type { CallToolResult, ReadResourceResult, Transport } from '@modelcontextprotocol/client';
import type {
  AppBridge,
  McpUiDisplayMode,
  McpUiHostContext,
  McpUiMessageRequest,
  McpUiUpdateModelContextRequest,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { appBridgeLibrary } from '../lazyLibraries';
import type { AppResource } from './appResource';

/** What an app may ask of the host; the editor (or a test) decides how each is answered. */
export interface AppHostPorts {
  /** A `tools/call` from the app, for a tool of the app's own server (visibility and confirmation are the port's). */
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  /** `ui/open-link`: true when the user agreed and the link opened. */
  openLink(url: string): Promise<boolean>;
  /** `ui/message`: true when the user let it through to the chat. */
  message(params: McpUiMessageRequest['params']): Promise<boolean>;
  /** `ui/update-model-context`: kept for the next chat turn (each replaces the last). */
  updateModelContext(params: McpUiUpdateModelContextRequest['params']): void;
  /** `ui/request-display-mode` for a mode the app declared; answers the mode now in effect. */
  requestDisplayMode(mode: McpUiDisplayMode): Promise<McpUiDisplayMode>;
  /** `ui/notifications/size-changed`. */
  resized(size: { width?: number; height?: number }): void;
  /** `notifications/message` from the app, and the session's own notes (what it refused, and why). */
  log(level: 'debug' | 'info' | 'warning' | 'error', text: string): void;
  /** The app initialized: requests may now go to it (and its declared display modes are known). */
  initialized(): void;
  /** The app will not work (never initialized, flooded, closed its side): say so where it is shown. */
  failed(reason: string): void;
}

export interface AppSessionOptions {
  readonly hostInfo: { readonly name: string; readonly version: string };
  readonly hostContext: McpUiHostContext;
  readonly resource: AppResource;
  /** How long the app may take from load to `ui/notifications/initialized`. */
  readonly initializeTimeoutMs?: number;
  /** How long `ui/resource-teardown` may take before the app is closed anyway. */
  readonly teardownTimeoutMs?: number;
}

export const DEFAULT_APP_INITIALIZE_TIMEOUT_MS = 15_000;
export const DEFAULT_APP_TEARDOWN_TIMEOUT_MS = 3_000;

/**
 * One app on screen, for one tool call: the ext-apps host bridge, with the order the
 * specification requires kept here whatever the app does. Nothing reaches the app before its
 * `ui/notifications/initialized`; then `tool-input` (once), then `tool-result` or
 * `tool-cancelled` (once); host context changes follow. Closing asks the app to tear down first.
 */
export class AppSession {
  private readonly bridge: AppBridge;
  private initialized = false;
  private closed = false;
  private readonly pending: (() => Promise<void>)[] = [];
  private inputSent = false;
  private outcomeSent = false;
  private context: McpUiHostContext;
  private readonly initTimer: ReturnType<typeof setTimeout>;
  private readonly calls = new AbortController();
  /** The app calls the host's tools; bounded so a looping app cannot queue work without end. */
  private inFlight = 0;

  constructor(
    private readonly transport: Transport,
    private readonly ports: AppHostPorts,
    private readonly options: AppSessionOptions,
  ) {
    this.context = options.hostContext;
    const approvedCsp = options.resource.policy.approved;
    this.bridge = new (appBridgeLibrary().AppBridge)(
      null,
      options.hostInfo,
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        updateModelContext: { text: {} },
        message: { text: {} },
        sandbox: { csp: approvedCsp, permissions: options.resource.policy.permissions },
      },
      { hostContext: options.hostContext },
    );
    this.bridge.oninitialized = () => this.onInitialized();
    this.bridge.oncalltool = (params, extra) => this.callTool(params.name, params.arguments ?? {}, extra.mcpReq.signal);
    this.bridge.onreadresource = (params, extra) =>
      this.whileOpen(() => ports.readResource(params.uri, linked(this.calls.signal, extra.mcpReq.signal)));
    this.bridge.onopenlink = async (params) => {
      if (!/^https?:\/\//i.test(params.url)) return { isError: true };
      return (await ports.openLink(params.url)) ? {} : { isError: true };
    };
    this.bridge.onmessage = async (params) => ((await ports.message(params)) ? {} : { isError: true });
    this.bridge.onupdatemodelcontext = async (params) => {
      ports.updateModelContext(params);
      return {};
    };
    this.bridge.onrequestdisplaymode = async ({ mode }) => {
      const declared = this.bridge.getAppCapabilities()?.availableDisplayModes;
      const available = this.context.availableDisplayModes ?? ['inline'];
      // "Host MUST NOT switch the View to a display mode that does not appear in its availableDisplayModes."
      if ((declared && !declared.includes(mode)) || !available.includes(mode))
        return { mode: this.context.displayMode ?? 'inline' };
      const now = await ports.requestDisplayMode(mode);
      this.updateContext({ displayMode: now });
      return { mode: now };
    };
    this.bridge.onsizechange = (size) => ports.resized(size);
    this.bridge.onloggingmessage = ({ level, data }) =>
      ports.log(
        level === 'debug' || level === 'info' || level === 'warning' ? level : 'error',
        `app: ${typeof data === 'string' ? data : JSON.stringify(data)}`,
      );
    this.bridge.onrequestteardown = () => void this.close('the app asked to close');
    const timeout = options.initializeTimeoutMs ?? DEFAULT_APP_INITIALIZE_TIMEOUT_MS;
    this.initTimer = setTimeout(() => {
      if (!this.initialized && !this.closed)
        ports.failed(`The app did not start: it sent no ui/notifications/initialized within ${timeout / 1000} s.`);
    }, timeout);
  }

  async start(): Promise<void> {
    this.transport.onerror = (error) => this.ports.log('warning', `app: ${error.message}`);
    await this.bridge.connect(this.transport);
  }

  get isInitialized(): boolean {
    return this.initialized;
  }

  /** The app's `appCapabilities.availableDisplayModes`, once it initialized. */
  get appDisplayModes(): readonly McpUiDisplayMode[] | undefined {
    return this.bridge.getAppCapabilities()?.availableDisplayModes;
  }

  /** The tool call's complete arguments: sent once, after the app initialized. */
  sendToolInput(args: Record<string, unknown>): void {
    if (this.inputSent) return;
    this.inputSent = true;
    this.whenInitialized(() => this.bridge.sendToolInput({ arguments: args }));
  }

  /** The tool call's result; the specification requires the input first, so it follows it. */
  sendToolResult(result: CallToolResult): void {
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.whenInitialized(() => this.bridge.sendToolResult(result));
  }

  /** The tool call ended without a result (cancelled, failed, denied). */
  sendToolCancelled(reason: string): void {
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.whenInitialized(() => this.bridge.sendToolCancelled({ reason }));
  }

  /** Theme, display mode, container size, …: the app hears of changes once it initialized. */
  updateContext(change: Partial<McpUiHostContext>): void {
    this.context = { ...this.context, ...change };
    if (this.initialized && !this.closed) this.bridge.setHostContext(this.context);
  }

  /**
   * Tears the app down: `ui/resource-teardown` first ("Host MUST send this notification before
   * tearing down the UI resource"), waiting a bounded time for its answer, then the bridge closes.
   * Without `teardown` (the app is already gone with its panel) it only closes.
   */
  async close(reason: string, teardown = true): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.initTimer);
    if (this.initialized && teardown) {
      const answered = this.bridge
        .teardownResource({ reason }, { timeout: this.options.teardownTimeoutMs ?? DEFAULT_APP_TEARDOWN_TIMEOUT_MS })
        .catch((error: Error) => {
          this.ports.log(
            'warning',
            `app: ui/resource-teardown was not answered (${error.message}); closing it anyway.`,
          );
        });
      // Closed from here on: nothing more is sent while the app finishes.
      this.closed = true;
      await answered;
    }
    this.closed = true;
    this.calls.abort(new Error('The app was closed.'));
    await this.bridge.close().catch(() => undefined);
  }

  private onInitialized(): void {
    if (this.initialized || this.closed) return;
    this.initialized = true;
    clearTimeout(this.initTimer);
    this.bridge.setHostContext(this.context);
    this.ports.initialized();
    for (const send of this.pending.splice(0))
      void send().catch((error: Error) => this.ports.log('warning', `app: ${error.message}`));
  }

  private whenInitialized(send: () => Promise<void>): void {
    if (this.closed) return;
    if (this.initialized) void send().catch((error: Error) => this.ports.log('warning', `app: ${error.message}`));
    else this.pending.push(send);
  }

  private async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    this.ports.log('info', `app: tools/call ${name} ${JSON.stringify(args)}`);
    return this.whileOpen(() => this.ports.callTool(name, args, linked(this.calls.signal, signal)));
  }

  private async whileOpen<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('The app is closed.');
    if (this.inFlight >= MAX_APP_REQUESTS_IN_FLIGHT)
      throw new Error(
        `The app has ${MAX_APP_REQUESTS_IN_FLIGHT} requests waiting already; try again when they finish.`,
      );
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
    }
  }
}

/** Tool calls and reads an app may have waiting at once. */
export const MAX_APP_REQUESTS_IN_FLIGHT = 8;

function linked(a: AbortSignal, b: AbortSignal): AbortSignal {
  return AbortSignal.any([a, b]);
}
