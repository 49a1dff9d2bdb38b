import * as vscode from 'vscode';
import type { ModelContent, ModelMessage, ModelPart, ModelTool } from '../../core/models/modelMessages';

type ChatPart =
  | vscode.LanguageModelTextPart
  | vscode.LanguageModelDataPart
  | vscode.LanguageModelToolCallPart
  | vscode.LanguageModelToolResultPart;

/** A host-side message as the editor's language-model API takes it. */
export function toLanguageModelMessage(message: ModelMessage): vscode.LanguageModelChatMessage {
  const parts = message.parts.map(toChatPart);
  return message.role === 'assistant'
    ? vscode.LanguageModelChatMessage.Assistant(
        parts as (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart | vscode.LanguageModelToolCallPart)[],
      )
    : vscode.LanguageModelChatMessage.User(
        parts as (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart | vscode.LanguageModelToolResultPart)[],
      );
}

export function toLanguageModelTool(tool: ModelTool): vscode.LanguageModelChatTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/** A part of the model's streamed answer in host terms; undefined for parts the host does not use. */
export function fromResponsePart(part: unknown): ModelPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart)
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input as Record<string, unknown> };
  if (part instanceof vscode.LanguageModelDataPart) return { kind: 'data', mimeType: part.mimeType, data: part.data };
  return undefined;
}

function toChatPart(part: ModelPart): ChatPart {
  switch (part.kind) {
    case 'toolCall':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'toolResult': {
      // The API has no error flag on tool results; the model reads it in the text.
      const content = part.content.map(toContentPart);
      return new vscode.LanguageModelToolResultPart(
        part.callId,
        part.isError ? [new vscode.LanguageModelTextPart('Error: '), ...content] : content,
      );
    }
    default:
      return toContentPart(part);
  }
}

function toContentPart(content: ModelContent): vscode.LanguageModelTextPart | vscode.LanguageModelDataPart {
  return content.kind === 'text'
    ? new vscode.LanguageModelTextPart(content.text)
    : new vscode.LanguageModelDataPart(content.data, content.mimeType);
}
