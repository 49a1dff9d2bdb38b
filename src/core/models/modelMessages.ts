/**
 * A conversation with a chat model in the host's own terms, independent of the editor's API:
 * what the chat participant's tool loop and the sampling router both send, and what the editor
 * adapter turns into `vscode.LanguageModelChatMessage`s.
 */
export type ModelContent =
  | { readonly kind: 'text'; readonly text: string }
  /** Images, audio, anything binary, with its MIME type. */
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: Uint8Array };

export type ModelToolCall = {
  readonly kind: 'toolCall';
  readonly callId: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
};

export type ModelPart =
  | ModelContent
  | ModelToolCall
  | {
      readonly kind: 'toolResult';
      readonly callId: string;
      readonly content: readonly ModelContent[];
      readonly isError: boolean;
    };

export interface ModelMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ModelPart[];
}

export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
}

/** The text of a tool result's content, for rules and displays that only read text. */
export function contentTextOf(content: readonly ModelContent[]): string {
  return content.map((c) => (c.kind === 'text' ? c.text : `[${c.mimeType}, ${c.data.byteLength} bytes]`)).join('\n');
}
