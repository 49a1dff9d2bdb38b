import * as vscode from 'vscode';
import type { ModelPart } from '../../core/models/modelMessages';
import type { ModelInfo } from '../../core/sampling/modelSelection';
import type { SamplingConversation } from '../../core/sampling/samplingConversation';
import type { SamplingBackend } from '../../core/sampling/samplingRouter';
import { fromResponsePart, toLanguageModelMessage, toLanguageModelTool } from '../models/languageModelMessages';

/** Sampling through the editor's language models (`vscode.lm`). */
export class LanguageModelBackend implements SamplingBackend {
  private chats = new Map<string, vscode.LanguageModelChat>();

  async models(): Promise<ModelInfo[]> {
    const chats = await vscode.lm.selectChatModels();
    this.chats = new Map(chats.map((c) => [c.id, c]));
    return chats.map((c) => ({
      id: c.id,
      name: c.name,
      family: c.family,
      vendor: c.vendor,
      maxInputTokens: c.maxInputTokens,
    }));
  }

  /** The model's name as people know it ("GPT-4o · copilot"). */
  label(id: string): string {
    const chat = this.chats.get(id);
    return chat ? `${chat.name} · ${chat.vendor}` : id;
  }

  async *stream(model: ModelInfo, conversation: SamplingConversation, signal: AbortSignal): AsyncIterable<ModelPart> {
    const chat = this.chats.get(model.id) ?? (await vscode.lm.selectChatModels({ id: model.id }))[0];
    if (!chat) throw new Error(`the language model "${model.name}" is no longer available`);
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await chat.sendRequest(
        conversation.messages.map(toLanguageModelMessage),
        {
          justification: vscode.l10n.t('An MCP server asked for a completion, and you approved it.'),
          tools: conversation.tools.length ? conversation.tools.map(toLanguageModelTool) : undefined,
          toolMode:
            conversation.toolMode === 'required'
              ? vscode.LanguageModelChatToolMode.Required
              : vscode.LanguageModelChatToolMode.Auto,
          // Model options are the provider's own; these names are the common ones. Stop sequences
          // are applied by the host, since the API has no field for them.
          modelOptions: {
            maxTokens: conversation.maxTokens,
            ...(conversation.temperature === undefined ? {} : { temperature: conversation.temperature }),
          },
        },
        cancellation.token,
      );
      for await (const part of response.stream) {
        const mapped = fromResponsePart(part);
        if (mapped) yield mapped;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // The reader may stop early (a stop sequence): end the model request with the stream.
      cancellation.cancel();
      cancellation.dispose();
    }
  }
}
