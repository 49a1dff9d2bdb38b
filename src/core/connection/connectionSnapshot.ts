import type { Client } from '@modelcontextprotocol/client';
import type { ResolvedRoot, ResolvedServerDefinition } from '../config/serverDefinition';
import { rootPaths, shownSandbox } from '../process/sandboxPolicy';
import { boundedInstructions, type ServerSnapshot, type ServerStatus } from './serverSnapshot';
import type { ServerLists } from './serverLists';
import type { OpenedSession } from './sessionOpener';
import type { ShareState } from './machineShare';

/** What a connection knows about itself, for the views. */
export interface ConnectionParts {
  readonly definition: ResolvedServerDefinition;
  readonly target: string;
  readonly status: ServerStatus;
  readonly reason?: string;
  readonly cause?: string;
  readonly waitingForTurn?: boolean;
  readonly session?: OpenedSession;
  readonly lists: ServerLists;
  /** How the process is shared with other windows, for a server that asks. */
  readonly share?: ShareState;
  roots(): readonly ResolvedRoot[];
}

/** A connection as the views see it: its state, the server its session talks to, and its lists. */
export function connectionSnapshot(parts: ConnectionParts): ServerSnapshot {
  const { definition, session, lists } = parts;
  const client = session?.client;
  const info = client?.getServerVersion();
  return {
    id: definition.id,
    status: parts.status,
    reason: parts.reason,
    ...(parts.cause === undefined ? {} : { cause: parts.cause }),
    ...(parts.waitingForTurn && parts.status === 'starting' ? { waitingForTurn: true as const } : {}),
    scope: definition.scope,
    origin: definition.origin,
    // A window that reaches another window's process shows what that process is.
    transport: parts.share?.role === 'guest' ? definition.transport : (session?.created.kind ?? definition.transport),
    target: parts.target,
    era: client?.getProtocolEra(),
    protocolVersion: client?.getNegotiatedProtocolVersion(),
    serverName: info?.name,
    serverVersion: info?.version,
    instructions: boundedInstructions(client?.getInstructions()),
    pid: session?.created.stdio?.pid ?? undefined,
    sandbox: shownSandbox(session?.created.sandbox, definition, () => rootPaths(parts.roots())),
    ...(parts.share ? { share: parts.share } : {}),
    tools: lists.tools,
    ...(lists.renamedTools.size ? { renamedTools: Object.fromEntries(lists.renamedTools) } : {}),
    prompts: lists.prompts,
    resources: lists.resources,
    moreResources: lists.resourcePages.hasMore,
    resourceTemplates: lists.resourceTemplates,
    listProblems: lists.problems.size > 0 ? Object.fromEntries(lists.problems) : undefined,
    ...(lists.late.length ? { lateLists: lists.late } : {}),
    ...(lists.skills.summaries.length ? { skills: lists.skills.summaries } : {}),
    ...(lists.skills.declared ? { skillsExtension: lists.skills.declared } : {}),
    ...taskCallsOf(client),
  };
}

/** A 2025-11-25 server's `tasks` capability, when it takes task-augmented `tools/call`. */
function taskCallsOf(client: Client | undefined): { taskCalls?: Readonly<Record<string, unknown>> } {
  if (client?.getProtocolEra() !== 'legacy') return {};
  const tasks = (
    client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined
  )?.tasks;
  return tasks?.requests?.tools?.call === undefined ? {} : { taskCalls: tasks };
}
