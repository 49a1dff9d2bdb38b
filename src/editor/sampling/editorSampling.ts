import * as vscode from 'vscode';
import type { ServerDirectory, ServerPolicies } from '../../core/host/hostPorts';
import { SamplingRouter } from '../../core/sampling/samplingRouter';
import { updateServerField } from '../config/serverSettingsWriter';
import type { PendingRequests } from '../ui/pendingRequests';
import { LanguageModelBackend } from './languageModelBackend';
import { SamplingApprovalPanels } from './samplingApprovalPanel';

/**
 * Sampling in the editor: the user reviews each request in a panel, the editor's language models
 * answer, and "allow always" is written to the server's settings.
 */
export function createEditorSampling(
  extensionUri: vscode.Uri,
  pending: PendingRequests,
  host: () => Pick<ServerDirectory, 'definition'> & Pick<ServerPolicies, 'samplingPolicy'>,
): SamplingRouter {
  const models = new LanguageModelBackend();
  return new SamplingRouter({
    backend: models,
    approval: new SamplingApprovalPanels({
      extensionUri,
      pending,
      modelLabel: (id) => models.label(id),
      allowAlways: async (serverId) => {
        const definition = host().definition(serverId);
        if (!definition) throw new Error('the server is no longer in the settings');
        if (definition.origin)
          throw new Error(
            vscode.l10n.t(
              'it is read from {0} ({1}), which MCP Host does not write; import it (MCP Host: Import Servers…) to keep this choice',
              definition.origin.host,
              definition.origin.file,
            ),
          );
        await updateServerField(definition, ['sampling', 'mode'], 'allowAlways');
      },
    }),
    policyFor: (id) => host().samplingPolicy(id),
    notify: (message) => void vscode.window.showWarningMessage(message),
  });
}
