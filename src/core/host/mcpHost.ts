import {
  type CallToolResult,
  type CompleteRequest,
  type GetPromptResult,
  type Progress,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/client';
import type { StartCause } from '../process/spawnRecord';
import {
  DEFAULT_ELICITATIONS_PER_MINUTE,
  DEFAULT_SAMPLING_POLICY,
  NO_TOOL_POLICY,
  type FolderRef,
  type SamplingPolicy,
  type ServerDefinition,
  type ServerSettingsEntry,
  type ToolPolicySettings,
} from '../config/serverDefinition';
import type { ServerConfigError } from '../config/validateServerEntry';
import { untilAborted } from '../abortWith';
import type { LoadedSkill } from '../skills/serverSkills';
import { DECLINED, entrySnapshot, startsWhenNeeded, type HostEntry } from './hostEntry';
import type { ServerConnection } from '../connection/serverConnection';
import { resourceNotFound, ServerUnavailableError } from '../connection/serverErrors';
import { callToolOrTask, followIfTask } from './serverTaskChannel';
import { TaskTracker } from '../tasks/taskTracker';
import type { ServerLogMessage } from '../connection/logForwarding';
import type { ServerSnapshot } from '../connection/serverSnapshot';
import { Emitter, type Disposable } from '../events';
import { StartConsent } from './startConsent';
import { RootsPublisher } from './rootsPublisher';
import { HostEntries } from './hostEntries';
import { StartSlots } from '../connection/startSlots';
import { retryAfterUrlElicitations } from '../elicitation/urlElicitationErrors';
import type { McpHostOptions } from './hostOptions';
import type { LearningHost } from './listLearning';
import type {
  CallFrom,
  HostSettings,
  ResourceBrowsing,
  ServerCalls,
  ServerDirectory,
  ServerLifecycle,
  ServerPolicies,
  TaskHost,
} from './hostPorts';

/** The set of servers: applies settings, gates workspace servers on trust and consent, routes requests. */
export class McpHost
  implements
    ServerDirectory,
    ServerLifecycle,
    LearningHost,
    HostSettings,
    ServerCalls,
    ResourceBrowsing,
    ServerPolicies,
    TaskHost,
    Disposable
{
  private readonly entries: HostEntries;
  private readonly roots = new RootsPublisher();
  private readonly changed = new Emitter<string | undefined>();
  /** A server changed (its id), or the set of servers may have (`undefined`). */
  readonly onDidChangeServers = this.changed.event;
  private readonly resourceUpdated = new Emitter<{ readonly serverId: string; readonly uri: string }>();
  /** A server said a resource changed (`notifications/resources/updated`). */
  readonly onDidUpdateResource = this.resourceUpdated.event;
  private readonly logMessage = new Emitter<ServerLogMessage>();
  readonly onDidLogMessage = this.logMessage.event;
  private readonly debuggerListening = new Emitter<{ readonly serverId: string; readonly address: string }>();
  /** A server in dev mode with `debug` started its Node inspector (`ws://127.0.0.1:…`). */
  readonly onDebuggerListening = this.debuggerListening.event;
  /** Settings changes apply one at a time, in order. */
  private applying: Promise<unknown> = Promise.resolve();
  private lastSettings: readonly ServerSettingsEntry[] = [];
  private settingsAppliedOnce!: () => void;
  /** Settles once settings have been applied at least once: before that no server is known. */
  readonly settingsApplied = new Promise<void>((resolve) => (this.settingsAppliedOnce = resolve));
  private readonly consent: StartConsent;
  /** Every task a tool call became, across servers. */
  readonly tasks: TaskTracker;
  /** How many server processes start at once (all of this host's servers share them). */
  private readonly startSlots: StartSlots;

  constructor(private readonly options: McpHostOptions) {
    this.consent = new StartConsent(options.env);
    this.startSlots = options.startSlots ?? StartSlots.forThisMachine();
    this.entries = new HostEntries({
      options,
      roots: this.roots,
      startSlots: this.startSlots,
      consent: this.consent,
      changed: (id) => this.changed.fire(id),
      resourceUpdated: (update) => this.resourceUpdated.fire(update),
      logMessage: (message) => this.logMessage.fire(message),
      debuggerListening: (listening) => this.debuggerListening.fire(listening),
    });
    this.tasks = options.tasks ?? new TaskTracker({ load: () => undefined, save: () => undefined });
  }

  servers(): ServerSnapshot[] {
    return [...this.entries.values()].map((entry) => this.snapshotOf(entry));
  }

  /** The server a change named (`id`, from {@link onDidChangeServers}), or every server when it named none or one that has gone. */
  changedServers(id: string | undefined): ServerSnapshot[] {
    const one = id === undefined ? undefined : this.server(id);
    return one ? [one] : this.servers();
  }

  /** The servers' ids, in the order of {@link servers}. */
  serverIds(): string[] {
    return [...this.entries.keys()];
  }

  server(id: string): ServerSnapshot | undefined {
    const entry = this.entries.get(id);
    return entry && this.snapshotOf(entry);
  }

  private snapshotOf(entry: HostEntry): ServerSnapshot {
    const known =
      entry.connection && entry.lastRunKey && startsWhenNeeded(entry)
        ? this.options.lastRuns?.lastRunOf(entry.id, entry.lastRunKey)
        : undefined;
    return entrySnapshot(entry, known);
  }

  /** Applies `mcpHost.servers`: only changed definitions restart; removed ones stop; errors touch nothing else. */
  applySettings(settings: readonly ServerSettingsEntry[]): Promise<readonly ServerConfigError[]> {
    this.lastSettings = settings;
    const run = this.applying.then(() => this.entries.apply(settings));
    this.applying = run.catch(() => undefined).finally(() => this.settingsAppliedOnce());
    return run;
  }

  /** The Refresh action: re-reads settings, then re-fetches the lists of the servers that run. */
  async refresh(settings: readonly ServerSettingsEntry[]): Promise<readonly ServerConfigError[]> {
    const errors = await this.applySettings(settings);
    await Promise.all([...this.entries.values()].map((e) => e.connection?.refreshLists()));
    return errors;
  }

  /** Re-applies the last settings, e.g. after the workspace became trusted. */
  reapply(): Promise<readonly ServerConfigError[]> {
    return this.applySettings(this.lastSettings);
  }

  async setWorkspaceFolders(folders: readonly FolderRef[]): Promise<void> {
    if (!this.roots.setWorkspaceFolders(folders)) return;
    const notified = [...this.entries.values()].filter(
      (e) => e.connection && this.roots.followsWorkspace(e.connection.definition),
    );
    await Promise.all(notified.map((e) => e.connection!.notifyRootsChanged()));
  }

  /** Starts a server; `askedBy` says who asked, for the record of spawns. */
  async start(id: string, askedBy: StartCause = 'this window'): Promise<void> {
    const entry = this.requireEntry(id);
    this.needed(entry);
    if (!entry.connection) {
      if (!entry.definition || entry.placeholder?.status === 'invalid')
        throw new Error(entry.placeholder?.reason ?? `MCP server "${id}" has no valid definition.`);
      if (entry.placeholder?.status === 'untrusted')
        throw new Error(`MCP server "${id}" comes from workspace settings; trust the workspace to start it.`);
      if (entry.placeholder?.held === 'policy') throw new Error(`MCP server "${id}" is ${entry.placeholder.reason}.`);
      if (entry.placeholder?.status === 'disabled')
        throw new Error(`MCP server "${id}" is disabled ("enabled": false in settings).`);
      if (!(await this.consent.obtain([entry], true)).has(id)) return this.entries.setPlaceholder(entry, DECLINED);
      await this.entries.connect(entry, false);
    }
    await entry.connection?.start(true, askedBy);
  }

  /**
   * Starts the servers that start on demand and are not running (all of them, or those of `ids`),
   * hurries those starting (one waiting for its turn goes at once), and waits until each runs or
   * fails: a chat request or a tool call needs their tools.
   */
  async startOnDemand(
    ids?: readonly string[],
    signal?: AbortSignal,
    askedBy: StartCause = 'this window',
  ): Promise<void> {
    // A workspace server the user declined does not start when needed: only Start asks about it again.
    const waiting = [...this.entries.values()].filter(
      (e) => (!ids || ids.includes(e.id)) && (startsWhenNeeded(e) || e.connection?.state === 'starting'),
    );
    for (const e of waiting) this.needed(e);
    const started = Promise.allSettled(
      waiting.map((e) => (startsWhenNeeded(e) ? this.start(e.id, askedBy) : e.connection!.whenStarted())),
    );
    // A caller that gives up goes on without them (the starts go on); what it needs then says why.
    await untilAborted(started, signal).catch(() => undefined);
  }

  /** The running connection of `id`: started first when it starts on demand, waited for when on its way. */
  private async neededConnection(id: string, signal?: AbortSignal): Promise<ServerConnection> {
    const entry = this.requireEntry(id);
    this.needed(entry);
    // Needed just as it stops after learning its lists: it starts again once stopped.
    await entry.learnedStop;
    if (startsWhenNeeded(entry)) await this.start(id);
    else if (entry.connection?.state === 'starting') await this.startOnDemand([id], signal);
    return this.connection(id);
  }

  /**
   * The servers that start when needed whose lists no run of their current definition has left
   * (they never ran, or their definition changed since) and that this window has not tried to
   * learn yet: what {@link learnLists} is for.
   */
  unlearnedServers(): string[] {
    const lastRuns = this.options.lastRuns;
    if (!lastRuns) return [];
    return [...this.entries.values()]
      .filter(
        (e) =>
          e.connection &&
          e.lastRunKey &&
          e.learnTried !== e.lastRunKey &&
          startsWhenNeeded(e) &&
          !lastRuns.lastRunOf(e.id, e.lastRunKey),
      )
      .map((e) => e.id);
  }

  /**
   * Starts a server that starts when needed, taking turns with other starts, so that its lists are
   * kept for the views and models; once it runs it stops again, unless something needed it
   * meanwhile (a tool call, a start). Settles when it is done; a failure stays on its row.
   */
  async learnLists(id: string): Promise<void> {
    const entry = this.entries.get(id);
    const connection = entry?.connection;
    if (!entry || !connection || !startsWhenNeeded(entry)) return;
    entry.learnTried = entry.lastRunKey;
    entry.learning = true;
    this.options.env.hostLog.info(
      `Starting "${id}" to learn its tools, prompts and resources; it stops again until needed.`,
    );
    await connection.start(false, 'list learning').catch(() => undefined);
    const unused = entry.learning && entry.connection === connection && connection.state === 'running';
    if (unused) {
      // Set before the stop begins: a use its first change brings waits for it.
      let stopped!: () => void;
      entry.learnedStop = new Promise((resolve) => (stopped = resolve));
      await connection.stop('starts when needed; its lists were learned in the background').finally(stopped);
      entry.learnedStop = undefined;
    }
    this.needed(entry);
  }

  /** Something needs the server (or its learning is over): it is not started only to learn any more. */
  private needed(entry: HostEntry): void {
    if (!entry.learning) return;
    entry.learning = false;
    this.changed.fire(entry.id);
  }

  async stop(id: string): Promise<void> {
    await this.requireEntry(id).connection?.stop('stopped by the user');
  }

  /** Stops a server shared between windows in all of them (`"share": "machine"`); as {@link stop} for any other. */
  async stopForAll(id: string): Promise<void> {
    await this.requireEntry(id).connection?.stopForAll();
  }

  /** `reason` is what requests in flight are told, and what the server's row says meanwhile. */
  async restart(id: string, reason?: string): Promise<void> {
    const entry = this.requireEntry(id);
    if (!entry.connection) return this.start(id);
    await entry.connection.restart(reason);
  }

  /** Signs in (the browser for people, silently for machine grants), then starts the server; concurrent calls share one sign-in. */
  async signIn(id: string, signal: AbortSignal): Promise<void> {
    const connection = this.connection(id);
    if (!this.options.authorization) throw new Error('this host does not sign in to servers');
    await this.options.authorization.signIn(connection.definition, signal);
    await connection.restart();
  }

  /** Forgets a server's tokens and registered clients and stops sending them: it needs sign-in again. */
  async signOut(id: string): Promise<void> {
    const connection = this.connection(id);
    await this.options.authorization?.signOut(connection.definition.url ?? '');
    await connection.stop(`signed out; use Sign In to connect to ${connection.target} again`, 'needs-sign-in');
  }

  /** How calls to a server's tools are confirmed, from its latest valid settings. */
  toolPolicy(id: string): ToolPolicySettings {
    return this.entries.get(id)?.definition?.toolPolicy ?? NO_TOOL_POLICY;
  }

  elicitationsPerMinute(id: string): number {
    return this.entries.get(id)?.definition?.elicitationsPerMinute ?? DEFAULT_ELICITATIONS_PER_MINUTE;
  }

  samplingPolicy(id: string): SamplingPolicy {
    return this.entries.get(id)?.definition?.samplingPolicy ?? DEFAULT_SAMPLING_POLICY;
  }

  /** Where a server's settings live (its scope and folder), so a command can write to them. */
  definition(id: string): ServerDefinition | undefined {
    return this.entries.get(id)?.definition;
  }

  connection(id: string): ServerConnection {
    const entry = this.requireEntry(id);
    if (!entry.connection)
      throw new ServerUnavailableError(id, entry.placeholder?.status ?? 'stopped', entry.placeholder?.reason);
    return entry.connection;
  }

  /**
   * Calls a tool. A server that answers -32042 (URL elicitations first) has the user open each URL;
   * the call is retried once the server reports them complete or the user presses Retry (3 rounds at most).
   */
  async callTool(
    id: string,
    name: string,
    args: Record<string, unknown> | undefined,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
    from: CallFrom = 'this-window',
  ): Promise<CallToolResult> {
    const elicitation = this.options.elicitation;
    return retryAfterUrlElicitations(
      async () => {
        const connection = await this.neededConnection(id, signal);
        const params = { name, arguments: args, _meta: connection.requestMeta() };
        const result = await connection.request(
          `tools/call "${name}"`,
          (client, options) => callToolOrTask(client, connection, params, options, this.tasks),
          signal,
          onProgress,
          from === 'another-window',
        );
        return from === 'this-window' ? followIfTask(this, id, name, result, signal) : result;
      },
      elicitation && ((elicitations) => elicitation.satisfy(id, elicitations, signal ?? new AbortController().signal)),
    );
  }

  async getPrompt(
    id: string,
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const connection = await this.neededConnection(id, signal);
    return connection.request(
      `prompts/get "${name}"`,
      (client, options) => client.getPrompt({ name, arguments: args, _meta: connection.requestMeta() }, options),
      signal,
    );
  }

  /** `completion/complete` suggestions; none when the server does not offer completions. */
  async complete(id: string, params: CompleteRequest['params'], signal?: AbortSignal): Promise<string[]> {
    const connection = await this.neededConnection(id, signal);
    const result = await connection.request(
      'completion/complete',
      async (client, options) =>
        client.getServerCapabilities()?.completions
          ? client.complete({ ...params, _meta: connection.requestMeta() }, options)
          : undefined,
      signal,
    );
    return result?.completion.values ?? [];
  }

  async readResource(id: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const connection = await this.neededConnection(id, signal);
    try {
      return await connection.request(
        `resources/read "${uri}"`,
        (client, options) => client.readResource({ uri, _meta: connection.requestMeta() }, options),
        signal,
      );
    } catch (error) {
      throw resourceNotFound(id, uri, error) ?? error;
    }
  }

  /** Loads one of a server's skills (SEP-2640): its `SKILL.md`, verified; a skill that fails verification is refused. */
  async loadSkill(id: string, uri: string, signal?: AbortSignal): Promise<LoadedSkill> {
    return (await this.neededConnection(id, signal)).calls.loadSkill(uri, signal);
  }

  /** Reads a file a skill names (relative to its root, as its `SKILL.md` refers to it), verified. */
  async readSkillFile(id: string, uri: string, ref: string, signal?: AbortSignal): Promise<string> {
    return (await this.neededConnection(id, signal)).calls.readSkillFile(uri, ref, signal);
  }

  /** One of the Skills or Tasks extension's own requests, passed to the server as it is (a window sharing its process asks so). */
  async passExtensionRequest(id: string, method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    return (await this.neededConnection(id, signal)).calls.passExtensionRequest(method, params, signal);
  }

  /** Fetches the next page of a server's resources (the view's "Load more"). */
  loadMoreResources(id: string): Promise<void> {
    return this.connection(id).calls.loadMoreResources();
  }

  /** A server's resources when someone looks: re-fetched when its `ttlMs` ran out (silently: the caller shows them). */
  freshResources(id: string): Promise<readonly Resource[]> {
    return this.connection(id).calls.freshResources();
  }

  /** Loads every page the server has left, reporting after each (a search over all resources). */
  loadAllResources(id: string, signal: AbortSignal, onPage: () => void): Promise<void> {
    return this.connection(id).calls.loadAllResources(signal, onPage);
  }

  /** Whether the server sends updates about resources (`resources.subscribe`, either era). */
  canSubscribe(id: string): boolean {
    return this.entries.get(id)?.connection?.takesResourceSubscriptions === true;
  }

  /** Asks for `notifications/resources/updated` about `uri` (either era); kept across restarts until unsubscribed. */
  async subscribeResource(id: string, uri: string): Promise<void> {
    await this.entries.get(id)?.connection?.calls.watchResource(uri);
  }

  async unsubscribeResource(id: string, uri: string): Promise<void> {
    await this.entries.get(id)?.connection?.calls.unwatchResource(uri);
  }

  async dispose(): Promise<void> {
    this.tasks.dispose();
    await this.applying;
    await this.entries.dispose();
    this.changed.dispose();
  }

  private requireEntry(id: string): HostEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`There is no MCP server "${id}" in settings.`);
    return entry;
  }
}
