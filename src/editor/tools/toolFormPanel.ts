import type { Tool } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { buildArgumentsForm } from '../../core/forms/schemaForm';
import { SchemaCompileError, validateAgainstSchema } from '../../core/forms/schemaValidation';
import type { FieldProblem } from '../../shared/protocol/formModel';
import type { FormToHost, HostToForm } from '../../shared/protocol/toolForm';
import { openWebviewPanel } from '../webviews/webviewPanel';
import { annotationBadges, toolLabel } from './toolLabels';

/**
 * Asks for a tool's arguments in a form generated from its input schema. Resolves with arguments
 * that passed the schema, or undefined when the user cancels or closes the form.
 */
export function askToolArguments(extensionUri: vscode.Uri, serverId: string, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const panel = openWebviewPanel(extensionUri, 'mcpHost.toolForm', vscode.l10n.t('Run {0}', toolLabel(tool)), 'toolForm');
  const post = (message: HostToForm) => void panel.webview.postMessage(message);
  const check = (values: Record<string, unknown>): FieldProblem[] => {
    try {
      return validateAgainstSchema(tool.inputSchema, values);
    } catch (error) {
      if (error instanceof SchemaCompileError) return [{ path: '', message: `${error.message} (the server's schema for "${tool.name}"); the host cannot check the arguments.` }];
      throw error;
    }
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: Record<string, unknown> | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      panel.dispose();
    };
    panel.onDidDispose(() => finish(undefined));
    panel.webview.onDidReceiveMessage((message: FormToHost) => {
      switch (message.type) {
        case 'ready':
          post({
            type: 'init',
            init: {
              title: toolLabel(tool),
              serverId,
              description: tool.description,
              badges: annotationBadges(tool),
              form: buildArgumentsForm(tool.inputSchema),
              submitLabel: vscode.l10n.t('Run'),
            },
          });
          break;
        case 'validate':
          post({ type: 'problems', problems: check(message.values), submitted: false });
          break;
        case 'submit': {
          const problems = check(message.values);
          if (problems.length) post({ type: 'problems', problems, submitted: true });
          else finish(message.values);
          break;
        }
        case 'cancel':
          finish(undefined);
          break;
      }
    });
  });
}
