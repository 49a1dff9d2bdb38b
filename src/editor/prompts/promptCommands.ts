import * as vscode from 'vscode';
import { withCancellableProgress } from '../ui/cancellation';
import type { ServerCalls, ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { promptMarkdown } from '../../core/prompts/promptMessages';
import {
  pickServerItem,
  refOf,
  startWhenNeeded,
  type ServerItemRef,
  type ServerItemTarget,
} from '../servers/serverItemPicker';
import { askPromptArguments } from './promptArgumentsInput';

type UsedHost = ServerDirectory & ServerCalls & Pick<ServerLifecycle, 'startOnDemand'>;

/** "MCP: Run Prompt…": pick a prompt, fill its arguments, and read its messages in an editor. */
export function registerPromptCommands(host: UsedHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.runPrompt', async (target: ServerItemTarget) => {
      try {
        const chosen = refOf(target) ?? (await pickPrompt(host));
        if (!chosen) return undefined;
        // A server that starts when needed starts before the arguments are asked: they follow its current prompt.
        await startWhenNeeded(host, { ids: [chosen.serverId] });
        const prompt = host.server(chosen.serverId)?.prompts.find((p) => p.name === chosen.name);
        if (!prompt)
          throw new Error(vscode.l10n.t('MCP server "{0}" has no prompt "{1}".', chosen.serverId, chosen.name));
        const args = await askPromptArguments(host, chosen.serverId, prompt, prompt.arguments ?? [], {});
        if (!args) return undefined;
        const result = await withCancellableProgress(
          vscode.l10n.t('Getting prompt {0} from {1}', prompt.name, chosen.serverId),
          (signal) => host.getPrompt(chosen.serverId, prompt.name, args, signal),
        );
        const document = await vscode.workspace.openTextDocument({
          language: 'markdown',
          content: promptMarkdown(chosen.serverId, prompt.name, result),
        });
        await vscode.window.showTextDocument(document);
        return result;
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return undefined;
      }
    }),
  ];
}

function pickPrompt(host: UsedHost): Promise<ServerItemRef | undefined> {
  return pickServerItem(
    host,
    'prompts',
    (server, prompt) => ({
      label: prompt.title ?? prompt.name,
      description: [...(prompt.title && prompt.title !== prompt.name ? [prompt.name] : []), server.id].join('  '),
      detail: prompt.description,
    }),
    {
      none: vscode.l10n.t('No MCP server is running. Start one in the MCP Servers view.'),
      noneOffers: (running) => vscode.l10n.t('None of the {0} running MCP servers offers prompts.', running),
      title: vscode.l10n.t('MCP Host: Run Prompt'),
      placeHolder: vscode.l10n.t('Pick a prompt'),
    },
  );
}
