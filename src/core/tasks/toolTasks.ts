import type { WireTask } from './taskResults';
import { abortableSleep, pollInterval } from './taskPolling';
import type { CallToolResult, Client, Progress, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';

/** The task methods have no result schema in the SDK's method map; results are checked where used. */
export const passThrough = {
  '~standard': { version: 1 as const, vendor: 'mcp-host', validate: (value: unknown) => ({ value }) },
};
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

interface TaskState {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollInterval?: number;
}

/**
 * Whether a call must run as a task: the tool requires it (`execution.taskSupport: "required"`)
 * and the server takes task-augmented tools/call (2025-11-25; in 2026-07-28 tasks left the core
 * protocol for an extension).
 */
export function mustRunAsTask(client: Client, findTool: () => Tool | undefined): boolean {
  const tasks = (
    client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined
  )?.tasks;
  // Most servers take no tasks: the tool is looked up only for those that do.
  if (client.getProtocolEra() !== 'legacy' || tasks?.requests?.tools?.call === undefined) return false;
  return (findTool() as { execution?: { taskSupport?: string } } | undefined)?.execution?.taskSupport === 'required';
}

/**
 * Runs a tools/call as a task: create it, poll its status (reported as progress, so the user sees
 * it), then fetch the result. Cancelling sends tasks/cancel so the server stops the work.
 */
export async function callToolAsTask(
  client: Client,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: RequestOptions,
  ttlMs: number,
  observer?: TaskObserver,
): Promise<CallToolResult> {
  try {
    const result = await runAsTask(
      client,
      params,
      observer ? { ...options, signal: observer.signal } : options,
      ttlMs,
      observer,
    );
    observer?.end({ result });
    return result;
  } catch (error) {
    observer?.end({ error });
    throw error;
  }
}

/** Hears a 2025-11-25 task's states (the MCP Tasks view); its signal also cancels the call. */
export interface TaskObserver {
  readonly signal: AbortSignal;
  state(task: WireTask): void;
  end(outcome: { result?: CallToolResult; error?: unknown }): void;
}

const asWireTask = (task: TaskState & { ttl?: number | null }): WireTask => ({
  taskId: task.taskId,
  status: task.status,
  statusMessage: task.statusMessage,
  pollIntervalMilliseconds: task.pollInterval,
  ttlSeconds: typeof task.ttl === 'number' ? task.ttl / 1000 : task.ttl,
});

async function runAsTask(
  client: Client,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: RequestOptions,
  ttlMs: number,
  observer: TaskObserver | undefined,
): Promise<CallToolResult> {
  const created = (await client.request(
    { method: 'tools/call', params: { ...params, task: { ttl: ttlMs } } },
    passThrough,
    options,
  )) as { task?: TaskState };
  let task = created.task;
  if (!task?.taskId) {
    // The server ran it at once instead of creating a task.
    if (!clientLibrary().isCallToolResult(created))
      throw new Error('the task-augmented tools/call returned neither a task nor a result');
    return created;
  }
  const signal = options.signal;
  let polls = 0;
  try {
    while (!TERMINAL.has(task.status) && task.status !== 'input_required') {
      observer?.state(asWireTask(task));
      options.onprogress?.({ progress: ++polls, message: task.statusMessage ?? task.status } satisfies Progress);
      await abortableSleep(pollInterval(asWireTask(task), 0), signal);
      task = (await client.request(
        { method: 'tasks/get', params: { taskId: task.taskId } },
        passThrough,
        options,
      )) as TaskState;
    }
    observer?.state(asWireTask(task));
    // tasks/result waits for the end and carries any requests the task makes of the client.
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      passThrough,
      options,
    );
    if (!clientLibrary().isCallToolResult(result))
      throw new Error(`tasks/result for task ${task.taskId} is not a tools/call result`);
    return result;
  } catch (error) {
    if (signal?.aborted) {
      await client
        .request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, passThrough, { timeout: 5_000 })
        .catch(() => undefined);
    }
    throw error;
  }
}
