import type { Prompt, PromptArgument } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host/mcpHost';

/**
 * Asks for prompt arguments one by one, offering the server's `completion/complete` suggestions
 * (with the arguments given so far as context) while the user types. Undefined when cancelled.
 */
export async function askPromptArguments(
  host: McpHost,
  serverId: string,
  prompt: Prompt,
  toAsk: readonly PromptArgument[],
  known: Record<string, string>,
): Promise<Record<string, string> | undefined> {
  const values = { ...known };
  for (const argument of toAsk) {
    const value = await askOne(host, serverId, prompt, argument, values);
    if (value === undefined) return undefined;
    if (value !== '') values[argument.name] = value;
  }
  return values;
}

function askOne(host: McpHost, serverId: string, prompt: Prompt, argument: PromptArgument, context: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = vscode.l10n.t('{0} ({1}): {2}{3}', prompt.title ?? prompt.name, serverId, argument.name, argument.required ? ' *' : '');
    pick.placeholder = argument.description ?? (argument.required ? vscode.l10n.t('Required') : vscode.l10n.t('Optional: press Enter to leave empty'));
    pick.ignoreFocusOut = true;
    // Keep the server's order, suggestions before the typed text (a property the workbench honours
    // though the stable typings do not list it).
    (pick as { sortByLabel?: boolean }).sortByLabel = false;
    let generation = 0;
    let settled = false;
    const suggest = async (value: string) => {
      const mine = ++generation;
      pick.busy = true;
      try {
        const values = await host.complete(serverId, {
          ref: { type: 'ref/prompt', name: prompt.name },
          argument: { name: argument.name, value },
          context: Object.keys(context).length ? { arguments: context } : undefined,
        });
        if (mine !== generation) return;
        // Suggestions first, so Enter takes the best match; the typed text stays one arrow away.
        const typed = value && !values.includes(value) ? [{ label: value, description: vscode.l10n.t('as typed') }] : [];
        pick.items = [...values.map((label) => ({ label })), ...typed];
      } catch {
        // Suggestions are a convenience: a server that fails them still gets its argument typed.
        if (mine === generation) pick.items = value ? [{ label: value }] : [];
      } finally {
        if (mine === generation) pick.busy = false;
      }
    };
    const finish = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((value) => void suggest(value));
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.label ?? pick.value;
      if (argument.required && !value) {
        pick.placeholder = vscode.l10n.t('"{0}" is required: type a value.', argument.name);
        return;
      }
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    void suggest('');
  });
}
