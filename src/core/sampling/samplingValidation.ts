/**
 * The spec's rules for the messages of a sampling request with tools: a user message with tool
 * results holds only tool results, and every tool use is answered by a result in the next
 * message. Content the host cannot pass to a model is refused rather than dropped unseen.
 * Violations are Invalid params (-32602) with the spec's messages.
 */
export const INVALID_PARAMS = -32602;

export class SamplingRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** One content block of a sampling message or result, read loosely (the SDK validated its shape). */
export type SamplingBlock = Readonly<Record<string, unknown>> & {
  readonly type: string;
  readonly id?: string;
  readonly toolUseId?: string;
  readonly content?: readonly SamplingBlock[];
};

const MESSAGE_CONTENT = new Set(['text', 'image', 'audio', 'tool_use', 'tool_result']);
const TOOL_RESULT_CONTENT = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

interface Message {
  readonly role: string;
  readonly content: unknown;
}

/** The blocks of a message or result, whose `content` may be one block or a list. */
export function blocksOf(holder: { readonly content: unknown }): readonly SamplingBlock[] {
  return (Array.isArray(holder.content) ? holder.content : [holder.content]) as SamplingBlock[];
}

/** Throws {@link SamplingRequestError} for the first rule the messages break. */
export function validateSamplingMessages(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    for (const block of blocks) {
      if (!MESSAGE_CONTENT.has(block.type)) throw unsupported(block.type, index);
      for (const inner of block.type === 'tool_result' ? (block.content ?? []) : []) {
        if (!TOOL_RESULT_CONTENT.has(inner.type)) throw unsupported(inner.type, index);
      }
    }
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length && results.length !== blocks.length) {
      throw new SamplingRequestError(INVALID_PARAMS, `Tool results mixed with other content (message ${index + 1})`);
    }
    const uses = blocks.filter((b) => b.type === 'tool_use');
    if (message.role !== 'assistant' || uses.length === 0) return;
    const next = messages[index + 1];
    const answered = new Set(
      next && next.role === 'user'
        ? blocksOf(next)
            .filter((b) => b.type === 'tool_result')
            .map((b) => b.toolUseId)
        : [],
    );
    const missing = uses.filter((u) => !answered.has(u.id));
    if (missing.length) {
      throw new SamplingRequestError(
        INVALID_PARAMS,
        `Tool result missing in request (tool use ${missing.map((u) => JSON.stringify(u.id)).join(', ')} in message ${index + 1} has no result in the next message)`,
      );
    }
  });
}

function unsupported(type: string, index: number): SamplingRequestError {
  return new SamplingRequestError(
    INVALID_PARAMS,
    `Unsupported content type ${JSON.stringify(type)} in message ${index + 1}: the host passes text, image, audio, tool_use and tool_result content to the model`,
  );
}
