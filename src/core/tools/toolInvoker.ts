import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/client';
import type { ResultOutcome } from '../../shared/protocol/toolResultView';
import { callableFromApp, offeredToModel } from '../apps/appToolMeta';
import { startsForUse } from '../connection/serverSnapshot';
import type { ServerCalls, ServerDirectory, ServerLifecycle } from '../host/hostPorts';
import { PendingConfirmations } from './pendingConfirmations';
import type { ToolApprovals } from './toolApprovals';
import type { ToolCallOrigin, ToolConfirmationPort } from './toolConfirmation';

export interface ToolInvocation {
  readonly serverId: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly outcome: ResultOutcome | 'denied';
  readonly result?: CallToolResult;
  /** Protocol errors, invalid output, or the denial, as a sentence naming the server and tool. */
  readonly error?: string;
  readonly durationMs: number;
  /** The view that shows this call besides its result (a tool's MCP App), when one opened. */
  readonly viewId?: string;
}

/**
 * Watches tool calls as they run (the editor opens a tool's MCP App beside it). `started` may
 * return the id of the view it opened and what to do when the call ends.
 */
export interface ToolCallWatcher {
  started(call: {
    readonly serverId: string;
    readonly tool: Tool;
    readonly args: Record<string, unknown>;
    readonly origin: ToolCallOrigin;
  }): { readonly viewId: string; finished(invocation: ToolInvocation): void } | undefined;
}

export interface InvokeOptions {
  readonly origin: ToolCallOrigin;
  /** For a call from an app: the tool whose result the app shows (the one the user ran to open it). */
  readonly appOpenedBy?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: Progress) => void;
}

const OUTPUT_SCHEMA_FAILURE =
  /Structured content does not match the tool's output schema|has an output schema but did not return structured content/;

/**
 * Runs a tool the way every caller in the editor must: find it, confirm it (unless the user
 * allowed it), call it with progress and cancellation, and sort the outcome into the kinds the
 * user sees differently.
 */
/** The part of the host a tool call needs: find the server's tools, call one, and start a server that starts when needed. */
export type ToolHost = Pick<ServerDirectory, 'server'> &
  Pick<ServerCalls, 'callTool'> &
  Partial<Pick<ServerLifecycle, 'startOnDemand'>>;

export class ToolInvoker {
  private watcher?: ToolCallWatcher;
  private readonly pending: PendingConfirmations;

  constructor(
    private readonly host: ToolHost,
    private readonly approvals: ToolApprovals,
    confirmation: ToolConfirmationPort,
    /** Whether the user offers a tool to models; calls from a model to other tools are refused. */
    readonly offeredToModels: (serverId: string, toolName: string) => boolean = () => true,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.pending = new PendingConfirmations(confirmation);
  }

  findTool(serverId: string, toolName: string): Tool {
    return this.locate(serverId, toolName).tool;
  }

  private locate(
    serverId: string,
    toolName: string,
    server = this.host.server(serverId),
  ): { tool: Tool; target: string } {
    if (!server) throw new Error(`There is no MCP server "${serverId}" in the settings.`);
    const tool = server.tools.find((t) => t.name === toolName);
    if (!tool) {
      throw new Error(
        server.status === 'running'
          ? `MCP server "${serverId}" has no tool "${toolName}" (it offers ${server.tools.map((t) => t.name).join(', ') || 'no tools'}).`
          : `MCP server "${serverId}" is ${server.status}${server.reason ? ` (${server.reason})` : ''}; start it to use its tool "${toolName}".`,
      );
    }
    return { tool, target: server.target };
  }

  async invoke(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
  ): Promise<ToolInvocation> {
    const authorized = await this.authorize(serverId, toolName, args, options);
    return 'outcome' in authorized ? authorized : this.call(serverId, authorized, args, options);
  }

  /** Finds the tool and confirms the call unless the user allowed it; a denial is an invocation. */
  async authorize(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: InvokeOptions,
  ): Promise<Tool | ToolInvocation> {
    let server = this.host.server(serverId);
    // A server that starts when needed starts now, and one on its way is waited for (one waiting for
    // its turn goes at once): the call is confirmed against its current tool, not its last run's.
    if (server && startsForUse(server) && this.host.startOnDemand) {
      await this.host.startOnDemand([serverId], options.signal);
      server = this.host.server(serverId);
    }
    const { tool, target } = this.locate(serverId, toolName, server);
    if (options.origin === 'model' && !offeredToModel(tool)) {
      throw new Error(
        `The tool "${toolName}" of MCP server "${serverId}" is for its app only (its _meta.ui.visibility leaves out "model"); models cannot call it.`,
      );
    }
    if (options.origin === 'app' && !callableFromApp(tool)) {
      throw new Error(
        `The tool "${toolName}" of MCP server "${serverId}" is not callable from its app (its _meta.ui.visibility leaves out "app").`,
      );
    }
    if (options.origin === 'model' && !this.offeredToModels(serverId, toolName)) {
      throw new Error(
        `The tool "${toolName}" of MCP server "${serverId}" is not offered to models: it is switched off in the MCP Servers view. Switch it on there to let models call it.`,
      );
    }
    const identity = `${serverId}\u0001${target}`;
    const fromApp = options.origin === 'app' ? { openedBy: options.appOpenedBy } : undefined;
    const formerName = server?.renamedTools?.[tool.name];
    const decision = this.approvals.decide(serverId, tool, identity, fromApp, formerName);
    if (decision.kind === 'ask') {
      const signal = options.signal ?? new AbortController().signal;
      const request = { serverId, tool, args, origin: options.origin, changes: decision.changes };
      const answer = await this.pending.confirm(
        identity,
        request,
        signal,
        () => this.approvals.decide(serverId, tool, identity, fromApp, formerName).kind === 'ask',
        (scope) => this.approvals.approve(identity, tool, scope),
      );
      if (answer === 'deny') {
        return {
          serverId,
          tool,
          args,
          outcome: 'denied',
          error: `The user declined to run "${tool.name}" on MCP server "${serverId}".`,
          durationMs: 0,
        };
      }
    }
    return tool;
  }

  /** Calls an authorized tool and sorts the outcome. */
  async call(
    serverId: string,
    tool: Tool,
    args: Record<string, unknown>,
    options: InvokeOptions,
  ): Promise<ToolInvocation> {
    // An app's own calls show in that app; they open no other view.
    const view =
      options.origin === 'app' ? undefined : this.watcher?.started({ serverId, tool, args, origin: options.origin });
    const invocation = { ...(await this.run(serverId, tool, args, options)), ...(view ? { viewId: view.viewId } : {}) };
    view?.finished(invocation);
    return invocation;
  }

  /** Tells `watcher` of every call from now on (one watcher: the editor's). */
  watch(watcher: ToolCallWatcher): void {
    this.watcher = watcher;
  }

  private async run(
    serverId: string,
    tool: Tool,
    args: Record<string, unknown>,
    options: InvokeOptions,
  ): Promise<ToolInvocation> {
    const started = this.now();
    try {
      const result = await this.host.callTool(serverId, tool.name, args, options.signal, options.onProgress);
      const durationMs = this.now() - started;
      return { serverId, tool, args, outcome: result.isError ? 'toolError' : 'ok', result, durationMs };
    } catch (error) {
      const durationMs = this.now() - started;
      const message = (error as Error).message;
      return {
        serverId,
        tool,
        args,
        outcome: OUTPUT_SCHEMA_FAILURE.test(message) ? 'invalidOutput' : 'protocolError',
        error: message,
        durationMs,
      };
    }
  }
}
