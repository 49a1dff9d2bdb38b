import type { SamplingAnswerView, SamplingBlockView, SamplingRequestView } from '../../shared/protocol/samplingPanel';
import type { SamplingResult } from './samplingConversation';
import type { SamplingParams } from './samplingConversation';
import type { SamplingReviewRequest } from './samplingRouter';
import { blocksOf, type SamplingBlock } from './samplingValidation';

/** What the approval panel shows of a request: every message, parameter, preference and tool. */
export function samplingRequestView(
  request: SamplingReviewRequest,
  modelLabel: (id: string) => string,
): SamplingRequestView {
  const { params } = request;
  const messages = params.messages.map((message, m) => ({
    role: message.role,
    blocks: blocksOf(message).map((block, b) => blockView(block, `${m}/${b}`)),
  }));
  const extra = params as SamplingParams & {
    tools?: { name: string; description?: string; inputSchema: object }[];
    toolChoice?: { mode?: string };
  };
  const notes: string[] = [];
  if (params.includeContext && params.includeContext !== 'none') {
    notes.push(
      `The server asks to include context from "${params.includeContext}"; this host does not add context from other servers (it does not declare sampling.context), so only the messages below are sent.`,
    );
  }
  const prefs = params.modelPreferences;
  return {
    serverId: request.serverId,
    askFirst: request.askFirst,
    reviewResponse: request.reviewResponse,
    systemPrompt: params.systemPrompt,
    messages,
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences ?? [],
    preferences: [
      ...(prefs?.hints ?? []).flatMap((h) => (h.name ? [`hint: ${h.name}`] : [])),
      ...(['costPriority', 'speedPriority', 'intelligencePriority'] as const).flatMap((k) =>
        typeof prefs?.[k] === 'number' ? [`${k.replace('Priority', '')} priority: ${prefs[k]}`] : [],
      ),
    ],
    tools: (extra.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description ?? '',
      schema: JSON.stringify(t.inputSchema, null, 2),
    })),
    toolChoice: extra.toolChoice?.mode,
    models: request.models.map((m) => ({ id: m.id, label: modelLabel(m.id) })),
    modelId: request.choice.model.id,
    modelReason: request.choice.reason,
    notes,
  };
}

export function samplingAnswerView(result: SamplingResult, dropped: readonly string[]): SamplingAnswerView {
  const blocks = blocksOf(result).map((block, b) => blockView(block, `answer/${b}`));
  return {
    blocks,
    stopReason: result.stopReason,
    model: result.model,
    editable: blocks.filter((b) => b.kind === 'text').length === 1,
    dropped,
  };
}

function blockView(block: SamplingBlock, key: string): SamplingBlockView {
  switch (block.type) {
    case 'text':
      return { kind: 'text', key, text: String(block.text ?? '') };
    case 'image':
    case 'audio':
      return { kind: block.type, mimeType: String(block.mimeType), data: String(block.data) };
    case 'tool_use':
      return {
        kind: 'toolUse',
        id: String(block.id),
        name: String(block.name),
        input: JSON.stringify(block.input ?? {}, null, 2),
      };
    case 'tool_result': {
      const content = block.content ?? [];
      const text = content
        .map((c) =>
          c.type === 'text'
            ? String(c.text)
            : c.type === 'resource_link'
              ? `Resource: ${String(c.uri)}`
              : `[${c.type}]`,
        )
        .join('\n');
      return {
        kind: 'toolResult',
        toolUseId: String(block.toolUseId),
        text: text || JSON.stringify(block.structuredContent ?? null),
        isError: block.isError === true,
      };
    }
    default:
      return { kind: 'text', key: '', text: `[${block.type} content]` };
  }
}
