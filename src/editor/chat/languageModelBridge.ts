import type { GetPromptResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { whenModelAvailable, type ModelAvailability } from '../../core/chat/modelAvailability';
import type { LoopModel } from '../../core/chat/toolCallLoop';
import type { ModelMessage, ModelPart, ModelTool } from '../../core/models/modelMessages';
import { contentText } from '../../core/prompts/promptMessages';
import { fromResponsePart, toLanguageModelMessage, toLanguageModelTool } from '../models/languageModelMessages';

/** How long a request waits for a chat model that is still loading (a window's first request). */
const MODEL_LOAD_WAIT_MS = 30_000;

/** VS Code says "Language model unavailable" (or NotFound) while a model's provider is not ready. */
const LANGUAGE_MODELS: ModelAvailability = {
  isUnavailable: (error) =>
    (error instanceof vscode.LanguageModelError && error.code === vscode.LanguageModelError.NotFound.name) ||
    /language model (is )?unavailable/i.test((error as Error)?.message ?? ''),
  changed: () => {
    let listener: vscode.Disposable | undefined;
    const promise = new Promise<void>((resolve) => (listener = vscode.lm.onDidChangeChatModels(() => resolve())));
    return { promise, dispose: () => listener?.dispose() };
  },
};

/** The tool-call loop's model, played by a VS Code chat model. */
export class LanguageModelBridge implements LoopModel {
  /** Messages in the model's own form that precede the loop's (prompt messages with images). */
  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly token: vscode.CancellationToken,
    private readonly preamble: readonly vscode.LanguageModelChatMessage[] = [],
    /** Told once when the model is still loading and the request waits for it. */
    private readonly onWaiting?: () => void,
  ) {}

  async *send(messages: readonly ModelMessage[], tools: readonly ModelTool[]): AsyncIterable<ModelPart> {
    const send = async () =>
      this.model.sendRequest(
        [...this.preamble, ...messages.map(toLanguageModelMessage)],
        {
          tools: tools.map(toLanguageModelTool),
          toolMode: vscode.LanguageModelChatToolMode.Auto,
          justification: vscode.l10n.t('MCP Host sends your request and the tools of your MCP servers to the model.'),
        },
        this.token,
      );
    const abort = new AbortController();
    const cancelled = this.token.onCancellationRequested(() => abort.abort());
    let response: vscode.LanguageModelChatResponse;
    try {
      response = await whenModelAvailable(send, LANGUAGE_MODELS, {
        timeoutMs: MODEL_LOAD_WAIT_MS,
        signal: abort.signal,
        onWaiting: this.onWaiting,
      });
    } finally {
      cancelled.dispose();
    }
    for await (const part of response.stream) {
      const mapped = fromResponsePart(part);
      if (mapped) yield mapped;
    }
  }
}

/**
 * A prompt's messages for a chat model: text as text, images (and image resources) as image data,
 * embedded text resources as text. What the model API cannot take is described in text.
 */
export function promptToChatMessages(result: GetPromptResult): vscode.LanguageModelChatMessage[] {
  return result.messages.map((message) => {
    const c = message.content as Record<string, unknown>;
    const resource = (c.resource ?? {}) as Record<string, unknown>;
    let part: vscode.LanguageModelTextPart | vscode.LanguageModelDataPart;
    if (message.content.type === 'image' && typeof c.data === 'string') {
      part = vscode.LanguageModelDataPart.image(Buffer.from(c.data, 'base64'), String(c.mimeType));
    } else if (
      message.content.type === 'resource' &&
      typeof resource.blob === 'string' &&
      String(resource.mimeType).startsWith('image/')
    ) {
      part = vscode.LanguageModelDataPart.image(Buffer.from(resource.blob, 'base64'), String(resource.mimeType));
    } else {
      part = new vscode.LanguageModelTextPart(contentText(message.content));
    }
    return message.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant([part])
      : vscode.LanguageModelChatMessage.User([part]);
  });
}
