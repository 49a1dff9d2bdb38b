import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { limitsOf, type ResolvedServerDefinition } from '../config/serverDefinition';
import { sessionRecipe } from './sessionRecipe';
import { Emitter, type Disposable } from '../events';
import { SessionRequests } from './sessionRequests';
import { AutomaticRestarts } from './restartPolicy';
import { ServerLists } from './serverLists';
import { ServerListCalls } from './serverListCalls';
import { followLogLevel } from './serverLog';
import type { EndedStatus, ServerSnapshot, ServerStatus } from './serverSnapshot';
import { connectionSnapshot } from './connectionSnapshot';
import { inspectorAddress } from './devInspector';
import { StderrTail } from './stderrTail';
import type { StartCause } from '../process/spawnRecord';
import { closeThenEnd, endProcessTree, processTreeOf } from './serverProcessEnd';
import type { OpenedSession } from './sessionOpener';
import { StartTurn } from './startTurn';
import { describeEnd } from './startFailure';
import { outputCause } from './outputCause';
import { attemptStart, type StartOutcome } from './startAttempt';
import { shownText } from '../shownText';
import type { CreatedTransport } from './transportFactory';
import { startHealthCheck } from './healthCheck';
import type { ServerConnectionDeps } from './serverConnectionDeps';
import { spawnsProcess } from '../config/transportKinds';
import { ConnectionShare, shareEndReason } from './connectionShare';
import type { ShareEnd } from './machineShare';

export type { ServerConnectionDeps } from './serverConnectionDeps';

/** The reason a server shared between windows gives when another window stopped it for all. */
const STOPPED_FROM_ANOTHER_WINDOW = 'stopped for every window, from another window';

