import type { CompleteRequest } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ServerCalls } from '../../core/host/hostPorts';

/** One value to ask for: a prompt argument or a resource-template variable. */
export interface CompletedField {
  readonly title: string;
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/**
 * Asks for one value in a quick pick, offering the server's `completion/complete` suggestions for
 * `ref` (with the values given so far as context) while the user types; what they type is
 * accepted too. Undefined when cancelled.
 */
export function askCompletedValue(
  host: ServerCalls,
  serverId: string,
  ref: CompleteRequest['params']['ref'],
  field: CompletedField,
  context: Record<string, string>,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = field.title;
    pick.placeholder =
      field.description ??
      (field.required ? vscode.l10n.t('Required') : vscode.l10n.t('Optional: press Enter to leave empty'));
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
          ref,
          argument: { name: field.name, value },
          context: Object.keys(context).length ? { arguments: context } : undefined,
        });
        if (mine !== generation) return;
        // Suggestions first, so Enter takes the best match; the typed text stays one arrow away.
        const typed =
          value && !values.includes(value) ? [{ label: value, description: vscode.l10n.t('as typed') }] : [];
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
      if (field.required && !value) {
        pick.placeholder = vscode.l10n.t('"{0}" is required: type a value.', field.name);
        return;
      }
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    void suggest('');
  });
}
