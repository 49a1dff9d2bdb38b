import type { CallToolResult, Client, RequestOptions } from '@modelcontextprotocol/client';
import { answerServerRequest } from '../connection/hostClient';
import type { ServerConnection } from '../connection/serverConnection';
import { callToolAsTask, mustRunAsTask, passThrough } from '../tasks/toolTasks';
import type { TaskChannel } from '../tasks/taskPolling';
import { createdTaskOf, type WireTask } from '../tasks/taskResults';
import type { TaskTracker } from '../tasks/taskTracker';
import type { Disposable } from '../events';
import type { TaskHost } from './hostPorts';

/** Cancelling a task waits this long for the server's acknowledgement. */
const CANCEL_TIMEOUT_MS = 5_000;

/**
 * The tasks/* requests of the 2026-07-28 extension to one server, through whichever connection
 * the server has when each is sent (a restarted server keeps its tasks when it keeps state).
 */
export function serverTaskChannel(connectionOf: () => ServerConnection): TaskChannel {
  const send = (method: string, params: Record<string, unknown>, signal?: AbortSignal) =>
    connectionOf().request(
      `${method} ${String(params.taskId)}`,
      (client, options) => client.request({ method, params } as never, passThrough, options),
      signal,
    );
  const withState = (params: Record<string, unknown>, requestState: string | undefined) =>
    requestState === undefined ? params : { ...params, requestState };
  return {
    get: async (taskId, requestState, signal) =>
      wireTask(await send('tasks/get', withState({ taskId }, requestState), signal), taskId),
    update: async (taskId, inputResponses, requestState, signal) =>
      void (await send('tasks/update', withState({ taskId, inputResponses }, requestState), signal)),
    cancel: async (taskId, requestState) =>
      void (await send('tasks/cancel', withState({ taskId }, requestState), AbortSignal.timeout(CANCEL_TIMEOUT_MS))),
    answer: async (method, params, signal) =>
      answerServerRequest(
        await connectionOf().request('answering a task', async (client) => client),
        method,
        params,
        signal,
      ),
  };
}

function wireTask(value: unknown, taskId: string): WireTask {
  const task = value as WireTask;
  if (typeof task?.taskId !== 'string' || typeof task.status !== 'string')
    throw new Error(`tasks/get for ${taskId} answered without a task status`);
  if (task.taskId !== taskId) throw new Error(`tasks/get for ${taskId} answered about another task (${task.taskId})`);
  return task;
}

/**
 * A tools/call inside a connection's request: as a 2025-11-25 task when the tool requires it
 * (its states reported to the tracker), else plainly (a 2026-07-28 server may still answer with
 * a task handle, which the caller follows).
 */
export function callToolOrTask(
  client: Client,
  connection: ServerConnection,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: RequestOptions,
  tracker: TaskTracker,
): Promise<CallToolResult> {
  if (!mustRunAsTask(client, () => connection.snapshot().tools.find((t) => t.name === params.name)))
    return client.callTool(params, options);
  // The request's own signal already carries the caller's and the connection's (server stopped, timeouts).
  return callToolAsTask(
    client,
    params,
    options,
    connection.definition.maxTotalTimeoutMs,
    tracker.observe(connection.id, params.name, options.signal),
  );
}

/**
 * A tools/call result that is a 2026-07-28 task handle becomes the task's end result (followed
 * outside the call's request, so its time limits do not apply); any other result is itself.
 */
export async function followIfTask(
  host: TaskHost,
  serverId: string,
  toolName: string,
  result: CallToolResult,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const created = createdTaskOf(result);
  return created
    ? host.tasks.follow(
        serverId,
        toolName,
        created,
        serverTaskChannel(() => host.connection(serverId)),
        signal,
      )
    : result;
}

/**
 * Picks up a server's stored tasks (from an earlier window) once it runs. A server that starts
 * when needed is needed by the tasks it left unfinished: it is started for those still within
 * their TTL, once a window (a start the user declined is not asked for again).
 */
export function resumeTasksWhenRunning(host: TaskHost): Disposable {
  const startedForTasks = new Set<string>();
  const resume = (id?: string) => {
    for (const server of host.changedServers(id)) {
      const stored = host.tasks.storedFor(server.id);
      if (stored.length === 0) continue;
      if (server.status === 'running')
        host.tasks.resume(
          server.id,
          serverTaskChannel(() => host.connection(server.id)),
        );
      else if (
        server.startsWhenNeeded &&
        !startedForTasks.has(server.id) &&
        stored.some((task) => host.tasks.withinTtl(task))
      ) {
        startedForTasks.add(server.id);
        void host.startOnDemand([server.id]);
      }
    }
  };
  resume();
  return host.onDidChangeServers(resume);
}