/** One server: its state machine, its session, its cached lists, its restart policy. */
export class ServerConnection implements Disposable {
  private status: ServerStatus = 'stopped';
  private reason?: string;
  /** A failed server's cause in a few words, for its row (see `startFailureCause`). */
  private cause?: string;
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
  /** Requests to the session, with its time limits and its errors. */
  private readonly requests: SessionRequests;
  /** What the kept lists answer: resource pages and watches, skills. */
  readonly calls: ServerListCalls;
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
    this.requests = new SessionRequests({
      definition,
      target,
      deps,
      session: () => this.session,
      status: () => this.status,
      reason: () => this.reason,
      stop: (reason, status, cause) => this.stop(reason, status, cause),
    });
    this.lists = new ServerLists(
      deps.log,
      definition.requestTimeoutMs,
      () => this.fire(),
      () => this.session?.client,
      limitsOf(definition).maxTools,
      (error) => void this.requests.refusedMidSession(error),
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
    this.calls = new ServerListCalls({
      definition,
      lists: this.lists,
      requests: this.requests,
      subscribingClient: () => (this.takesResourceSubscriptions ? this.session?.client : undefined),
      running: () => this.status === 'running',
      changed: () => this.fire(),
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

  snapshot(): ServerSnapshot {
    return connectionSnapshot({
      definition: this.definition,
      target: this.target,
      status: this.status,
      reason: this.reason,
      cause: this.cause,
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

  /** Stops the server; `status` and `reason` say why (with `cause`, its few words for the row, after a failure). */
  async stop(reason?: string, status: EndedStatus = 'stopped', cause?: string): Promise<void> {
    this.generation++;
    this.restarts.cancel();
    this.share.release();
    const transport = this.liveTransport;
    const session = this.session;
    this.session = undefined;
    this.liveTransport = undefined;
    if (!transport && !session && !this.startPromise) {
      await this.ending; // the tree of a server that just died may still be ending
      if (this.status !== 'error' || status !== 'stopped') this.setStatus(status, reason, cause);
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
    this.setStatus(status, reason, cause);
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.changed.dispose();
  }

  /**
   * Runs a request against the live session with this server's timeouts. Every failure comes back
   * as an error naming the server; a server that dies mid-request fails the request at once.
   */
  request<T>(
    label: string,
    run: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
    onProgress?: RequestOptions['onprogress'],
    callerTimesOut = false,
  ): Promise<T> {
    return this.requests.run(label, run, signal, onProgress, callerTimesOut);
  }

  /** `_meta` for outgoing requests: the 2026-07-28 era carries the log level per request. */
  requestMeta(): Record<string, unknown> | undefined {
    return this.requests.meta();
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
      await this.requests.refusedMidSession(error);
      return;
    }
    if (generation === this.generation) this.fire();
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
    const current = () => generation === this.generation;
    const run = async () => {
      const waited = this.turn.waiting;
      const slot = await this.turn.take(abort.signal, waitedFor);
      // Only a stop changes the status meanwhile; otherwise the reason from before the wait is back.
      if (waited && slot && this.status === 'starting') this.setStatus('starting', reason);
      try {
        if (!current()) return;
        const outcome = await attemptStart({
          definition: this.definition,
          target: this.target,
          log: this.deps.log,
          signsIn: this.deps.authorization !== undefined,
          current,
          place: () => this.share.take(),
          leave: (place) => this.share.releaseIfHeld(place.claim),
          signal: abort.signal,
          recipe: (place, onCreated) =>
            sessionRecipe(
              {
                definition: this.definition,
                deps: this.deps,
                lists: this.lists,
                requests: this.requests,
                share: this.share,
                asker: () => this.asker,
                current,
                client: () => this.session?.client,
                transportCreated: (created) => {
                  this.liveTransport = created;
                  this.stderr.follow(created);
                },
              },
              place,
              onCreated,
            ),
          adopt: (session) => this.adopt(session, current),
          abandon: () => {
            this.liveTransport = undefined;
            this.share.release();
          },
          stderrLines: () => this.stderr.lines,
        });
        await this.apply(outcome, generation);
      } finally {
        slot?.release();
      }
    };
    this.startPromise = run().finally(() => {
      this.startPromise = undefined;
    });
    return this.startPromise;
  }

  /** Takes an opened session: follows its close and log level, and fetches its lists. */
  private async adopt(session: OpenedSession, current: () => boolean): Promise<void> {
    const generation = this.generation;
    this.session = session;
    session.client.onclose = () => void this.onClosed(generation);
    this.restarts.cancel();
    this.sessionDisposables.push(followLogLevel(session.client, this.deps.log, current));
    await this.lists.refreshAll(session.client, current);
  }

  /** Applies how a start ended: the state it leaves, and what follows (a restart, the health check). */
  private async apply(outcome: StartOutcome, generation: number): Promise<void> {
    switch (outcome.kind) {
      case 'overtaken':
        return;
      case 'running': {
        const { session, place } = outcome;
        this.setStatus('running');
        this.share.running(session.created.stdio?.pid ?? undefined);
        void place.guest?.ended.then((why) => this.shareEnded(generation, why));
        this.calls.renewWatches();
        const health = this.definition.healthCheck;
        if (health)
          this.sessionDisposables.push(
            startHealthCheck(health, session.client, (why) => void this.endHung(generation, why)),
          );
        return;
      }
      case 'refused': {
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
        this.setStatus(outcome.status, outcome.reason);
        return;
      }
      case 'failed':
        if (this.restarts.active) this.scheduleRestart(outcome.why, outcome.cause);
        else this.setStatus('error', outcome.why, outcome.cause);
    }
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
    const why = describeEnd(this.hung, child, this.stderr.recentLines);
    this.hung = undefined;
    if (closed === this.generation) this.scheduleRestart(why, outputCause(this.stderr.recentLines));
  }

  private scheduleRestart(why: string, cause?: string): void {
    const generation = this.generation;
    const outcome = this.restarts.schedule(why, () => {
      void Promise.resolve(this.ending).then(() => {
        this.asker = 'a restart';
        if (generation === this.generation) void this.launch();
      });
    });
    this.deps.log[outcome.status === 'error' ? 'error' : 'warn'](outcome.logLine);
    this.setStatus(outcome.status, outcome.reason, cause);
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

  private setStatus(status: ServerStatus, reason?: string, cause?: string): void {
    this.status = status;
    this.reason = reason === undefined ? undefined : shownText(reason, this.deps.secrets ?? []);
    this.cause = cause === undefined ? undefined : shownText(cause, this.deps.secrets ?? []);
    this.fire();
  }

  private fire(): void {
    this.changed.fire(this.snapshot());
  }
}
