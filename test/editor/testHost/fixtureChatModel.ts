// A deterministic chat model for editor tests, registered through the public language-model API.
// It answers by rule, so a test can tell exactly what reached the model and what came back:
// - the request (the last user text) says "use <tool> <json>", a tool with that name (or suffix)
//   is offered and this request has not called it yet → a tool call
// - the same, the tool is not offered but a tool search is, and nothing was searched yet → a
//   search for <tool>
// - the last user message holds tool results → "Tool results: …"
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
    provideTokenCount: async (_model, text) =>
      (typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4,
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
      const textOf = (m: vscode.LanguageModelChatRequestMessage) =>
        m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      const at = messages
        .map((m, i) => (m.role === vscode.LanguageModelChatMessageRole.User && textOf(m) ? i : -1))
        .reduce((a, b) => Math.max(a, b), -1);
      const calledNow = messages
        .slice(at + 1)
        .flatMap((m) =>
          m.content
            .filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart)
            .map((p) => p.name),
        );
      const use = at >= 0 ? /use (\S+) (\{.*\})/.exec(textOf(messages[at])) : null;
      const tool = use && tools.find((name) => name === use[1] || name.endsWith(`_${use[1]}`));
      if (use && tool && !calledNow.includes(tool)) {
        progress.report(new vscode.LanguageModelToolCallPart(`call-${recorded.length}`, tool, JSON.parse(use[2])));
        return;
      }
      const search = tools.find((name) => name === 'mcp_search_tools');
      if (use && !tool && search && !calledNow.includes(search)) {
        progress.report(new vscode.LanguageModelToolCallPart(`call-${recorded.length}`, search, { query: use[1] }));
        return;
      }
      const results = last.content.filter(
        (p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart,
      );
      if (results.length) {
        const said = results
          .map((r) => r.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join(''))
          .join(' | ');
        progress.report(new vscode.LanguageModelTextPart(`Tool results: ${said}`));
        return;
      }
      progress.report(new vscode.LanguageModelTextPart(`Model saw: ${texts.join(' / ')}`));
    },
  });
}
