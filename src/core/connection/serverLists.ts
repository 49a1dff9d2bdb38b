import { dropUnusableTools } from './toolListLimits';
import { clientLibrary } from '../lazyLibraries';
import { shownText } from '../shownText';
import type {
  Client,
  ListChangedHandlers,
  Prompt,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import { ResourcePages, type ResourcePage } from '../resources/resourcePages';
import { toolNameProblem } from './toolNames';
import type { ServerLog } from './serverLog';
import { needsAuthorization } from '../auth/authorizationFailure';
import { credentialsRefusal } from './startFailure';
import { carryRenames } from './toolRenames';
import { ServerSkills } from '../skills/serverSkills';

const LIST_RETRIES = 3;
const LIST_RETRY_DELAY_MS = 1_000;
/**
 * A list still unanswered after `requestTimeoutMs` is shown as late and waited for this many times
 * as long in all: a busy server's late answer is used, not dropped.
 */
export const LATE_LIST_FACTOR = 4;

/**
 * A server's tools, prompts, resources and templates: tools, prompts and templates fetched in full
 * (the SDK walks every page), resources one page at a time as the user asks for more; cached, and
 * replaced when the server says a list changed (legacy notifications, or the 2026-07-28
 * subscriptions/listen stream the SDK opens). `isCurrent` guards against late answers from a
 * session that has since ended.
 */
export class ServerLists {
  tools: readonly Tool[] = [];
  /** Current tools that came from another name, with the first name the user knew (new → old). */
  renamedTools: ReadonlyMap<string, string> = new Map();
  /** The last tools listed, kept across restarts: a rename across a restart is still a rename. */
  private lastListed: readonly Tool[] = [];
  prompts: readonly Prompt[] = [];
  resourceTemplates: readonly ResourceTemplateType[] = [];
  readonly resourcePages: ResourcePages;
  /** The server's skills (SEP-2640): listed with the other lists, their files read only when one is loaded. */
  readonly skills: ServerSkills;
  /** Lists that failed, by method, with the reason: the view says why a list is empty. */
  readonly problems = new Map<string, string>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /** How many times each list was asked for: a late answer counts only if it is the latest. */
  private readonly asked = new Map<string, number>();
  /** Lists whose answer is late and still awaited. */
  private readonly awaited = new Set<string>();

  constructor(
    private readonly log: ServerLog,
    private readonly timeoutMs: number,
    private readonly onChange: () => void,
    client: () => Client | undefined,
    private readonly maxTools?: number,
    /** A refresh the server refused for want of authorization (a 401 after sign-in): the session must sign in again. */
    private readonly onUnauthorized: (error: unknown) => void = () => undefined,
    /** A failure's text as the user sees it (src/core/connection/shownText.ts). */
    private readonly shown: (text: string) => string = (text) => shownText(text),
  ) {
    this.skills = new ServerSkills((message) => log.warn(message));
    this.resourcePages = new ResourcePages(
      (cursor) => {
        const current = client();
        if (!current) return Promise.reject(new Error('the server is not connected'));
        return resourcePage(current, cursor, timeoutMs);
      },
      (message) => log.warn(message),
    );
  }

  /** Lists whose answer is late and still awaited. */
  get late(): readonly string[] {
    return [...this.awaited];
  }

  /** The resources loaded so far (the first page, and any the user asked for since). */
  get resources(): readonly Resource[] {
    return this.resourcePages.items;
  }

  /** `listChanged` options for a new client. */
  changeHandlers(client: () => Client | undefined, isCurrent: () => boolean): ListChangedHandlers {
    const changed = <T>(label: string, apply: (items: T[]) => void, after?: () => Promise<void>) => ({
      onChanged: (error: Error | null, items: T[] | null) => {
        if (!isCurrent()) return;
        if (error && refused(error)) return this.onUnauthorized(error);
        if (error) return this.log.warn(`Refreshing a list failed: ${error.message}`);
        if (items) {
          // Newer than any late answer still awaited.
          this.asked.set(label, (this.asked.get(label) ?? 0) + 1);
          this.awaited.delete(label);
          this.problems.delete(label);
          apply(items);
        }
        void (after?.() ?? Promise.resolve()).then(() => isCurrent() && this.onChange());
      },
    });
    return {
      tools: changed<Tool>('tools/list', (items) => this.setTools(items)),
      prompts: changed<Prompt>('prompts/list', (items) => (this.prompts = items)),
      // Resources are paged by the host (the SDK would walk every page): on list_changed the first
      // page is fetched again. Templates have no list_changed of their own; they travel along.
      resources: {
        ...changed<Resource>(
          'resources/list',
          () => undefined,
          () => Promise.all([this.reloadResources(), this.refreshTemplates(client(), isCurrent)]).then(() => undefined),
        ),
        autoRefresh: false,
      },
    };
  }

  /** Fetches every list; the caller announces the change (at start it comes with the status). */
  async refreshAll(client: Client, isCurrent: () => boolean): Promise<void> {
    const caps = client.getServerCapabilities();
    if (!caps) return;
    const options = { timeout: this.timeoutMs * LATE_LIST_FACTOR };
    const listTools = async () => (await client.listTools(undefined, options)).tools;
    const listPrompts = async () => (await client.listPrompts(undefined, options)).prompts;
    const applyTools = (items: Tool[]) => this.setTools(items);
    const applyPrompts = (items: Prompt[]) => (this.prompts = items);
    const [tools, prompts] = await Promise.all([
      this.fetchPatiently('tools/list', caps.tools, listTools, applyTools, isCurrent),
      this.fetchPatiently('prompts/list', caps.prompts, listPrompts, applyPrompts, isCurrent),
      caps.resources ? this.reloadResources() : this.resourcePages.clear(),
      this.refreshTemplates(client, isCurrent),
      this.refreshSkills(client, isCurrent),
    ]);
    if (!isCurrent()) return;
    // A list still awaited keeps what it had until its answer comes.
    if (!this.awaited.has('tools/list')) this.setTools(tools);
    if (!this.awaited.has('prompts/list')) this.prompts = prompts;
    // A list that failed at start (a busy server) is asked for again, with backoff.
    if (this.problems.has('tools/list') && !this.awaited.has('tools/list'))
      this.retry('tools/list', listTools, applyTools, isCurrent);
    if (this.problems.has('prompts/list') && !this.awaited.has('prompts/list'))
      this.retry('prompts/list', listPrompts, applyPrompts, isCurrent);
  }

  /**
   * `fetch` for a list that may be late: past `requestTimeoutMs` the caller goes on without it (the
   * row says the list is late, naming the setting), and the answer, when it comes within
   * LATE_LIST_FACTOR times as long, is applied then if it is still the latest asked for; if it
   * never comes, the list is asked for again with backoff.
   */
  private async fetchPatiently<T>(
    label: string,
    offered: unknown,
    run: () => Promise<T[]>,
    apply: (items: T[]) => void,
    isCurrent: () => boolean,
  ): Promise<T[]> {
    if (!offered) return [];
    const asked = (this.asked.get(label) ?? 0) + 1;
    this.asked.set(label, asked);
    this.awaited.delete(label); // this ask supersedes one still awaited
    const latest = () => isCurrent() && this.asked.get(label) === asked;
    const started = Date.now();
    const answer = this.fetch(label, offered, run, isCurrent);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.timeoutMs)));
    const first = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
    if (first !== 'late') return first;
    this.awaited.add(label);
    const most = this.timeoutMs * LATE_LIST_FACTOR;
    this.problems.set(
      label,
      `${label} has taken longer than "requestTimeoutMs" (${this.timeoutMs} ms); its answer is still awaited, up to ${most} ms`,
    );
    this.log.info(
      `${label} has not answered within "requestTimeoutMs" (${this.timeoutMs} ms); waiting up to ${most} ms.`,
    );
    void answer.then(
      (items) => {
        if (!latest()) return;
        this.awaited.delete(label);
        if (this.problems.has(label)) {
          // Failed after all (fetch kept the reason): asked again with backoff.
          this.retry(label, run, apply, isCurrent);
        } else {
          apply(items);
          this.log.info(`${label} answered after ${Date.now() - started} ms.`);
        }
        this.onChange();
      },
      () => latest() && this.awaited.delete(label), // a refusal: the session ends with it
    );
    return [];
  }

  /** A list's failure in the user's terms: a timeout names how long and the setting. */
  private describe(label: string, error: unknown): string {
    const { SdkError, SdkErrorCode } = clientLibrary();
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      return `${label} took longer than ${LATE_LIST_FACTOR} × "requestTimeoutMs" (${this.timeoutMs * LATE_LIST_FACTOR} ms)`;
    return (error as Error).message;
  }

  private retry<T>(
    label: string,
    run: () => Promise<T[]>,
    apply: (items: T[]) => void,
    isCurrent: () => boolean,
    attempt = 1,
  ): void {
    const timer = setTimeout(
      async () => {
        this.retryTimers.delete(timer);
        if (!isCurrent()) return;
        try {
          const items = await run();
          if (!isCurrent()) return;
          this.problems.delete(label);
          apply(items);
          this.log.info(`${label} succeeded on attempt ${attempt + 1}.`);
        } catch (error) {
          if (!isCurrent()) return;
          this.problems.set(label, this.shown((error as Error).message));
          if (attempt < LIST_RETRIES) this.retry(label, run, apply, isCurrent, attempt + 1);
          else this.log.warn(`${label} failed ${attempt + 1} times; Refresh asks again.`);
        }
        this.onChange();
      },
      LIST_RETRY_DELAY_MS * 2 ** (attempt - 1),
    );
    this.retryTimers.add(timer);
  }

  /** The first page of resources again; a failure is logged and leaves the list empty. */
  async reloadResources(): Promise<void> {
    try {
      await this.resourcePages.reload();
    } catch (error) {
      if (refused(error)) throw error;
      this.log.warn(`resources/list failed: ${(error as Error).message}`);
      this.resourcePages.clear();
    }
  }

  private readonly warnedNames = new Set<string>();
  /** Warnings about the tools a list left out, said once per server (a list comes again at every change). */
  private readonly saidOfLists = new Set<string>();
  /** Tools the server listed with `x-mcp-header` declarations, since the last list was applied. */
  private readonly listedWithHeaders = new Set<string>();

  /**
   * Sees every message before the SDK: leaves out tools nothing could use safely (see
   * `dropUnusableTools`), and notes tools listed with `x-mcp-header` declarations. The SDK drops the ones whose
   * declarations break the spec (2026-07-28 over HTTP) and only tells the console; comparing with
   * the list it returns lets the server's own log name each dropped tool.
   */
  observeIncoming(message: unknown): void {
    dropUnusableTools(message, this.log, this.maxTools, this.saidOfLists);
    const tools = (message as { result?: { tools?: unknown } } | undefined)?.result?.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as { name?: unknown; inputSchema?: unknown }[]) {
      if (typeof tool?.name === 'string' && JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"'))
        this.listedWithHeaders.add(tool.name);
    }
  }

  /**
   * Applies a new tool list. Tools the SDK dropped are named in the log; names outside the spec's
   * rules still work, but the user is told once per name.
   */
  private setTools(tools: readonly Tool[]): void {
    this.tools = tools;
    const renamed = carryRenames(this.renamedTools, this.lastListed, tools);
    for (const [name, old] of renamed)
      if (this.renamedTools.get(name) !== old)
        this.log.warn(
          `Tool ${JSON.stringify(old)} is now offered as ${JSON.stringify(name)} (same ${this.lastListed.find((t) => t.name === old)?.description?.trim() === tools.find((t) => t.name === name)?.description?.trim() ? 'description' : 'parameters'}): it is asked about again and keeps its switch.`,
        );
    this.renamedTools = renamed;
    if (tools.length > 0) this.lastListed = tools;
    const kept = new Set(tools.map((t) => t.name));
    for (const name of this.listedWithHeaders) {
      if (!kept.has(name))
        this.log.warn(
          `Tool ${JSON.stringify(name)} was left out: its x-mcp-header declarations break the 2026-07-28 rules (see the SDK's reason in the extension host log).`,
        );
    }
    this.listedWithHeaders.clear();
    for (const tool of tools) {
      const problem = toolNameProblem(tool.name);
      if (!problem || this.warnedNames.has(tool.name)) continue;
      this.warnedNames.add(tool.name);
      this.log.warn(`Tool name ${JSON.stringify(tool.name)} ${problem}; it may not work with every chat model.`);
    }
  }

  /** The skills' entries; a failure is logged and leaves none (the view says so), but a refusal for want of authorization is the caller's. */
  private async refreshSkills(client: Client, isCurrent: () => boolean): Promise<void> {
    try {
      await this.skills.refresh(client, this.timeoutMs);
      if (isCurrent()) this.problems.delete('skills/list');
    } catch (error) {
      if (refused(error)) throw error;
      if (!isCurrent()) return; // the session has ended: its failures are not the next one's
      this.skills.clear();
      this.log.warn(`skills/list failed: ${(error as Error).message}`);
      this.problems.set('skills/list', this.shown((error as Error).message));
    }
  }

  clear(): void {
    this.skills.clear();
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.problems.clear();
    this.awaited.clear();
    this.tools = [];
    this.prompts = [];
    this.resourcePages.clear();
    this.resourceTemplates = [];
  }

  /**
   * The server's resource templates. Many servers declare resources and answer only
   * `resources/list` and `resources/read` (the first SDKs' low-level servers): "Method not found"
   * means no templates, not a failed list on the server's row.
   */
  private async refreshTemplates(client: Client | undefined, isCurrent: () => boolean): Promise<void> {
    if (!client) return;
    const templates = await this.fetch(
      'resources/templates/list',
      client.getServerCapabilities()?.resources,
      async () => {
        try {
          return (await client.listResourceTemplates(undefined, { timeout: this.timeoutMs })).resourceTemplates;
        } catch (error) {
          const { ProtocolError, METHOD_NOT_FOUND } = clientLibrary();
          if (!(error instanceof ProtocolError && error.code === METHOD_NOT_FOUND)) throw error;
          this.log.info('The server has no resources/templates/list method: it offers no resource templates.');
          return [];
        }
      },
      isCurrent,
    );
    if (isCurrent()) this.resourceTemplates = templates;
  }

  /**
   * A list the server does not offer is empty; one that fails is logged and left empty, except a
   * refusal for want of authorization, which the caller must hear: the server is not "running with
   * no tools", it wants a sign-in. Only the current session's answers touch `problems`.
   */
  private async fetch<T>(
    label: string,
    offered: unknown,
    run: () => Promise<T[]>,
    isCurrent: () => boolean,
  ): Promise<T[]> {
    if (!offered) return [];
    try {
      const items = await run();
      if (isCurrent()) this.problems.delete(label);
      return items;
    } catch (error) {
      if (refused(error)) throw error;
      // A list cut off because its session ended ("Connection closed") is no problem of the server's
      // lists: the session's end says what happened, and the next session asks again.
      if (!isCurrent()) return [];
      const why = this.describe(label, error);
      this.log.warn(`${label} failed: ${why}`);
      this.problems.set(label, this.shown(why));
      return [];
    }
  }
}

/** One page of `resources/list` (the SDK's own listing would walk them all). */
async function resourcePage(client: Client, cursor: string | undefined, timeoutMs: number): Promise<ResourcePage> {
  const result = await client.request(
    { method: 'resources/list', params: cursor === undefined ? {} : { cursor } },
    { timeout: timeoutMs },
  );
  const ttlMs = (result as { ttlMs?: unknown }).ttlMs;
  return {
    resources: result.resources,
    nextCursor: result.nextCursor,
    ttlMs: typeof ttlMs === 'number' ? ttlMs : undefined,
  };
}

/** A refusal for want of authorization (a sign-in, or credentials in `headers` the server no longer takes). */
function refused(error: unknown): boolean {
  return needsAuthorization(error) !== undefined || credentialsRefusal(error, '') !== undefined;
}
