import type { Client, ClientOptions, RequestOptions, Resource } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';
import { limitsOf, type ResolvedServerDefinition } from '../config/serverDefinition';
import { Emitter, type Disposable } from '../events';
import { HostWaits } from './hostWaits';
import { AutomaticRestarts } from './restartPolicy';
import { describeRequestError, McpRequestError, ServerUnavailableError } from './serverErrors';
import { ServerLists } from './serverLists';
import { ResourceWatches } from '../resources/resourceWatches';
import { followLogLevel, mcpLevelFor } from './serverLog';
import type { ServerSnapshot, ServerStatus } from './serverSnapshot';
import { connectionSnapshot } from './connectionSnapshot';
import { inspectorAddress } from './devInspector';
import { StderrTail } from './stderrTail';
import type { StartCause } from '../process/spawnRecord';
import { closeThenEnd, endProcessTree, processTreeOf, settleExit } from './serverProcessEnd';
import type { OpenedSession } from './sessionOpener';
import { StartTurn } from './startTurn';
import { credentialsRefusal, describeExit, describeStartFailure, lastOutput } from './startFailure';
import { shownText } from '../shownText';
import type { CreatedTransport } from './transportFactory';
import { startHealthCheck } from './healthCheck';
import { rootPaths } from '../process/sandboxPolicy';
import { createHostClient } from './hostClient';
import type { ServerConnectionDeps } from './serverConnectionDeps';
import { authorizationOutcome, signInReasonMidSession } from '../auth/authorizationFailure';
import type { LoadedSkill } from '../skills/serverSkills';
import { spawnsProcess, TRANSPORTS } from '../config/transportKinds';
import { ConnectionShare, shareEndReason, type ShareTarget } from './connectionShare';
import type { ShareEnd } from './machineShare';

export type { ServerConnectionDeps } from './serverConnectionDeps';

/** The session's modules (transports, the protocol eras' probing) load when a first server starts, not with the extension. */
function sessionModules(): typeof import('./sessionOpener') {
  // They import the client library: load it first, so that the host log's time for it is its own.
  clientLibrary();
  return require('./sessionOpener') as typeof import('./sessionOpener');
}

/** The reason a server shared between windows gives when another window stopped it for all. */
const STOPPED_FROM_ANOTHER_WINDOW = 'stopped for every window, from another window';

/** One server: its state machine, its session, its cached lists, its restart policy. */
export class ServerConnection implements Disposable {
  private status: ServerStatus = 'stopped';
  private reason?: string;
  /** Its start's turn among the processes that start a few at a time (see {@link StartTurn}). */
  private readonly turn: StartTurn;
  private session?: OpenedSession;
  /** The transport being connected or connected, so stop() can reach its process tree. */
  private liveTransport?: CreatedTransport;
  private connectAbort?: AbortController;
  private startPromise?: Promise<void>;
  /** Why the host ended a server that stopped answering its health check. */
  private hung?: string;
  /** The ending of the tree of a server that died on its own, while it is under way. */
  private ending?: Promise<void>;
  /** Bumped by every start and stop; callbacks from an older session compare and bail. */
  private generation = 0;
  private sessionDisposables: Disposable[] = [];
  private readonly stderr: StderrTail;
  /** Who asked for the start under way (the record of spawns says so): the first to ask. */
  private asker: StartCause = 'this window';
  private readonly lists: ServerLists;
  private readonly restarts: AutomaticRestarts;
  private readonly changed = new Emitter<ServerSnapshot>();
  readonly onDidChange = this.changed.event;
  /** Whether the server waits for the host (its sampling request is with the user or a model). */
  private readonly hostWaits = new HostWaits();
  /** Resources someone wants updates about (open editors), kept across sessions. */
  private readonly watches: ResourceWatches;
  /** Requests sent and not answered yet (a shared server's requests route by them). */
  private requestsUnderWay = 0;
  /** Its process shared with other windows, when its settings ask. */
  private readonly share: ConnectionShare;

