// A deterministic chat model for editor tests, registered through the public language-model API.
// It answers by rule, so a test can tell exactly what reached the model and what came back:
// - the last user message holds tool results → "Tool results: …"
// - the text says "use <tool> <json>" and a tool with that name (or suffix) is offered → a tool call
// - otherwise → "Model saw: " followed by every text part of the conversation.
import * as vscode from 'vscode';

export interface RecordedRequest {
  readonly texts: string[];
  readonly tools: string[];
  readonly images: number;
}

export const recorded: RecordedRequest[] = [];

const INFO = {
  id: 'fixture-model',
  name: 'Fixture Model',
  family: 'fixture',
  version: '1.0.0',
  maxInputTokens: 100_000,
  maxOutputTokens: 10_000,
  capabilities: { toolCalling: 128, imageInput: true },
  isUserSelectable: true,
  isDefault: true,
};

export function registerFixtureChatModel(): vscode.Disposable {
  return vscode.lm.registerLanguageModelChatProvider('mcp-host-test', {
    provideLanguageModelChatInformation: () => [INFO],
    provideTokenCount: async (_model, text) => (typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4,
    provideLanguageModelChatResponse: async (_model, messages, options, progress) => {
      const texts: string[] = [];
      let images = 0;
      for (const message of messages) {
        for (const part of message.content) {
          if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
          else if (part instanceof vscode.LanguageModelDataPart && part.mimeType.startsWith('image/')) images++;
        }
      }
      const tools = (options.tools ?? []).map((t) => t.name);
      recorded.push({ texts, tools, images });
      const last = messages[messages.length - 1];
      const results = last.content.filter((p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart);
      if (results.length) {
        const said = results.map((r) => r.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('')).join(' | ');
        progress.report(new vscode.LanguageModelTextPart(`Tool results: ${said}`));
        return;
      }
      const lastText = last.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      const use = /use (\S+) (\{.*\})/.exec(lastText);
      const tool = use && tools.find((name) => name === use[1] || name.endsWith(`_${use[1]}`));
      if (use && tool) {
        progress.report(new vscode.LanguageModelToolCallPart(`call-${recorded.length}`, tool, JSON.parse(use[2])));
        return;
      }
      progress.report(new vscode.LanguageModelTextPart(`Model saw: ${texts.join(' / ')}`));
    },
  });
}
