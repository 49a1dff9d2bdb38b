/**
 * Every task the host follows, across servers: what the Tasks view lists, what Cancel and Open
 * Result act on, and what survives a window reload. Tasks of the 2026-07-28 extension are
 * followed here (polling, input, cancel); 2025-11-25 tasks, run by the tools/call path, report
 * their states here so they show in the same list.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { abortWith } from '../abortWith';
import { Emitter } from '../events';
import { pollTask, TaskEndedError, type TaskChannel } from './taskPolling';
import type { WireTask } from './taskResults';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'expired' | 'lost';

export interface TaskView {
  readonly key: string;
  readonly serverId: string;
  readonly toolName: string;
  readonly taskId: string;
  /** The protocol the task follows: the 2026-07-28 extension or 2025-11-25's experimental tasks. */
  readonly protocol: '2026-07-28' | '2025-11-25';
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Seconds from its start the server keeps it; null: no limit; undefined: not said. */
  readonly ttlSeconds?: number | null;
  readonly result?: CallToolResult;
  readonly error?: string;
  /** Picked up again after a window reload (no caller waits for it). */
  readonly resumed?: boolean;
}

/** What is kept of an unfinished 2026-07-28 task, per server, to pick it up after a reload. */
export interface StoredTask {
  readonly serverId: string;
  readonly toolName: string;
  readonly taskId: string;
  readonly requestState?: string;
  readonly startedAt: number;
  readonly ttlSeconds?: number | null;
}

export interface TaskStore {
  load(): readonly StoredTask[] | undefined;
  save(tasks: readonly StoredTask[]): Promise<void> | void;
}

/** Tasks listed at most (the oldest finished ones go first), and unfinished ones stored at most. */
export const MAX_LISTED_TASKS = 200;
export const MAX_STORED_TASKS = 100;

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled', 'expired', 'lost']);

interface Entry {
  view: TaskView;
  readonly controller: AbortController;
  requestState?: string;
  channel?: TaskChannel;
}

export class TaskTracker {
  private readonly entries = new Map<string, Entry>();
  private disposed = false;
  private stored: StoredTask[];
  private readonly changed = new Emitter<void>();
  private readonly ended = new Emitter<TaskView>();
  readonly onDidChange = this.changed.event;
  /** A task reached a terminal status. */
  readonly onDidEnd = this.ended.event;

  constructor(
    private readonly store: TaskStore,
    private readonly now: () => number = Date.now,
  ) {
    const loaded = store.load();
    this.stored = Array.isArray(loaded) ? loaded.filter(isStoredTask).slice(-MAX_STORED_TASKS) : [];
  }

  /** Newest first. */
  list(): TaskView[] {
    return [...this.entries.values()].map((e) => e.view).reverse();
  }

  get(key: string): TaskView | undefined {
    return this.entries.get(key)?.view;
  }

  /** Unfinished tasks of a server kept from an earlier window that nothing follows yet. */
  storedFor(serverId: string): readonly StoredTask[] {
    return this.stored.filter((t) => t.serverId === serverId && !this.entries.has(keyOf(t.serverId, t.taskId)));
  }

  /**
   * Follows a 2026-07-28 task the server created to its end and returns its tool result. The
   * caller's cancellation cancels the task (`tasks/cancel`); so does Cancel in the view.
   */
  follow(
    serverId: string,
    toolName: string,
    seed: WireTask,
    channel: TaskChannel,
    callerSignal?: AbortSignal,
  ): Promise<CallToolResult> {
    const startedAt = Date.parse(seed.createdAt ?? '') || this.now();
    return this.run(
      {
        serverId,
        toolName,
        taskId: seed.taskId,
        startedAt,
        ttlSeconds: seed.ttlSeconds,
        requestState: seed.requestState,
      },
      seed,
      channel,
      callerSignal,
      false,
    );
  }

  /** Whether a stored task is still within its TTL (the server may still have it). */
  withinTtl(stored: StoredTask): boolean {
    return typeof stored.ttlSeconds !== 'number' || this.now() <= stored.startedAt + stored.ttlSeconds * 1000;
  }

  /** Picks up the stored tasks of a server (after a reload) that are still within their TTL. */
  resume(serverId: string, channel: TaskChannel): void {
    for (const stored of this.storedFor(serverId)) {
      if (!this.withinTtl(stored)) {
        this.forget(stored.serverId, stored.taskId);
        continue;
      }
      const seed: WireTask = {
        taskId: stored.taskId,
        status: 'working',
        createdAt: new Date(stored.startedAt).toISOString(),
        ttlSeconds: stored.ttlSeconds,
        requestState: stored.requestState,
        pollIntervalMilliseconds: 0,
      };
      void this.run(stored, seed, channel, undefined, true).catch(() => undefined);
    }
  }

  /**
   * A 2025-11-25 task run elsewhere (task-augmented tools/call): returns the signal that Cancel in
   * the view aborts, and a reporter for its states and end.
   */
  observe(
    serverId: string,
    toolName: string,
    callerSignal?: AbortSignal,
  ): {
    signal: AbortSignal;
    state(task: WireTask): void;
    end(outcome: { result?: CallToolResult; error?: unknown }): void;
  } {
    const controller = new AbortController();
    let key: string | undefined;
    // The caller's signal is its request's, reused once that settles: nothing may stay linked to it.
    const following = abortWith(controller, callerSignal);
    const signal = controller.signal;
    return {
      signal,
      state: (task) => {
        if (!key) {
          key = keyOf(serverId, task.taskId);
          this.add({
            view: {
              key,
              serverId,
              toolName,
              taskId: task.taskId,
              protocol: '2025-11-25',
              status: 'working',
              startedAt: this.now(),
              ttlSeconds: task.ttlSeconds,
            },
            controller,
          });
        }
        this.update(key, { status: statusOf(task.status), statusMessage: task.statusMessage });
      },
      end: ({ result, error }) => {
        following.dispose();
        if (key) this.finish(key, result, error, signal.aborted);
      },
    };
  }

