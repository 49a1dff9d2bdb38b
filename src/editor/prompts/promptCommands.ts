import type { Prompt } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host/mcpHost';
import { promptMarkdown } from '../../core/prompts/promptMessages';
import { askPromptArguments } from './promptArgumentsInput';

type PromptTarget = { server?: { id: string }; name?: string } | { serverId: string; promptName: string } | undefined;

/** "MCP: Run Prompt…": pick a prompt, fill its arguments, and read its messages in an editor. */
export function registerPromptCommands(host: McpHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.runPrompt', async (target: PromptTarget) => {
      try {
        const chosen = targetOf(target) ?? (await pickPrompt(host));
        if (!chosen) return undefined;
        const prompt = host.server(chosen.serverId)?.prompts.find((p) => p.name === chosen.promptName);
        if (!prompt) throw new Error(vscode.l10n.t('MCP server "{0}" has no prompt "{1}".', chosen.serverId, chosen.promptName));
        const args = await askPromptArguments(host, chosen.serverId, prompt, prompt.arguments ?? [], {});
        if (!args) return undefined;
        const result = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Getting prompt {0} from {1}', prompt.name, chosen.serverId), cancellable: true },
          (_progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            return host.getPrompt(chosen.serverId, prompt.name, args, controller.signal);
          },
        );
        const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: promptMarkdown(chosen.serverId, prompt.name, result) });
        await vscode.window.showTextDocument(document);
        return result;
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return undefined;
      }
    }),
  ];
}

function targetOf(target: PromptTarget): { serverId: string; promptName: string } | undefined {
  if (!target) return undefined;
  if ('serverId' in target) return target;
  return target.server && target.name ? { serverId: target.server.id, promptName: target.name } : undefined;
}

async function pickPrompt(host: McpHost): Promise<{ serverId: string; promptName: string } | undefined> {
  const running = host.servers().filter((s) => s.status === 'running' && s.prompts.length > 0);
  if (running.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No running MCP server offers prompts. Start one in the MCP Servers view.'));
    return undefined;
  }
  const items = running.flatMap((server) =>
    server.prompts.map((prompt: Prompt) => ({ label: prompt.title ?? prompt.name, description: server.id, detail: prompt.description, serverId: server.id, promptName: prompt.name })),
  );
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP: Run Prompt'), placeHolder: vscode.l10n.t('Pick a prompt'), matchOnDescription: true, matchOnDetail: true });
  return picked && { serverId: picked.serverId, promptName: picked.promptName };
}
