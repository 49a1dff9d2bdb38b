import type { Prompt, PromptArgument } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ServerCalls } from '../../core/host/hostPorts';
import { askCompletedValue } from '../ui/completionInput';

/**
 * Asks for prompt arguments one by one, offering the server's `completion/complete` suggestions
 * (with the arguments given so far as context) while the user types. Undefined when cancelled.
 */
export async function askPromptArguments(
  host: ServerCalls,
  serverId: string,
  prompt: Prompt,
  toAsk: readonly PromptArgument[],
  known: Record<string, string>,
): Promise<Record<string, string> | undefined> {
  const values = { ...known };
  for (const argument of toAsk) {
    const field = {
      title: vscode.l10n.t(
        '{0} ({1}): {2}{3}',
        prompt.title ?? prompt.name,
        serverId,
        argument.name,
        argument.required ? ' *' : '',
      ),
      name: argument.name,
      description: argument.description,
      required: argument.required === true,
    };
    const value = await askCompletedValue(host, serverId, { type: 'ref/prompt', name: prompt.name }, field, values);
    if (value === undefined) return undefined;
    if (value !== '') values[argument.name] = value;
  }
  return values;
}