  constructor(
    readonly definition: ResolvedServerDefinition,
    /** Hash of the resolved definition: what era pins and change detection key on. */
    readonly hash: string,
    /** The command line or URL as shown to the user (secrets as placeholders). */
    readonly target: string,
    private readonly deps: ServerConnectionDeps,
  ) {
    this.restarts = new AutomaticRestarts(definition.restart);
    this.turn = new StartTurn(deps.startSlots, spawnsProcess(definition.transport), deps.log);
    this.stderr = new StderrTail(deps.log, (line) => {
      const address = deps.onDebuggerListening && inspectorAddress(line);
      if (address) deps.onDebuggerListening!(address);
    });
    this.lists = new ServerLists(
      deps.log,
      definition.requestTimeoutMs,
      () => this.fire(),
      () => this.session?.client,
      limitsOf(definition).maxTools,
      (error) => void this.unauthorizedMidSession(error),
      (text) => shownText(text, deps.secrets ?? []),
    );
    this.share = new ConnectionShare(
      definition,
      hash,
      deps,
      () => this.fire(),
      () => {
        this.share.stopForAll();
        void this.stop(STOPPED_FROM_ANOTHER_WINDOW);
      },
    );
    this.watches = new ResourceWatches({
      client: () => (this.takesResourceSubscriptions ? this.session?.client : undefined),
      request: (label, run) => this.request(label, run),
      describe: (label, error) => describeRequestError(this.id, label, error, definition.requestTimeoutMs),
      timeoutMs: definition.requestTimeoutMs,
      warn: (message) => deps.log.warn(message),
    });
  }

  get id(): string {
    return this.definition.id;
  }

  get state(): ServerStatus {
    return this.status;
  }

  /**
   * Whether the running server takes resource subscriptions (`resources.subscribe`): through
   * `resources/subscribe` in the 2025 era, through `subscriptions/listen` in 2026-07-28.
   */
  get takesResourceSubscriptions(): boolean {
    return this.status === 'running' && this.session?.client.getServerCapabilities()?.resources?.subscribe === true;
  }

  /**
   * Asks the server for `notifications/resources/updated` about `uri` until {@link unwatchResource}.
   * The set outlives sessions: after a restart the host subscribes again.
   */
  watchResource(uri: string): Promise<void> {
    return this.watches.watch(uri);
  }

  unwatchResource(uri: string): Promise<void> {
    return this.watches.unwatch(uri);
  }

  snapshot(): ServerSnapshot {
    return connectionSnapshot({
      definition: this.definition,
      target: this.target,
      status: this.status,
      reason: this.reason,
      waitingForTurn: this.turn.waiting,
      session: this.session,
      lists: this.lists,
      share: this.share.state,
      roots: this.deps.roots,
    });
  }

  /**
   * Start at the user's (or settings') request: forgets earlier crashes. `waitedFor`: someone waits
   * for it, so it starts at once (one waiting for its turn goes now); false for the servers that
   * start with the window, which take turns (see {@link StartSlots}).
   */
  start(waitedFor = true, askedBy: StartCause = waitedFor ? 'this window' : 'window start'): Promise<void> {
    if (!this.startPromise && this.status !== 'running') this.asker = askedBy;
    this.restarts.reset();
    if (waitedFor) this.turn.goNow();
    return this.launch(waitedFor);
  }

  /**
   * Someone now waits for the start under way (a tool call): a server waiting for its turn goes at
   * once. Settles when the start ends, at once when none is under way; changes nothing else.
   */
  whenStarted(): Promise<void> {
    this.turn.goNow();
    return this.startPromise ?? Promise.resolve();
  }

  /** Stops and starts the server; `reason` is what requests in flight are told (a dev-mode change). */
  async restart(reason?: string): Promise<void> {
    await this.stop(reason);
    await this.start();
  }

  /**
   * Stops a shared server in every window that uses it: a window that reaches another's process
   * asks that window to stop it.
   */
  async stopForAll(): Promise<void> {
    if (!(await this.share.askStopForAll())) this.share.stopForAll();
    await this.stop('stopped for every window that shares it');
  }

