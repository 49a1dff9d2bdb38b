import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/client';
import type { ModelContent, ModelMessage, ModelPart, ModelTool, ModelToolCall } from '../models/modelMessages';
import { blocksOf, type SamplingBlock } from './samplingValidation';

/** What a server asks to sample (`sampling/createMessage`'s params). */
export type SamplingParams = CreateMessageRequest['params'];

export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools;

/** A sampling request in the form a chat model takes it. */
export interface SamplingConversation {
  readonly messages: readonly ModelMessage[];
  /** Tools the model may call; empty when none are offered or `toolChoice` is `none`. */
  readonly tools: readonly ModelTool[];
  /** `required` when the server insists on a tool call; `auto` otherwise. */
  readonly toolMode: 'auto' | 'required';
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences: readonly string[];
}

/**
 * Maps a `sampling/createMessage` request to a model conversation: the system prompt leads as a
 * user message (the editor's model API has no system role), text stays text, images and audio
 * become binary parts, `tool_use` / `tool_result` become the model's tool call and result parts.
 * Content types the host does not know were already refused by validation.
 */
export function toSamplingConversation(params: SamplingParams): SamplingConversation {
  const messages: ModelMessage[] = [];
  if (params.systemPrompt) messages.push({ role: 'user', parts: [{ kind: 'text', text: params.systemPrompt }] });
  for (const message of params.messages) {
    messages.push({ role: message.role, parts: blocksOf(message).map(toPart) });
  }
  const choice = (params as { toolChoice?: { mode?: string } }).toolChoice?.mode;
  const offered =
    (params as { tools?: readonly { name: string; description?: string; inputSchema: object }[] }).tools ?? [];
  return {
    messages,
    tools:
      choice === 'none'
        ? []
        : offered.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })),
    toolMode: choice === 'required' ? 'required' : 'auto',
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences ?? [],
  };
}

function toPart(block: SamplingBlock): ModelPart {
  switch (block.type) {
    case 'tool_use':
      return {
        kind: 'toolCall',
        callId: String(block.id),
        name: String(block.name),
        input: (block.input ?? {}) as Record<string, unknown>,
      };
    case 'tool_result': {
      const content = (block.content ?? []).map(toContent);
      if (content.length === 0 && block.structuredContent !== undefined)
        content.push({ kind: 'text', text: JSON.stringify(block.structuredContent) });
      return { kind: 'toolResult', callId: String(block.toolUseId), content, isError: block.isError === true };
    }
    default:
      return toContent(block);
  }
}

/** One content block as text or binary data; resources by their contents, links by their URI. */
function toContent(block: SamplingBlock): ModelContent {
  switch (block.type) {
    case 'image':
    case 'audio':
      return { kind: 'data', mimeType: String(block.mimeType), data: Buffer.from(String(block.data), 'base64') };
    case 'resource': {
      const resource = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (typeof resource.text === 'string') return { kind: 'text', text: resource.text };
      return {
        kind: 'data',
        mimeType: resource.mimeType ?? 'application/octet-stream',
        data: Buffer.from(resource.blob ?? '', 'base64'),
      };
    }
    case 'resource_link':
      return { kind: 'text', text: `Resource: ${String(block.uri)}` };
    default:
      return { kind: 'text', text: String(block.text ?? '') };
  }
}

/**
 * Collects a model's streamed answer and turns it into the result the server gets: text (cut at
 * the first stop sequence, since the model API takes none), images and audio, tool calls as
 * `tool_use` with `stopReason: "toolUse"`. With tools in the request the content is always an array;
 * without, it is one block, as the pre-tools result shape requires, and what did not fit is listed
 * in `dropped`.
 */
export class SamplingAnswer {
  private text = '';
  private readonly calls: ModelToolCall[] = [];
  private readonly data: Extract<ModelContent, { kind: 'data' }>[] = [];
  private stopped = false;
  private readonly longestStop: number;

  constructor(private readonly stopSequences: readonly string[] = []) {
    this.longestStop = Math.max(0, ...stopSequences.map((s) => s.length));
  }

  get textSoFar(): string {
    return this.text;
  }

  /** Adds one streamed part; false once a stop sequence has been reached (stop reading then). */
  add(part: ModelPart): boolean {
    if (this.stopped) return false;
    if (part.kind === 'text') {
      const from = Math.max(0, this.text.length - this.longestStop);
      this.text += part.text;
      const hits = this.stopSequences.map((s) => (s ? this.text.indexOf(s, from) : -1)).filter((i) => i >= 0);
      if (hits.length) {
        this.text = this.text.slice(0, Math.min(...hits));
        this.stopped = true;
        return false;
      }
    } else if (part.kind === 'toolCall') this.calls.push(part);
    else if (part.kind === 'data') this.data.push(part);
    return true;
  }

  result(model: string, toolsOffered: boolean): { result: SamplingResult; dropped: string[] } {
    const blocks: Record<string, unknown>[] = [];
    const dropped: string[] = [];
    if (this.text || (this.calls.length === 0 && this.data.length === 0))
      blocks.push({ type: 'text', text: this.text });
    for (const d of this.data) {
      const type = d.mimeType.startsWith('image/') ? 'image' : d.mimeType.startsWith('audio/') ? 'audio' : undefined;
      if (type) blocks.push({ type, mimeType: d.mimeType, data: Buffer.from(d.data).toString('base64') });
      else
        dropped.push(
          `${d.mimeType} data (${d.data.byteLength} bytes): sampling results carry only text, images and audio`,
        );
    }
    for (const c of this.calls) blocks.push({ type: 'tool_use', id: c.callId, name: c.name, input: c.input });
    const stopReason = this.calls.length ? 'toolUse' : this.stopped ? 'stopSequence' : 'endTurn';
    if (!toolsOffered) {
      dropped.push(
        ...blocks.slice(1).map((b) => `${String(b.type)} content: a request without tools gets one content block`),
      );
      return { result: { role: 'assistant', model, stopReason, content: blocks[0] } as SamplingResult, dropped };
    }
    return { result: { role: 'assistant', model, stopReason, content: blocks } as SamplingResult, dropped };
  }
}

/** The user's edits to a request in the approval panel: the system prompt and text blocks by `message/block` index. */
export interface SamplingEdits {
  readonly systemPrompt?: string;
  readonly texts: Readonly<Record<string, string>>;
}

export function applySamplingEdits(params: SamplingParams, edits: SamplingEdits): SamplingParams {
  const messages = params.messages.map((message, m) => {
    const blocks = blocksOf(message);
    const edited = blocks.map((block, b) => {
      const text = edits.texts[`${m}/${b}`];
      return text !== undefined && block.type === 'text' ? { ...block, text } : block;
    });
    return { ...message, content: Array.isArray(message.content) ? edited : edited[0] };
  });
  return {
    ...params,
    messages: messages as SamplingParams['messages'],
    ...(edits.systemPrompt ? { systemPrompt: edits.systemPrompt } : {}),
  };
}

/** The answer with its text replaced by the user's edit (answers with exactly one text block only). */
export function withAnswerText(result: SamplingResult, text: string): SamplingResult {
  const blocks = blocksOf(result);
  const texts = blocks.filter((b) => b.type === 'text');
  if (texts.length !== 1) return result;
  const content = blocks.map((b) => (b.type === 'text' ? { ...b, text } : b));
  return { ...result, content: Array.isArray(result.content) ? content : content[0] } as SamplingResult;
}