  /** Cancels a running task: the server hears `tasks/cancel`. */
  cancel(key: string): void {
    this.entries.get(key)?.controller.abort(new TaskEndedError('Cancelled from the MCP Tasks view.', 'cancelled'));
  }

  /**
   * The window closes: stop polling without cancelling or forgetting anything, so the next
   * window picks the unfinished tasks up again.
   */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.entries.values())
      entry.controller.abort(new Error('The window closed; the task goes on in the next one.'));
    this.changed.dispose();
    this.ended.dispose();
  }

  /** Removes finished tasks from the list. */
  clearFinished(): void {
    for (const [key, entry] of this.entries) if (TERMINAL.has(entry.view.status)) this.entries.delete(key);
    this.changed.fire();
  }

  private async run(
    stored: StoredTask,
    seed: WireTask,
    channel: TaskChannel,
    callerSignal: AbortSignal | undefined,
    resumed: boolean,
  ): Promise<CallToolResult> {
    const key = keyOf(stored.serverId, stored.taskId);
    const controller = new AbortController();
    const entry: Entry = {
      view: {
        key,
        serverId: stored.serverId,
        toolName: stored.toolName,
        taskId: stored.taskId,
        protocol: '2026-07-28',
        status: 'working',
        startedAt: stored.startedAt,
        ttlSeconds: stored.ttlSeconds,
        resumed,
      },
      controller,
      channel,
      requestState: stored.requestState,
    };
    this.add(entry);
    this.remember(stored);
    const following = abortWith(controller, callerSignal);
    const signal = controller.signal;
    try {
      const result = await pollTask(
        channel,
        seed,
        {
          now: this.now,
          onState: (task) =>
            this.update(key, {
              status: statusOf(task.status),
              statusMessage: task.statusMessage,
              ttlSeconds: task.ttlSeconds ?? entry.view.ttlSeconds,
            }),
          onRequestState: (state) => {
            entry.requestState = state;
            this.remember({ ...stored, requestState: state });
          },
        },
        signal,
      );
      this.finish(key, result, undefined, false);
      return result;
    } catch (error) {
      if (this.disposed) throw error;
      if (signal.aborted) await channel.cancel(stored.taskId, entry.requestState).catch(() => undefined);
      this.finish(key, undefined, error, signal.aborted);
      throw error;
    } finally {
      following.dispose();
    }
  }

  private add(entry: Entry): void {
    this.entries.set(entry.view.key, entry);
    for (const [key, old] of this.entries) {
      if (this.entries.size <= MAX_LISTED_TASKS) break;
      if (TERMINAL.has(old.view.status)) this.entries.delete(key);
    }
    this.changed.fire();
  }

  /** A reported state; a terminal status waits for finish(), which brings the result or error. */
  private update(key: string, change: Partial<TaskView>): void {
    const entry = this.entries.get(key);
    if (!entry || TERMINAL.has(entry.view.status)) return;
    entry.view = {
      ...entry.view,
      ...change,
      status: change.status && !TERMINAL.has(change.status) ? change.status : entry.view.status,
    };
    this.changed.fire();
  }

  private finish(key: string, result: CallToolResult | undefined, error: unknown, aborted: boolean): void {
    const entry = this.entries.get(key);
    if (!entry || TERMINAL.has(entry.view.status)) return;
    const status: TaskStatus = result
      ? 'completed'
      : aborted
        ? 'cancelled'
        : error instanceof TaskEndedError
          ? error.status
          : 'failed';
    entry.view = {
      ...entry.view,
      status,
      endedAt: this.now(),
      result,
      error: result ? undefined : (error as Error | undefined)?.message,
    };
    this.forget(entry.view.serverId, entry.view.taskId);
    this.changed.fire();
    this.ended.fire(entry.view);
  }

  private remember(task: StoredTask): void {
    this.stored = [
      ...this.stored.filter((t) => !(t.serverId === task.serverId && t.taskId === task.taskId)),
      task,
    ].slice(-MAX_STORED_TASKS);
    void Promise.resolve(this.store.save(this.stored)).catch(() => undefined);
  }

  private forget(serverId: string, taskId: string): void {
    const before = this.stored.length;
    this.stored = this.stored.filter((t) => !(t.serverId === serverId && t.taskId === taskId));
    if (this.stored.length !== before) void Promise.resolve(this.store.save(this.stored)).catch(() => undefined);
  }
}

function keyOf(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}

function statusOf(status: string): TaskStatus {
  return status === 'input_required' || status === 'completed' || status === 'failed' || status === 'cancelled'
    ? status
    : 'working';
}

function isStoredTask(value: unknown): value is StoredTask {
  const t = value as StoredTask;
  return (
    typeof t?.serverId === 'string' &&
    typeof t.toolName === 'string' &&
    typeof t.taskId === 'string' &&
    typeof t.startedAt === 'number'
  );
}
