// What a tool call's confirmation asks and answers: shared by the invoker, the queue of pending
// confirmations and the editor's dialog.
import type { Tool } from '@modelcontextprotocol/client';
import type { ApprovalScope, ToolChange } from './toolApprovals';

/** Who asked for the call: the user from a command, a chat model, or a server's app (MCP Apps). */
export type ToolCallOrigin = 'user' | 'model' | 'app';

export interface ToolConfirmationRequest {
  readonly serverId: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly origin: ToolCallOrigin;
  /** What changed since the user last approved this tool; empty on a first approval. */
  readonly changes: readonly ToolChange[];
}

/** `once`: run this call only; a scope: also remember the approval. */
export type ConfirmationAnswer = 'once' | ApprovalScope | 'deny';

export interface ToolConfirmationPort {
  confirm(request: ToolConfirmationRequest, signal: AbortSignal): Promise<ConfirmationAnswer>;
}
