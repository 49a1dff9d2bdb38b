/**
 * Follows one task of the tasks extension (2026-07-28) to its end: polls `tasks/get` at the
 * server's `pollIntervalMilliseconds` (backing off when polls fail), answers `inputRequests` once
 * each through the host's own elicitation / sampling / roots answers and sends them with
 * `tasks/update`, echoes the latest `requestState`, and gives up when the TTL has passed.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';
import type { WireTask } from './taskResults';

/** How the host reaches the server that runs a task. */
export interface TaskChannel {
  get(taskId: string, requestState: string | undefined, signal: AbortSignal): Promise<WireTask>;
  update(
    taskId: string,
    inputResponses: Record<string, unknown>,
    requestState: string | undefined,
    signal: AbortSignal,
  ): Promise<void>;
  cancel(taskId: string, requestState: string | undefined): Promise<void>;
  /** Answers one input request (elicitation/create, sampling/createMessage, roots/list). */
  answer(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
}

export const MIN_POLL_MS = 100;
export const MAX_POLL_MS = 30_000;
export const DEFAULT_POLL_MS = 1_000;
/** Polls that fail in a row before the host gives up on a task. */
export const MAX_FAILED_POLLS = 5;

export class TaskEndedError extends Error {
  constructor(
    message: string,
    readonly status: 'failed' | 'cancelled' | 'expired' | 'lost',
  ) {
    super(message);
  }
}

export interface PollHooks {
  /** Each state the server reported (the first is the CreateTaskResult). */
  onState(task: WireTask): void;
  /** The requestState to echo changed (for the stored record). */
  onRequestState?(requestState: string | undefined): void;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function pollInterval(task: WireTask, failures: number): number {
  const asked =
    typeof task.pollIntervalMilliseconds === 'number' && Number.isFinite(task.pollIntervalMilliseconds)
      ? task.pollIntervalMilliseconds
      : DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked) * 2 ** failures);
}

export async function pollTask(
  channel: TaskChannel,
  seed: WireTask,
  hooks: PollHooks,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const now = hooks.now ?? Date.now;
  const sleep = hooks.sleep ?? abortableSleep;
  const createdAt = Date.parse(seed.createdAt ?? '') || now();
  const answered = new Set<string>();
  let task = seed;
  let requestState: string | undefined;
  let failures = 0;
  for (;;) {
    // The latest task-bearing message decides: its requestState, or none at all.
    if (task.requestState !== requestState) {
      requestState = task.requestState;
      hooks.onRequestState?.(requestState);
    }
    hooks.onState(task);
    const name = `Task ${task.taskId}`;
    switch (task.status) {
      case 'completed':
        if (!clientLibrary().isCallToolResult(task.result))
          throw new TaskEndedError(`${name} completed without a tool result.`, 'failed');
        return task.result;
      case 'failed':
        throw new TaskEndedError(
          `${name} failed: ${task.error?.message ?? task.statusMessage ?? 'the server gave no reason'}${task.error?.code !== undefined ? ` (${task.error.code})` : ''}.`,
          'failed',
        );
      case 'cancelled':
        throw new TaskEndedError(
          `${name} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}.`,
          'cancelled',
        );
      case 'input_required': {
        const open = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
        if (open.length > 0) {
          const responses: Record<string, unknown> = {};
          for (const [key, request] of open) {
            responses[key] = await channel.answer(request.method, request.params, signal);
            answered.add(key);
          }
          await channel.update(task.taskId, responses, requestState, signal);
        }
        break;
      }
    }
    if (typeof task.ttlSeconds === 'number' && now() > createdAt + task.ttlSeconds * 1000) {
      throw new TaskEndedError(
        `${name} outlived its time to live (${task.ttlSeconds} s) without finishing.`,
        'expired',
      );
    }
    await sleep(pollInterval(task, failures), signal);
    try {
      task = await channel.get(task.taskId, requestState, signal);
      failures = 0;
    } catch (error) {
      if (signal.aborted) throw error;
      if (++failures >= MAX_FAILED_POLLS)
        throw new TaskEndedError(
          `${name} could not be polled ${MAX_FAILED_POLLS} times in a row: ${(error as Error).message}`,
          'lost',
        );
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
