import * as vscode from 'vscode';
import { withCancellation } from '../ui/cancellation';
import { startWhenNeeded } from '../servers/serverItemPicker';
import { offeredToModel } from '../../core/apps/appToolMeta';
import { listsKnown, type ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import type { ToolInvoker } from '../../core/tools/toolInvoker';
import { resultText } from '../../core/tools/toolResults';

interface ListInput {
  readonly server?: string;
}
interface CallInput {
  readonly server: string;
  readonly tool: string;
  readonly arguments?: Record<string, unknown>;
}

/**
 * Two fixed language-model tools (tool contributions are static) through which any chat
 * participant or agent finds and calls MCP tools: list, then call. Calls are confirmed like every
 * other call, by the host's own policy. They serve the servers that are not published to VS
 * Code's MCP (an editor without that API, or `publish` off): the others are tools of their own.
 */
export function registerLanguageModelTools(
  host: ServerDirectory & Pick<ServerLifecycle, 'startOnDemand'>,
  invoker: ToolInvoker,
  publishedToAgents: (serverId: string) => boolean = () => false,
): vscode.Disposable[] {
  return [
    vscode.lm.registerTool<ListInput>('mcpHost_listTools', {
      invoke: async (options, token) => {
        // A server published to VS Code's agents is theirs as tools of its own: it is not offered a second time here.
        const asked = (s: ServerSnapshot) =>
          (!options.input.server || s.id === options.input.server) && !publishedToAgents(s.id);
        if (options.input.server && publishedToAgents(options.input.server)) {
          throw new Error(
            `MCP server "${options.input.server}" is offered to agents as tools of its own (its tools are named "mcp_${options.input.server}_<tool>"); call those instead.`,
          );
        }
        // Servers that start when needed start now unless their tools are known from their last run (a call starts those).
        await withCancellation(token, (signal) =>
          startWhenNeeded(host, {
            signal,
            unknownOnly: true,
            ids: options.input.server ? [options.input.server] : undefined,
          }),
        );
        const servers = host.servers().filter((s) => listsKnown(s) && asked(s));
        if (options.input.server && servers.length === 0) {
          throw new Error(
            `No running MCP server "${options.input.server}". Running: ${
              host
                .servers()
                .filter((s) => s.status === 'running')
                .map((s) => s.id)
                .join(', ') || 'none'
            }.`,
          );
        }
        // Tools the user switched off for models are not listed (and calling them is refused).
        const listing = servers.flatMap((s) =>
          s.tools
            .filter((t) => offeredToModel(t) && invoker.offeredToModels(s.id, t.name))
            .map((t) => ({ server: s.id, tool: t.name, description: t.description, inputSchema: t.inputSchema })),
        );
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(listing))]);
      },
    }),
    vscode.lm.registerTool<CallInput>('mcpHost_callTool', {
      prepareInvocation: (options) => ({
        invocationMessage: vscode.l10n.t('Running {0} on MCP server {1}', options.input.tool, options.input.server),
      }),
      invoke: (options, token) =>
        withCancellation(token, async (signal) => {
          const done = await invoker.invoke(options.input.server, options.input.tool, options.input.arguments ?? {}, {
            origin: 'model',
            signal,
          });
          if (done.outcome === 'ok')
            return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(resultText(done.result!))]);
          // Tool errors go back as text the model can act on; other failures throw, so the caller shows them as such.
          if (done.outcome === 'toolError')
            return new vscode.LanguageModelToolResult([
              new vscode.LanguageModelTextPart(`The tool reported an error: ${resultText(done.result!)}`),
            ]);
          throw new Error(done.error);
        }),
    }),
  ];
}
