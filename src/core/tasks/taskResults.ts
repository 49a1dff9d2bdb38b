/**
 * Task results of the tasks extension (2026-07-28, SEP-2663): a server may answer a `tools/call`
 * with `resultType: "task"` (a task handle) instead of the tool's result. The client library
 * rejects result types it does not know, so the transport hands such an answer on as a
 * placeholder tool result carrying the task under CREATED_TASK_META; the host then follows the
 * task to its end. Only answers to `tools/call` are lifted: on any other request a task handle is
 * an invalid response (the spec's MUST), which the library reports as such.
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const CREATED_TASK_META = 'mcp-host/created-task';
/** A server that requires tasks answers this to a request that did not declare the extension. */
export const TASKS_REQUIRED_CODE = -32021;

/** The extension's requests about a task, which a client that follows the task itself sends. */
export const TASK_REQUESTS: readonly string[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];
/** The same for a 2025-11-25 task (a task-augmented `tools/call`), whose result is fetched apart. */
export const LEGACY_TASK_REQUESTS: readonly string[] = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'];

/** The task fields of a CreateTaskResult / tasks/get result. */
export interface WireTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  readonly ttlSeconds?: number | null;
  readonly pollIntervalMilliseconds?: number;
  readonly requestState?: string;
  readonly inputRequests?: Record<string, { method: string; params?: unknown }>;
  readonly result?: Record<string, unknown>;
  readonly error?: { code?: number; message?: string };
}

/** Tools/call ids in flight are remembered up to this many (older ones are forgotten). */
const MAX_PENDING_CALLS = 10_000;

export class TaskResultLift {
  private readonly calls = new Set<string | number>();

  /** Notes the ids of outgoing tools/call requests. */
  sent(message: unknown): void {
    const m = message as { id?: string | number; method?: string };
    if (m.method !== 'tools/call' || m.id === undefined) return;
    this.calls.add(m.id);
    if (this.calls.size > MAX_PENDING_CALLS) this.calls.delete(this.calls.values().next().value!);
  }

  /** A response to a tools/call that is a task handle becomes a placeholder tool result. */
  received<T>(message: T): T {
    const m = message as { id?: string | number; method?: string; result?: Record<string, unknown> };
    if (m.method !== undefined || m.id === undefined || !this.calls.delete(m.id)) return message;
    const result = m.result;
    if (result?.resultType !== 'task' || typeof result.taskId !== 'string') return message;
    const { resultType: _, result: _r, error: _e, inputRequests: _i, ...task } = result;
    const placeholder = {
      resultType: 'complete',
      content: [{ type: 'text', text: `The server started task ${result.taskId}.` }],
      isError: true,
      _meta: { [CREATED_TASK_META]: task },
    };
    return { ...message, result: placeholder } as T;
  }
}

/** The task a tools/call result stands for, when the server answered with a task handle. */
export function createdTaskOf(result: unknown): WireTask | undefined {
  const task = (result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[CREATED_TASK_META] as
    WireTask | undefined;
  return task && typeof task.taskId === 'string' ? task : undefined;
}
