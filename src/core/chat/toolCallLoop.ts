/**
 * The conversation between a chat model and MCP tools: send the messages with the tools, run the
 * tool calls the model asks for, give it the results, and repeat until it answers in text or the
 * round limit is reached. Pure: the model and the tool runner are passed in.
 */
import type { ModelMessage, ModelPart, ModelTool, ModelToolCall } from '../models/modelMessages';

export interface LoopModel {
  /** Streams the model's answer: text fragments and tool calls. */
  send(messages: readonly ModelMessage[], tools: readonly ModelTool[], signal: AbortSignal): AsyncIterable<ModelPart>;
}

/** How one tool call ended: `error` is a tool execution error the model can correct. */
export interface ToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

export interface ToolLoopHooks {
  onText(text: string): void;
  onToolCall(call: ModelToolCall): void;
  /** Runs one call; must not throw (failures become outcomes with isError). */
  runTool(call: ModelToolCall, signal: AbortSignal): Promise<ToolOutcome>;
}

export interface ToolLoopResult {
  readonly rounds: number;
  /** True when the model still asked for tools after the last allowed round. */
  readonly stoppedAtLimit: boolean;
  readonly messages: readonly ModelMessage[];
}

export const DEFAULT_MAX_ROUNDS = 8;

/**
 * `tools` may be a function: it is asked again each round, so tools a search found in one round
 * are offered in the next.
 */
export async function runToolLoop(
  model: LoopModel,
  tools: readonly ModelTool[] | (() => readonly ModelTool[]),
  initial: readonly ModelMessage[],
  hooks: ToolLoopHooks,
  signal: AbortSignal,
  maxRounds = DEFAULT_MAX_ROUNDS,
): Promise<ToolLoopResult> {
  const messages = [...initial];
  for (let round = 1; round <= maxRounds; round++) {
    const assistant: ModelPart[] = [];
    const calls: ModelToolCall[] = [];
    // The last round offers no tools, so the model has to answer in words.
    const offered = round === maxRounds ? [] : typeof tools === 'function' ? tools() : tools;
    for await (const part of model.send(messages, offered, signal)) {
      if (signal.aborted) break;
      if (part.kind === 'text') {
        hooks.onText(part.text);
        assistant.push(part);
      } else if (part.kind === 'toolCall') {
        hooks.onToolCall(part);
        assistant.push(part);
        calls.push(part);
      }
    }
    if (assistant.length > 0) messages.push({ role: 'assistant', parts: assistant });
    if (calls.length === 0 || signal.aborted) return { rounds: round, stoppedAtLimit: false, messages };
    if (round === maxRounds) break;
    const results: ModelPart[] = [];
    for (const call of calls) {
      const outcome = signal.aborted
        ? { text: 'Cancelled by the user.', isError: true }
        : await hooks.runTool(call, signal);
      results.push({
        kind: 'toolResult',
        callId: call.callId,
        content: [{ kind: 'text', text: outcome.text }],
        isError: outcome.isError,
      });
    }
    messages.push({ role: 'user', parts: results });
  }
  return { rounds: maxRounds, stoppedAtLimit: true, messages };
}
