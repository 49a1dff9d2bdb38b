import * as vscode from 'vscode';
import type { SpawnRecord, SpawnRecordLine } from '../core/process/spawnRecord';
import { withCancellation } from './ui/cancellation';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import type { ServerSnapshot } from '../core/connection/serverSnapshot';
import type { ServerCalls, ServerDirectory, ServerLifecycle } from '../core/host/hostPorts';
import type { ToolInvocation, ToolInvoker } from '../core/tools/toolInvoker';

/** What other extensions see of one server. */
export type McpServerInfo = Omit<ServerSnapshot, 'tools' | 'prompts' | 'resources' | 'resourceTemplates'> & {
  readonly toolCount: number;
  readonly promptCount: number;
  readonly resourceCount: number;
};

/**
 * The versioned API `activate()` returns: `vscode.extensions.getExtension('mcp-host.mcp-host').exports`.
 * Additions keep `version`; a breaking change bumps it.
 */
export interface McpHostApi {
  readonly version: 1;
  /** How long `activate()` took, in milliseconds (diagnostics; the benchmark reads it). */
  readonly activationMs: number;
  readonly onDidChangeServers: vscode.Event<void>;
  listServers(): McpServerInfo[];
  listTools(serverId: string): Tool[];
  listPrompts(serverId: string): Prompt[];
  /** The resources loaded so far: the first page, and any pages the user loaded since (the view's "Load more…"). */
  listResources(serverId: string): Resource[];
  listResourceTemplates(serverId: string): ResourceTemplateType[];
  /** Calls a tool directly (extensions are trusted code): no confirmation. */
  callTool(
    serverId: string,
    name: string,
    args?: Record<string, unknown>,
    token?: vscode.CancellationToken,
  ): Promise<CallToolResult>;
  /** Calls a tool the way a chat model does: confirmed by the user's approval policy, outcome sorted. */
  invokeTool(
    serverId: string,
    name: string,
    args?: Record<string, unknown>,
    token?: vscode.CancellationToken,
  ): Promise<McpToolInvocation>;
  /** `completion/complete` suggestions for a prompt argument. */
  completePromptArgument(
    serverId: string,
    prompt: string,
    argument: string,
    value: string,
    context?: Record<string, string>,
  ): Promise<string[]>;
  getPrompt(
    serverId: string,
    name: string,
    args?: Record<string, string>,
    token?: vscode.CancellationToken,
  ): Promise<GetPromptResult>;
  readResource(serverId: string, uri: string, token?: vscode.CancellationToken): Promise<ReadResourceResult>;
  startServer(serverId: string): Promise<void>;
  stopServer(serverId: string): Promise<void>;
  /**
   * The record of server processes MCP Host started on this machine, oldest first: when, which
   * server, which program (arguments as a digest), who asked, and how each ended.
   */
  serverActivity(): Promise<SpawnRecordLine[]>;
}

export interface McpToolInvocation {
  readonly outcome: ToolInvocation['outcome'];
  readonly result?: CallToolResult;
  readonly error?: string;
  readonly durationMs: number;
  /** When the tool has an MCP App and it opened: its id, for the `mcpHost.showApp` command. */
  readonly appViewId?: string;
}

export function createPublicApi(
  host: ServerDirectory & ServerLifecycle & ServerCalls,
  invoker: ToolInvoker,
  activationMs: () => number,
  spawns?: SpawnRecord,
): McpHostApi & vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const subscription = host.onDidChangeServers(() => changed.fire());
  const server = (id: string) => {
    const snapshot = host.server(id);
    if (!snapshot) throw new Error(`There is no MCP server "${id}" in settings.`);
    return snapshot;
  };
  return {
    version: 1,
    get activationMs() {
      return activationMs();
    },
    onDidChangeServers: changed.event,
    listServers: () =>
      host.servers().map(({ tools, prompts, resources, resourceTemplates, ...rest }) => ({
        ...rest,
        toolCount: tools.length,
        promptCount: prompts.length,
        resourceCount: resources.length + resourceTemplates.length,
      })),
    listTools: (id) => [...server(id).tools],
    listPrompts: (id) => [...server(id).prompts],
    listResources: (id) => [...server(id).resources],
    listResourceTemplates: (id) => [...server(id).resourceTemplates],
    callTool: (id, name, args, token) => withCancellation(token, (signal) => host.callTool(id, name, args, signal)),
    invokeTool: (id, name, args, token) =>
      withCancellation(token, async (signal) => {
        const { outcome, result, error, durationMs, viewId } = await invoker.invoke(id, name, args ?? {}, {
          origin: 'model',
          signal,
        });
        return { outcome, result, error, durationMs, ...(viewId ? { appViewId: viewId } : {}) };
      }),
    completePromptArgument: (id, prompt, argument, value, context) =>
      host.complete(id, {
        ref: { type: 'ref/prompt', name: prompt },
        argument: { name: argument, value },
        context: context && { arguments: context },
      }),
    getPrompt: (id, name, args, token) => withCancellation(token, (signal) => host.getPrompt(id, name, args, signal)),
    readResource: (id, uri, token) => withCancellation(token, (signal) => host.readResource(id, uri, signal)),
    startServer: (id) => host.start(id),
    stopServer: (id) => host.stop(id),
    serverActivity: async () => (spawns ? spawns.read() : []),
    dispose: () => {
      subscription.dispose();
      changed.dispose();
    },
  };
}