  async stop(reason?: string, status: 'stopped' | 'needs-sign-in' | 'error' = 'stopped'): Promise<void> {
    this.generation++;
    this.restarts.cancel();
    this.share.release();
    const transport = this.liveTransport;
    const session = this.session;
    this.session = undefined;
    this.liveTransport = undefined;
    if (!transport && !session && !this.startPromise) {
      await this.ending; // the tree of a server that just died may still be ending
      if (this.status !== 'error' || status !== 'stopped') this.setStatus(status, reason);
      return;
    }
    this.setStatus('stopping', reason);
    const starting = this.startPromise;
    const tree = await processTreeOf(transport, true);
    this.connectAbort?.abort();
    await closeThenEnd((session ? session.client.close() : transport?.transport.close()) ?? undefined, tree);
    // A start it overtook ends what it started itself (it may have spawned after the tree was read).
    await Promise.race([starting, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    this.disposeSession();
    this.lists.clear();
    this.setStatus(status, reason);
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.changed.dispose();
  }

  /**
   * Runs a request against the live session with this server's timeouts. Every failure comes back
   * as an error naming the server; a server that dies mid-request fails the request at once.
   */
  async request<T>(
    label: string,
    run: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
    onProgress?: RequestOptions['onprogress'],
  ): Promise<T> {
    const session = this.requireRunning();
    this.requestsUnderWay++;
    // The idle timeout is ours (it stands still while the server waits for the host); the SDK
    // keeps the total cap.
    const idle = this.hostWaits.deadline(this.definition.requestTimeoutMs, signal);
    try {
      return await run(session.client, idle.requestOptions(this.definition.maxTotalTimeoutMs, onProgress));
    } catch (error) {
      if (idle.signal.aborted && !signal?.aborted) {
        const { SdkError, SdkErrorCode } = clientLibrary();
        throw describeRequestError(
          this.id,
          label,
          new SdkError(SdkErrorCode.RequestTimeout, 'idle timeout'),
          this.definition.requestTimeoutMs,
        );
      }
      const refused = await this.unauthorizedMidSession(error);
      if (refused)
        throw new McpRequestError(
          this.id,
          `MCP server "${this.id}"${refused.signIn ? ' ' : ': '}${refused.reason}.`,
          undefined,
          { cause: error },
        );
      const stopping = this.status === 'stopping' ? this.reason : undefined;
      throw this.redacted(
        describeRequestError(
          this.id,
          label,
          error,
          this.definition.requestTimeoutMs,
          signal?.aborted === true,
          stopping,
        ),
      );
    } finally {
      this.requestsUnderWay--;
      idle.dispose();
    }
  }

  /** Loads one of the server's skills: its `SKILL.md`, verified against the server's entry. */
  loadSkill(uri: string, signal?: AbortSignal): Promise<LoadedSkill> {
    return this.request(`loading skill ${uri}`, () => this.lists.skills.load(uri, signal), signal).finally(() =>
      this.fire(),
    );
  }

  /** Reads a file a skill names (relative to its root), verified. */
  readSkillFile(uri: string, ref: string, signal?: AbortSignal): Promise<string> {
    return this.request(`reading ${ref} of skill ${uri}`, () => this.lists.skills.readFile(uri, ref, signal), signal);
  }

  /**
   * A request refused for want of authorization ends the session with a state that says what to
   * do: sign in (MCP authorization), or fix the credentials in `headers` (nothing signs in for
   * those). Returns that reason; undefined for any other failure.
   */
  private async unauthorizedMidSession(error: unknown): Promise<{ reason: string; signIn: boolean } | undefined> {
    const why = this.deps.authorization && signInReasonMidSession(error, this.deps.authorization, this.target);
    const refusal = why ? undefined : credentialsRefusal(error, this.target);
    if (!why && !refusal) return undefined;
    if (this.status === 'running') {
      this.deps.log[why ? 'warn' : 'error'](
        why ? `The server asks for authorization: ${why}.` : `The server refused its credentials: ${refusal}.`,
      );
      await this.stop(why ?? refusal, why ? 'needs-sign-in' : 'error');
    }
    return { reason: (why ?? refusal)!, signIn: why !== undefined };
  }

  /** `_meta` for outgoing requests: the 2026-07-28 era carries the log level per request. */
  requestMeta(): Record<string, unknown> | undefined {
    if (this.session?.client.getProtocolEra() !== 'modern' || this.deps.log.level === 'off') return undefined;
    return { [clientLibrary().LOG_LEVEL_META_KEY]: mcpLevelFor(this.deps.log.level) };
  }

  /** Re-fetches every list of a running server (the user asked to refresh). */
  async refreshLists(): Promise<void> {
    const client = this.session?.client;
    if (!client || this.status !== 'running') return;
    const generation = this.generation;
    try {
      await this.lists.refreshAll(client, () => generation === this.generation);
    } catch (error) {
      // Only a refusal for want of authorization comes through (a list keeps its other failures):
      // the server then says it needs a sign-in.
      await this.unauthorizedMidSession(error);
      return;
    }
    if (generation === this.generation) this.fire();
  }

  loadMoreResources(): Promise<void> {
    return this.listResources(() => this.lists.resourcePages.loadMore());
  }

  async freshResources(): Promise<readonly Resource[]> {
    if (this.status === 'running' && this.lists.resourcePages.isStale) await this.lists.reloadResources();
    return this.lists.resources;
  }

  loadAllResources(signal: AbortSignal, onPage: () => void): Promise<void> {
    return this.listResources(() => this.lists.resourcePages.loadAll(signal, onPage));
  }

  /** Runs a `resources/list` paging step the user asked for; errors name the server; the view hears the outcome. */
  private async listResources(step: () => Promise<void>): Promise<void> {
    this.requireRunning();
    try {
      await step();
    } catch (error) {
      throw this.redacted(describeRequestError(this.id, 'resources/list', error, this.definition.requestTimeoutMs));
    } finally {
      this.fire();
    }
  }

  /** The live session, or an error that names the server and why it cannot answer. */
  private requireRunning(): OpenedSession {
    if (!this.session || this.status !== 'running') throw new ServerUnavailableError(this.id, this.status, this.reason);
    return this.session;
  }

  /** Workspace folders changed: legacy servers are told; modern ones ask through input requests. */
  async notifyRootsChanged(): Promise<void> {
    const client = this.session?.client;
    if (!client || this.status !== 'running' || client.getProtocolEra() !== 'legacy') return;
    try {
      await client.sendRootsListChanged();
      this.deps.log.debug('Sent notifications/roots/list_changed.');
    } catch (error) {
      this.deps.log.warn(`Could not send notifications/roots/list_changed: ${(error as Error).message}`);
    }
  }

  private launch(waitedFor = false): Promise<void> {
    if (this.startPromise) return this.startPromise;
    if (this.status === 'running') return Promise.resolve();
    const generation = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    this.stderr.clear();
    const reason = this.restarts.active ? this.reason : undefined;
    // A server that must wait for its turn says so from its first change (one change less to draw).
    this.setStatus('starting', this.turn.begin(abort.signal, waitedFor) ?? reason);
    const def = this.definition;
    this.deps.log.info(
      spawnsProcess(def.transport)
        ? `Starting: ${this.target}${def.cwd ? ` (in ${def.cwd})` : ''}`
        : `Connecting to ${this.target} (${TRANSPORTS[def.transport].label})`,
    );
    // What this attempt started, so a stop that overtakes it can end it (children included).
    let started: CreatedTransport | undefined;
    const endOvertaken = async (closing?: Promise<unknown>) =>
      closeThenEnd(
        closing?.catch(() => undefined),
        await processTreeOf(started, true),
      );
    const attempt = async () => {
      const waited = this.turn.waiting;
      const slot = await this.turn.take(abort.signal, waitedFor);
      // Only a stop changes the status meanwhile; otherwise the reason from before the wait is back.
      if (waited && slot && this.status === 'starting') this.setStatus('starting', reason);
      try {
        if (generation === this.generation) await connectAndList();
      } finally {
        slot?.release();
      }
    };
    const connectAndList = async () => {
      try {
        const target = await this.share.take();
        if (generation !== this.generation) return this.share.releaseIfHeld(target.claim);
        const session = await sessionModules().openSession(
          target.definition,
          target.hash,
          this.sessionDeps(generation, (created) => (started = created), target),
          abort.signal,
        );
        if (generation !== this.generation) {
          this.share.releaseIfHeld(target.claim);
          await endOvertaken(session.client.close());
          return;
        }
        this.session = session;
        session.client.onclose = () => void this.onClosed(generation);
        this.restarts.cancel();
        const client = session.client;
        this.deps.log.info(
          `Connected: ${client.getServerVersion()?.name ?? 'unnamed server'} ${client.getServerVersion()?.version ?? ''}, protocol ${client.getNegotiatedProtocolVersion()} (${client.getProtocolEra()} era) over ${session.created.kind}${session.created.stdio?.pid ? `, pid ${session.created.stdio.pid}` : ''}.`,
        );
        this.sessionDisposables.push(followLogLevel(client, this.deps.log, () => generation === this.generation));
        // Lists first, so "running" never shows with empty counts.
        await this.lists.refreshAll(client, () => generation === this.generation);
        if (generation !== this.generation) return;
        this.setStatus('running');
        this.share.running(session.created.stdio?.pid ?? undefined);
        void target.guest?.ended.then((why) => this.shareEnded(generation, why));
        this.watches.renew();
        const health = this.definition.healthCheck;
        if (health)
          this.sessionDisposables.push(startHealthCheck(health, client, (why) => void this.endHung(generation, why)));
      } catch (error) {
        if (generation !== this.generation) {
          await endOvertaken();
          return;
        }
        const tried = this.liveTransport;
        this.liveTransport = undefined;
        this.share.release();
        const auth = this.deps.authorization && (await authorizationOutcome(error, this.target));
        if (auth) {
          if (generation !== this.generation) return;
          this.restarts.cancel();
          // Connected, then refused (a list answered 401 or 403): this session ends; a sign-in starts the next.
          const opened = this.session;
          if (opened) {
            this.generation++;
            this.session = undefined;
            await opened.client.close().catch(() => undefined);
            this.disposeSession();
            this.lists.clear();
          }
          this.deps.log[auth.status === 'error' ? 'error' : 'warn'](
            `The server asks for authorization: ${auth.reason}.`,
          );
          this.setStatus(auth.status, auth.reason);
          return;
        }
        // The exit and the last stderr lines may still be on their way when the handshake fails.
        if (tried?.child) await settleExit(tried.child.exited);
        const message = describeStartFailure(error, {
          kind: tried?.kind ?? this.definition.transport,
          url: spawnsProcess(def.transport) ? undefined : this.target,
          exit: tried?.child?.exit,
          stderrTail: this.stderr.lines,
          startTimeoutMs: this.definition.startTimeoutMs,
        });
        this.deps.log.error(`Failed to start: ${message}`);
        const raw = error instanceof Error ? error.message : String(error);
        if (!message.includes(raw)) this.deps.log.info(`(as the client library reported it: ${raw})`);
        if (this.restarts.active) this.scheduleRestart(message);
        else this.setStatus('error', message);
      }
    };
    this.startPromise = attempt().finally(() => {
      this.startPromise = undefined;
    });
    return this.startPromise;
  }

  private sessionDeps(generation: number, onCreated: (created: CreatedTransport) => void, target: ShareTarget) {
    return {
      resolver: this.deps.resolver,
      eraPins: this.deps.eraPins,
      log: this.deps.log,
      authProvider: target.guest ? undefined : this.deps.authorization,
      ledger: this.deps.ledger,
      askedBy: () => this.asker,
      fetch: target.guest?.fetch ?? this.deps.fetch,
      sandbox: this.deps.sandbox && { runtime: this.deps.sandbox, rootPaths: () => rootPaths(this.deps.roots()) },
      createClient: (options: ClientOptions) => this.createClient(options, generation),
      onTransport: (created: CreatedTransport) => {
        onCreated(created);
        if (generation !== this.generation) return;
        this.liveTransport = created;
        this.stderr.follow(created);
      },
      onIncoming: (message: unknown) => this.lists.observeIncoming(message),
    };
  }

  private createClient(options: ClientOptions, generation: number): Client {
    return createHostClient(this.deps, options, {
      serverRequestsPerMinute: limitsOf(this.definition).serverRequestsPerMinute,
      listChanged: this.lists.changeHandlers(
        () => this.session?.client,
        () => generation === this.generation,
      ),
      whileHostWaits: (work) => this.hostWaits.during(work),
      onRootsAsked: () => this.share.rootsAsked(),
      askerFor: (method) => this.share.askerFor(method, this.requestsUnderWay),
    });
  }

  /**
   * The window whose process this one reached let it go: stopped for all, this one stops too;
   * else this window starts it again (it runs it now, or reaches the window that took over).
   */
  private async shareEnded(generation: number, why: ShareEnd): Promise<void> {
    if (generation !== this.generation || this.status !== 'running') return;
    if (why === 'stopped-for-all') return this.stop(STOPPED_FROM_ANOTHER_WINDOW);
    const reason = shareEndReason(why);
    this.deps.log.info(`Shared: ${reason}.`);
    await this.stop(reason);
    await this.start();
  }

  private async onClosed(generation: number): Promise<void> {
    if (generation !== this.generation || this.status === 'stopping') return;
    const closed = ++this.generation;
    const child = this.liveTransport?.child;
    // Its children outlive it, re-parented: its process group still holds them.
    const transport = this.liveTransport;
    this.session = undefined;
    this.liveTransport = undefined;
    this.disposeSession();
    this.share.release();
    this.lists.clear();
    // What it left running ends meanwhile: a stop waits for it, a restart starts after it.
    const ending = processTreeOf(transport, false)
      .then(endProcessTree)
      .catch(() => undefined);
    this.ending = ending;
    void ending.finally(() => this.ending === ending && (this.ending = undefined));
    const ended = this.hung ?? child?.ended;
    this.hung = undefined;
    const why = ended
      ? `the server stopped answering: ${ended}`
      : child?.exit
        ? describeExit(child.exit)
        : 'the server stopped unexpectedly';
    if (closed === this.generation) this.scheduleRestart(`${why}${lastOutput(this.stderr.lines)}`);
  }

  private scheduleRestart(why: string): void {
    const generation = this.generation;
    const outcome = this.restarts.schedule(why, () => {
      void Promise.resolve(this.ending).then(() => {
        this.asker = 'a restart';
        if (generation === this.generation) void this.launch();
      });
    });
    this.deps.log[outcome.status === 'error' ? 'error' : 'warn'](outcome.logLine);
    this.setStatus(outcome.status, outcome.reason);
  }

  /** A server that stopped answering pings: ended, so the close goes through the restart policy. */
  private async endHung(generation: number, why: string): Promise<void> {
    const created = this.liveTransport;
    if (generation !== this.generation || !created) return;
    this.deps.log.warn(`The server ${why}.`);
    this.hung = why;
    await (created.child ? endProcessTree(await processTreeOf(created, true)) : created.transport.close());
  }

  private disposeSession(): void {
    for (const disposable of this.sessionDisposables.splice(0)) disposable.dispose();
  }

  /** An error as the user sees it: a secret it echoes (a URL in an HTTP body) as its placeholder, a page of text cut short. */
  private redacted(error: McpRequestError): McpRequestError {
    const message = shownText(error.message, this.deps.secrets ?? []);
    return message === error.message
      ? error
      : new McpRequestError(error.serverId, message, error.code, { cause: error.cause });
  }

  private setStatus(status: ServerStatus, reason?: string): void {
    this.status = status;
    this.reason = reason === undefined ? undefined : shownText(reason, this.deps.secrets ?? []);
    this.fire();
  }

  private fire(): void {
    this.changed.fire(this.snapshot());
  }
}
