import type { GetPromptResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { LoopModel } from '../../core/chat/toolCallLoop';
import type { ModelMessage, ModelPart, ModelTool } from '../../core/models/modelMessages';
import { contentText } from '../../core/prompts/promptMessages';
import { fromResponsePart, toLanguageModelMessage, toLanguageModelTool } from '../models/languageModelMessages';

/** The tool-call loop's model, played by a VS Code chat model. */
export class LanguageModelBridge implements LoopModel {
  /** Messages in the model's own form that precede the loop's (prompt messages with images). */
  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly token: vscode.CancellationToken,
    private readonly preamble: readonly vscode.LanguageModelChatMessage[] = [],
  ) {}

  async *send(messages: readonly ModelMessage[], tools: readonly ModelTool[]): AsyncIterable<ModelPart> {
    const response = await this.model.sendRequest(
      [...this.preamble, ...messages.map(toLanguageModelMessage)],
      {
        tools: tools.map(toLanguageModelTool),
        toolMode: vscode.LanguageModelChatToolMode.Auto,
        justification: vscode.l10n.t('MCP Host sends your request and the tools of your MCP servers to the model.'),
      },
      this.token,
    );
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
    } else if (message.content.type === 'resource' && typeof resource.blob === 'string' && String(resource.mimeType).startsWith('image/')) {
      part = vscode.LanguageModelDataPart.image(Buffer.from(resource.blob, 'base64'), String(resource.mimeType));
    } else {
      part = new vscode.LanguageModelTextPart(contentText(message.content));
    }
    return message.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant([part]) : vscode.LanguageModelChatMessage.User([part]);
  });
}
