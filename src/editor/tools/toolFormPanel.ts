import type { Tool } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { buildArgumentsForm } from '../../core/forms/schemaForm';
import { SchemaCompileError, validateAgainstSchema } from '../../core/forms/schemaValidation';
import type { FieldProblem } from '../../shared/protocol/formModel';
import type { ToolFormInit } from '../../shared/protocol/toolForm';
import { askInForm } from '../webviews/formPanel';
import { annotationBadges, toolLabel } from './toolLabels';

/**
 * Asks for a tool's arguments in a form generated from its input schema. Resolves with arguments
 * that passed the schema, or undefined when the user cancels or closes the form.
 */
export async function askToolArguments(
  extensionUri: vscode.Uri,
  serverId: string,
  tool: Tool,
  again?: { readonly values: Record<string, unknown>; readonly notice: string },
): Promise<Record<string, unknown> | undefined> {
  const check = (values: Record<string, unknown>): FieldProblem[] => {
    try {
      return validateAgainstSchema(tool.inputSchema, values);
    } catch (error) {
      if (error instanceof SchemaCompileError)
        return [
          {
            path: '',
            message: `${error.message} (the server's schema for "${tool.name}"); the host cannot check the arguments.`,
          },
        ];
      throw error;
    }
  };
  const { outcome } = askInForm(extensionUri, {
    viewType: 'mcpHost.toolForm',
    title: vscode.l10n.t('Run {0}', toolLabel(tool)),
    init: {
      title: toolLabel(tool),
      serverId,
      description: tool.description,
      badges: annotationBadges(tool),
      form: buildArgumentsForm(tool.inputSchema),
      submitLabel: vscode.l10n.t('Run'),
      values: again?.values as ToolFormInit['values'],
      notice: again?.notice,
    },
    check,
  });
  const result = await outcome;
  return result.action === 'submit' ? result.values : undefined;
}
