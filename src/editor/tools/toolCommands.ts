import type { Tool } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { hasNoParameters } from '../../core/forms/schemaForm';
import type { McpHost } from '../../core/host/mcpHost';
import type { ToolInvocation, ToolInvoker } from '../../core/tools/toolInvoker';
import { askToolArguments } from './toolFormPanel';
import { annotationBadges, toolLabel } from './toolLabels';
import { showToolResult, type ResourceOpener } from './toolResultPanel';

/** A command's target: a tool node of the Servers view, or ids from a keybinding or the API. */
type ToolTarget = { server?: { id: string }; name?: string } | { serverId: string; toolName: string } | undefined;

export interface ToolCommandDeps {
  readonly host: McpHost;
  readonly invoker: ToolInvoker;
  readonly extensionUri: vscode.Uri;
  readonly openResource: ResourceOpener;
}

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.runTool', async (target: ToolTarget) => {
      try {
        return await runTool(deps, target);
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return undefined;
      }
    }),
  ];
}

async function runTool(deps: ToolCommandDeps, target: ToolTarget): Promise<ToolInvocation | undefined> {
  const chosen = targetOf(target) ?? (await pickTool(deps.host));
  if (!chosen) return undefined;
  const tool = deps.invoker.findTool(chosen.serverId, chosen.toolName);
  const args = hasNoParameters(tool.inputSchema) ? {} : await askToolArguments(deps.extensionUri, chosen.serverId, tool);
  if (!args) return undefined;
  const invocation = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running {0} on {1}', toolLabel(tool), chosen.serverId), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      try {
        return await deps.invoker.invoke(chosen.serverId, tool.name, args, {
          origin: 'user',
          signal: controller.signal,
          onProgress: (p) => {
            // Progress totals are optional; without one, show the message or the raw count.
            const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
            progress.report({
              message: p.message ?? (p.total ? `${p.progress} / ${p.total}` : String(p.progress)),
              increment: percent !== undefined ? Math.max(0, percent - reported) : undefined,
            });
            if (percent !== undefined) reported = percent;
          },
        });
      } finally {
        cancel.dispose();
      }
    },
  );
  if (invocation.outcome === 'denied') {
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" was not run.', toolLabel(tool)));
  } else {
    showToolResult(deps.extensionUri, invocation, deps.openResource);
  }
  return invocation;
}

function targetOf(target: ToolTarget): { serverId: string; toolName: string } | undefined {
  if (!target) return undefined;
  if ('serverId' in target) return target;
  return target.server && target.name ? { serverId: target.server.id, toolName: target.name } : undefined;
}

async function pickTool(host: McpHost): Promise<{ serverId: string; toolName: string } | undefined> {
  const running = host.servers().filter((s) => s.status === 'running' && s.tools.length > 0);
  if (running.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No running MCP server offers tools. Start one in the MCP Servers view.'));
    return undefined;
  }
  const items = running.flatMap((server) =>
    server.tools.map((tool: Tool) => ({
      label: toolLabel(tool),
      description: [server.id, ...annotationBadges(tool).map((b) => `[${b}]`)].join('  '),
      detail: tool.description,
      serverId: server.id,
      toolName: tool.name,
    })),
  );
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP: Run Tool'), placeHolder: vscode.l10n.t('Pick a tool'), matchOnDescription: true, matchOnDetail: true });
  return picked && { serverId: picked.serverId, toolName: picked.toolName };
}
