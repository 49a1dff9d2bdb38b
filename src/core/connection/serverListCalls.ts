// The calls a running server's kept lists answer for the host: resources a page at a time, resources
// watched for updates, skills loaded and verified. Each failure names the server; the views hear
// the outcome.
import type { Client, Resource } from '@modelcontextprotocol/client';
import type { ResolvedServerDefinition } from '../config/serverDefinition';
import { ResourceWatches } from '../resources/resourceWatches';
import { SKILLS_REQUESTS, type LoadedSkill } from '../skills/serverSkills';
import { LEGACY_TASK_REQUESTS, TASK_REQUESTS } from '../tasks/taskResults';
import { passThrough } from '../tasks/toolTasks';
import { describeRequestError, type McpRequestError } from './serverErrors';
import type { ServerLists } from './serverLists';
import type { SessionRequests } from './sessionRequests';

/** What the calls need of their connection. */
export interface ListCallsPort {
  readonly definition: ResolvedServerDefinition;
  readonly lists: ServerLists;
  readonly requests: SessionRequests;
  /** The running session's client, if it takes resource subscriptions. */
  subscribingClient(): Client | undefined;
  /** Whether the server runs now. */
  running(): boolean;
  /** The lists changed: the views redraw. */
  changed(): void;
  warn(message: string): void;
}

export class ServerListCalls {
  /** Resources someone wants updates about (open editors), kept across sessions. */
  private readonly watches: ResourceWatches;

  constructor(private readonly port: ListCallsPort) {
    this.watches = new ResourceWatches({
      client: () => port.subscribingClient(),
      request: (label, run) => port.requests.run(label, run),
      describe: (label, error) => this.describe(label, error),
      timeoutMs: port.definition.requestTimeoutMs,
      warn: (message) => port.warn(message),
    });
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

  /** A new session: what is watched is subscribed to again. */
  renewWatches(): void {
    this.watches.renew();
  }

  /** Loads one of the server's skills: its `SKILL.md`, verified against the server's entry. */
  loadSkill(uri: string, signal?: AbortSignal): Promise<LoadedSkill> {
    return this.port.requests
      .run(`loading skill ${uri}`, () => this.port.lists.skills.load(uri, signal), signal)
      .finally(() => this.port.changed());
  }

  /**
   * One of the Skills or Tasks extension's own requests (`skills/list`, `tasks/get` …, and a
   * 2025-11-25 task-augmented `tools/call`), passed to the server as it is, for a window sharing
   * the process that lists skills and follows tasks itself: that window keeps its own timeouts.
   */
  passExtensionRequest(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const taskCall = method === 'tools/call' && (params as { task?: unknown } | undefined)?.task !== undefined;
    if (
      !taskCall &&
      ![SKILLS_REQUESTS, TASK_REQUESTS, LEGACY_TASK_REQUESTS].some((methods) => methods.includes(method))
    )
      return Promise.reject(new Error(`${method} is not a request of the Skills or Tasks extension.`));
    return this.port.requests.run(
      method,
      (client, options) => client.request({ method, params } as never, passThrough, options),
      signal,
      undefined,
      true,
    );
  }

  /** Reads a file a skill names (relative to its root), verified. */
  readSkillFile(uri: string, ref: string, signal?: AbortSignal): Promise<string> {
    return this.port.requests.run(
      `reading ${ref} of skill ${uri}`,
      () => this.port.lists.skills.readFile(uri, ref, signal),
      signal,
    );
  }

  loadMoreResources(): Promise<void> {
    return this.listResources(() => this.port.lists.resourcePages.loadMore());
  }

  /** The resources, re-fetched first when their `ttlMs` ran out. */
  async freshResources(): Promise<readonly Resource[]> {
    if (this.port.running() && this.port.lists.resourcePages.isStale) await this.port.lists.reloadResources();
    return this.port.lists.resources;
  }

  loadAllResources(signal: AbortSignal, onPage: () => void): Promise<void> {
    return this.listResources(() => this.port.lists.resourcePages.loadAll(signal, onPage));
  }

  /** Runs a `resources/list` paging step the user asked for; errors name the server; the view hears the outcome. */
  private async listResources(step: () => Promise<void>): Promise<void> {
    this.port.requests.requireRunning();
    try {
      await step();
    } catch (error) {
      throw this.describe('resources/list', error);
    } finally {
      this.port.changed();
    }
  }

  /** A failure as the user reads it: names the server, its secrets as placeholders. */
  private describe(label: string, error: unknown): McpRequestError {
    // Resource pages are asked with the library's own timeout, the idle one's length.
    const { id, requestTimeoutMs } = this.port.definition;
    return this.port.requests.redacted(
      describeRequestError(id, label, error, { ms: requestTimeoutMs, setting: 'requestTimeoutMs' }),
    );
  }
}
