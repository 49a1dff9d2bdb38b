// The host's doors: each caller takes the few it uses (a view the directory, a command the
// lifecycle, a lane the calls), so a reader sees who uses what. McpHost opens them all.
import type {
  CallToolResult,
  CompleteRequest,
  GetPromptResult,
  Progress,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/client';
import type {
  SamplingPolicy,
  ServerDefinition,
  ServerSettingsEntry,
  FolderRef,
  ToolPolicySettings,
} from '../config/serverDefinition';
import type { ServerConfigError } from '../config/validateServerEntry';
import type { ServerConnection } from '../connection/serverConnection';
import type { ServerLogMessage } from '../connection/logForwarding';
import type { ServerSnapshot } from '../connection/serverSnapshot';
import type { Event } from '../events';
import type { StartCause } from '../process/spawnRecord';
import type { LoadedSkill } from '../skills/serverSkills';
import type { TaskTracker } from '../tasks/taskTracker';

/** The servers as they are now, and word when one changes: what views and pickers read. */
export interface ServerDirectory {
  /** A server changed (its id), or the set of servers may have (`undefined`). */
  readonly onDidChangeServers: Event<string | undefined>;
  servers(): ServerSnapshot[];
  server(id: string): ServerSnapshot | undefined;
  /** The server a change named, or every server when it named none or one that has gone. */
  changedServers(id: string | undefined): ServerSnapshot[];
  serverIds(): string[];
  /** A server's settings (its scope and folder), so a command can write to them. */
  definition(id: string): ServerDefinition | undefined;
  /** A server sent a log line (`notifications/message`), redacted and bounded as in its log. */
  readonly onDidLogMessage: Event<ServerLogMessage>;
}

/** Starting, stopping and signing in: what commands and the lanes that start servers use. */
export interface ServerLifecycle {
  start(id: string, askedBy?: StartCause): Promise<void>;
  /** Starts (or hurries) the servers that start when needed, and waits until each runs or fails. */
  startOnDemand(ids?: readonly string[], signal?: AbortSignal, askedBy?: StartCause): Promise<void>;
  stop(id: string): Promise<void>;
  stopForAll(id: string): Promise<void>;
  restart(id: string, reason?: string): Promise<void>;
  signIn(id: string, signal: AbortSignal): Promise<void>;
  signOut(id: string): Promise<void>;
  /** A server in dev mode with `debug` started its Node inspector. */
  readonly onDebuggerListening: Event<{ readonly serverId: string; readonly address: string }>;
}

/** The settings and folders the servers come from. */
export interface HostSettings {
  applySettings(settings: readonly ServerSettingsEntry[]): Promise<readonly ServerConfigError[]>;
  refresh(settings: readonly ServerSettingsEntry[]): Promise<readonly ServerConfigError[]>;
  reapply(): Promise<readonly ServerConfigError[]>;
  setWorkspaceFolders(folders: readonly FolderRef[]): Promise<void>;
  /** Settles once settings have been applied at least once. */
  readonly settingsApplied: Promise<void>;
}

/** Who calls a tool: this window, or another window sharing the server's process. */
export type CallFrom = 'this-window' | 'another-window';

/** Requests to a server, which start it first when it starts when needed. */
export interface ServerCalls {
  callTool(
    id: string,
    name: string,
    args: Record<string, unknown> | undefined,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
    /**
     * `another-window`: a window sharing the process calls; it follows a task the server creates
     * itself (the result is the task's handle) and keeps its own idle timeout.
     */
    from?: CallFrom,
  ): Promise<CallToolResult>;
  getPrompt(
    id: string,
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult>;
  complete(id: string, params: CompleteRequest['params'], signal?: AbortSignal): Promise<string[]>;
  readResource(id: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  loadSkill(id: string, uri: string, signal?: AbortSignal): Promise<LoadedSkill>;
  readSkillFile(id: string, uri: string, ref: string, signal?: AbortSignal): Promise<string>;
  passExtensionRequest(id: string, method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** Paging through and following a running server's resources. */
export interface ResourceBrowsing {
  /** A server said a resource changed (`notifications/resources/updated`). */
  readonly onDidUpdateResource: Event<{ readonly serverId: string; readonly uri: string }>;
  loadMoreResources(id: string): Promise<void>;
  freshResources(id: string): Promise<readonly Resource[]>;
  loadAllResources(id: string, signal: AbortSignal, onPage: () => void): Promise<void>;
  canSubscribe(id: string): boolean;
  subscribeResource(id: string, uri: string): Promise<void>;
  unsubscribeResource(id: string, uri: string): Promise<void>;
}

/** What a server's settings allow: confirmation of tools, sampling, elicitation's pace. */
export interface ServerPolicies {
  toolPolicy(id: string): ToolPolicySettings;
  samplingPolicy(id: string): SamplingPolicy;
  elicitationsPerMinute(id: string): number;
}

/** What following tasks needs: the connection a task's requests go through, and the tracker. */
export interface TaskHost
  extends Pick<ServerDirectory, 'onDidChangeServers' | 'changedServers'>, Pick<ServerLifecycle, 'startOnDemand'> {
  readonly tasks: TaskTracker;
  connection(id: string): ServerConnection;
}
