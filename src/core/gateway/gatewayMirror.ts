import type {
  CallToolResult,
  JSONRPCMessage,
  Progress,
  RequestId,
  ServerCapabilities,
  Transport,
} from '@modelcontextprotocol/client';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { canonicalJson } from '../config/definitionHash';
import { listsKnown, startsForUse, type ServerSnapshot } from '../connection/serverSnapshot';
import type { Disposable } from '../events';
import { gatewayLibraries } from '../lazyLibraries';
import { SKILLS_EXTENSION, SKILLS_REQUESTS } from '../skills/serverSkills';
import { LEGACY_TASK_REQUESTS, TASK_REQUESTS, TASKS_EXTENSION } from '../tasks/taskResults';
import { passThrough } from '../tasks/toolTasks';
import { offeredTools, type GatewayHost, type GatewayOffers } from './gatewayHost';
import type { CallFrom } from '../host/hostPorts';

const MAX_SUBSCRIPTIONS = 1000;

/**
 * What every mirror declares: the lists and their changes, subscriptions, completions, and the
 * server's log lines (at the level the client sets). A server that lacks one answers it empty.
 */
const MIRROR_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

/**
 * The mirror's capabilities: those every mirror declares, the Skills extension as the server
 * declares it, and for windows sharing the process a 2025-11-25 server's task-augmented calls.
 */
function mirroredCapabilities(snapshot: ServerSnapshot | undefined, servesWindows: boolean): ServerCapabilities {
  const skills = snapshot?.skillsExtension as NonNullable<ServerCapabilities['extensions']>[string] | undefined;
  const tasks = servesWindows ? snapshot?.taskCalls : undefined;
  return {
    ...MIRROR_CAPABILITIES,
    ...(skills ? { extensions: { [SKILLS_EXTENSION]: { ...skills } } } : {}),
    ...(tasks ? { tasks: tasks as ServerCapabilities['tasks'] } : {}),
  };
}

/**
 * The server `serverId` is running, started now if it is not (a server that starts when needed, a
 * stopped one, one waiting out a restart's backoff): an agent's request must not fail because MCP
 * Host had not started the server yet. Throws, naming the server and why, when it cannot run.
 */
export async function runningServer(
  host: GatewayHost,
  serverId: string,
  signal?: AbortSignal,
): Promise<ServerSnapshot> {
  const server = host.server(serverId);
  if (!server) throw new Error(`There is no MCP server "${serverId}" in MCP Host's settings.`);
  if (server.status === 'running') return server;
  const missing = waitsForUser(server);
  if (missing) throw new Error(missing);
  if (startsForUse(server)) await host.startOnDemand([serverId], signal, "VS Code's agents");
  else await host.start(serverId, "VS Code's agents");
  const now = host.server(serverId);
  if (now?.status === 'running') return now;
  throw new Error(
    `MCP server "${serverId}" is ${now?.status ?? 'gone'}${now?.reason ? `: ${now.reason}` : ''}. See MCP Host's Servers view.`,
  );
}

/**
 * Why a server cannot start without someone answering MCP Host first (consent to run a workspace
 * server, a sign-in), said with what to do and where; undefined when nothing waits. A client of the
 * gateway may be an agent nobody watches (VS Code's gateway, the Agent Host): it is told at once,
 * and no dialog opens for it.
 */
export function waitsForUser(server: ServerSnapshot): string | undefined {
  const name = `MCP server "${server.id}"`;
  switch (server.held) {
    case 'consent':
    case 'consentWhenNeeded':
      return `${name} comes from workspace settings and waits for your consent to run: allow it in the dialog MCP Host shows, or with Start on its row in MCP Host's Servers view, then try again.`;
    case 'declined':
      return `${name} comes from workspace settings and you did not allow it to run: use Start on its row in MCP Host's Servers view to be asked again.`;
    case 'input':
      return `${name} needs a value you have not given (${server.reason ?? 'an ${input:} value'}): use Start on its row in MCP Host's Servers view to be asked for it, then try again.`;
  }
  if (server.status === 'needs-sign-in')
    return `${name} needs you to sign in: use Sign In on its row in MCP Host's Servers view, then try again.${server.reason ? ` (${server.reason})` : ''}`;
  return undefined;
}

/**
 * The server's tools and prompts for a client that lists them: those of its last run when it starts
 * when needed and has not started since (the first call starts it), else those of the running
 * server, started now if need be.
 */
export async function knownLists(host: GatewayHost, serverId: string, signal?: AbortSignal): Promise<ServerSnapshot> {
  const server = host.server(serverId);
  return server && listsKnown(server) ? server : runningServer(host, serverId, signal);
}

/** The parts of what a server offers whose change is announced with a `list_changed`. */
function listsOf(
  server: ServerSnapshot | undefined,
  offers: GatewayOffers,
): { tools: string; prompts: string; resources: string } {
  if (!server) return { tools: '', prompts: '', resources: '' };
  return {
    tools: canonicalJson(offeredTools(server, offers)),
    prompts: canonicalJson(server.prompts),
    resources: canonicalJson([server.resources, server.resourceTemplates]),
  };
}

/**
 * One gateway session's MCP server: it mirrors MCP Host's server `serverId` to one client (VS
 * Code's MCP). Every request goes through the host, which owns the process, its sign-in, consent,
 * limits and logs; what the server asks of the client (elicitation, sampling, roots) MCP Host
 * answers with its own UI, as for any other call.
 */
export class GatewayMirror implements Disposable {
  readonly server: Server;
  private readonly listeners: Disposable[] = [];
  private readonly subscribed = new Set<string>();
  private announced: ReturnType<typeof listsOf>;
  /** The lists (by identity) last compared. */
  private seen?: readonly unknown[];
  /** The client's calls and prompts under way (what the server may ask about), by request id. */
  private readonly working = new Set<RequestId>();

  constructor(
    private readonly host: GatewayHost,
    private readonly offers: GatewayOffers,
    readonly serverId: string,
    version: string,
    /**
     * The client is a window of MCP Host sharing the process: it keeps its own timeouts, and a task
     * the server creates for its call is handed to it (followed in its own Tasks view), not followed here.
     */
    private readonly servesWindows = false,
  ) {
    const snapshot = host.server(serverId);
    this.announced = listsOf(snapshot, offers);
    const { Server } = gatewayLibraries();
    // VS Code names an agent's tools after the title (`mcp_<title>_<tool>`): the user's name for the
    // server, as VS Code's own mcp.json servers are named after theirs, and the same before and after it runs.
    this.server = new Server(
      { name: snapshot?.serverName ?? serverId, version: snapshot?.serverVersion ?? version, title: serverId },
      {
        capabilities: mirroredCapabilities(snapshot, servesWindows),
        ...(snapshot?.instructions ? { instructions: snapshot.instructions } : {}),
      },
    );
    this.handleRequests();
    if (snapshot?.skillsExtension) this.passRequests(SKILLS_REQUESTS);
    if (servesWindows)
      this.passRequests([...new Set([...TASK_REQUESTS, ...(snapshot?.taskCalls ? LEGACY_TASK_REQUESTS : [])])]);
    this.listeners.push(
      host.onDidChangeServers((id) => (id === undefined || id === serverId) && this.announceChanges()),
      offers.onDidChange(() => this.announceChanges(true)),
      host.onDidUpdateResource(({ serverId: id, uri }) => {
        if (id === serverId && this.subscribed.has(uri))
          void this.server.sendResourceUpdated({ uri }).catch(() => undefined);
      }),
      // The server's log lines reach every client of it (a window sharing its process, VS Code's
      // agents, whose editor shows them in the server's output), above the level each one set.
      host.onDidLogMessage(({ serverId: id, ...message }) => {
        if (id === serverId)
          void this.server.sendLoggingMessage(message, this.server.transport?.sessionId).catch(() => undefined);
      }),
    );
  }

  private handleRequests(): void {
    const { host, serverId, server } = this;
    server.setRequestHandler('tools/list', async (_request, ctx) => ({
      tools: offeredTools(await knownLists(host, serverId, ctx.mcpReq.signal), this.offers),
    }));
    server.setRequestHandler('tools/call', (request, ctx) =>
      this.during(ctx.mcpReq.id, async () => {
        const { name, arguments: args } = request.params;
        const running = await runningServer(host, serverId, ctx.mcpReq.signal);
        if (!running.tools.some((t) => t.name === name))
          throw new Error(`MCP server "${serverId}" has no tool "${name}".`);
        // VS Code's agent UI confirmed the call; MCP Host's own refusals still hold.
        if (!this.offers.offered(serverId, name)) {
          throw new Error(
            `The tool "${name}" of MCP server "${serverId}" is switched off in MCP Host's Servers view; switch it on there to let agents call it.`,
          );
        }
        // Another window keeps its own timeout and follows the task its call starts: the task
        // stays the placeholder MCP Host's transport made of its handle (see TaskResultLift), a
        // tool result in either era, which that window's host follows as its own.
        const from: CallFrom = this.servesWindows && this.clientFollowsTasks() ? 'another-window' : 'this-window';
        const result: CallToolResult = await host.callTool(
          serverId,
          name,
          args,
          ctx.mcpReq.signal,
          progressTo(ctx),
          from,
        );
        return result;
      }),
    );
    server.setRequestHandler('prompts/list', async (_request, ctx) => ({
      prompts: [...(await knownLists(host, serverId, ctx.mcpReq.signal)).prompts],
    }));
    server.setRequestHandler('prompts/get', (request, ctx) =>
      this.during(ctx.mcpReq.id, () =>
        host.getPrompt(serverId, request.params.name, request.params.arguments, ctx.mcpReq.signal),
      ),
    );
    // Resources are not kept from a last run: a server that offered some starts to list them.
    server.setRequestHandler('resources/list', async (_request, ctx) => {
      if (!(await this.mayHaveResources(ctx.mcpReq.signal))) return { resources: [] };
      return { resources: [...(await host.freshResources(serverId))] };
    });
    server.setRequestHandler('resources/templates/list', async (_request, ctx) => {
      if (!(await this.mayHaveResources(ctx.mcpReq.signal))) return { resourceTemplates: [] };
      return { resourceTemplates: [...host.server(serverId)!.resourceTemplates] };
    });
    server.setRequestHandler('resources/read', (request, ctx) =>
      host.readResource(serverId, request.params.uri, ctx.mcpReq.signal),
    );
    // The host's watches are one set shared with MCP Host's own views (an open resource), so an
    // unsubscribe only stops this session listening: the host keeps watching (within this bound).
    server.setRequestHandler('resources/subscribe', async (request) => {
      if (this.subscribed.size >= MAX_SUBSCRIPTIONS)
        throw new Error(
          `A gateway session of MCP server "${serverId}" may watch at most ${MAX_SUBSCRIPTIONS} resources.`,
        );
      await host.subscribeResource(serverId, request.params.uri);
      this.subscribed.add(request.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      this.subscribed.delete(request.params.uri);
      return {};
    });
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const { _meta: _ignored, ...params } = request.params;
      const values = await host.complete(serverId, params, ctx.mcpReq.signal);
      return { completion: { values: values.slice(0, 100), hasMore: values.length > 100 } };
    });
  }

  /**
   * An extension's own requests, passed to the server as they are: the client (a window sharing
   * the process) lists and verifies the skills itself, reading their files with `resources/read`
   * like any resource, and follows its tasks itself. They are the client's requests under way: what
   * the server asks meanwhile (a 2025-11-25 task's elicitation, sent during `tasks/result`) is
   * asked of this client.
   */
  private passRequests(methods: readonly string[]): void {
    for (const method of methods)
      this.server.setRequestHandler(method, { params: passThrough }, (params, ctx) =>
        this.during(
          ctx.mcpReq.id,
          async () =>
            (await this.host.passExtensionRequest(
              this.serverId,
              method,
              withRetryFields(params, ctx),
              ctx.mcpReq.signal,
            )) as Record<string, unknown>,
        ),
      );
  }

  /** Whether the client declared the Tasks extension (it takes a task handle for a call, and follows it). */
  private clientFollowsTasks(): boolean {
    const extensions = (this.server.getClientCapabilities() as { extensions?: Record<string, unknown> } | undefined)
      ?.extensions;
    return extensions?.[TASKS_EXTENSION] !== undefined;
  }

  /**
   * Serves the client on `transport`. For a window sharing a 2025-11-25 server's process, a
   * task-augmented `tools/call` is answered below the server library (whose `tools/call` results
   * may only be tool results) with the server's own answer, the task it created: the window
   * follows it in its own Tasks view, through the task requests passed on.
   */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    if (!this.servesWindows || !this.host.server(this.serverId)?.taskCalls) return;
    const served = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { id?: RequestId; method?: string; params?: { task?: unknown } };
      if (m.method !== 'tools/call' || m.id === undefined || m.params?.task === undefined)
        return served?.(message, extra);
      const answer = (reply: Record<string, unknown>) =>
        void transport.send({ jsonrpc: '2.0', id: m.id!, ...reply } as JSONRPCMessage).catch(() => undefined);
      this.host.passExtensionRequest(this.serverId, 'tools/call', m.params).then(
        (result) => answer({ result }),
        (error: Error) => answer({ error: { code: -32603, message: error.message } }),
      );
    };
  }

  /** How many of the client's calls and prompts are under way. */
  get requestsUnderWay(): number {
    return this.working.size;
  }

  /**
   * Asks the client what the server asks (sampling, elicitation) during the client's request under
   * way, on that request's stream; undefined when the client did not declare it can answer.
   */
  askClient(method: string): ((params: unknown, signal: AbortSignal) => Promise<unknown>) | undefined {
    const capabilities = this.server.getClientCapabilities();
    const relatedRequestId = this.working.values().next().value;
    if (method === 'sampling/createMessage' && capabilities?.sampling)
      return (params, signal) => this.server.createMessage(params as never, { signal, relatedRequestId });
    if (method === 'elicitation/create' && capabilities?.elicitation)
      return (params, signal) => this.server.elicitInput(params as never, { signal, relatedRequestId });
    return undefined;
  }

  private async during<T>(id: RequestId, work: () => Promise<T>): Promise<T> {
    this.working.add(id);
    try {
      return await work();
    } finally {
      this.working.delete(id);
    }
  }

  /** Whether the server offers resources: a running one is asked; one that starts when needed starts if its last run offered some (or it has none). */
  private async mayHaveResources(signal: AbortSignal): Promise<boolean> {
    const server = this.host.server(this.serverId);
    if (server && server.status !== 'running' && server.fromLastRun && !server.resourcesInLastRun) return false;
    await runningServer(this.host, this.serverId, signal);
    return true;
  }

  /** Tells the client which of its lists changed since it was last told (after a start, a restart, a checkbox). */
  private announceChanges(offersChanged = false): void {
    const server = this.host.server(this.serverId);
    // A server starting has no lists yet: what the client has stays true until it runs.
    if (server && !listsKnown(server)) return;
    // Most changes (a status, a log level) keep the lists themselves: nothing to compare then.
    const refs = server && [server.tools, server.prompts, server.resources, server.resourceTemplates];
    if (!offersChanged && refs && this.seen && refs.every((list, i) => list === this.seen![i])) return;
    this.seen = refs;
    const now = listsOf(server, this.offers);
    const before = this.announced;
    this.announced = now;
    const sent = (send: () => Promise<void>) => void send().catch(() => undefined);
    if (now.tools !== before.tools) sent(() => this.server.sendToolListChanged());
    if (now.prompts !== before.prompts) sent(() => this.server.sendPromptListChanged());
    if (now.resources !== before.resources) sent(() => this.server.sendResourceListChanged());
  }

  dispose(): void {
    for (const listener of this.listeners.splice(0)) listener.dispose();
    this.subscribed.clear();
    void this.server.close().catch(() => undefined);
  }
}

/**
 * The params as the client sent them: the library takes `requestState` and `inputResponses` out
 * of a request's params (they belong to 2026-07-28's multi-round-trip requests, and to a task's
 * `tasks/get` and `tasks/update`), and a request passed on must carry them again.
 */
function withRetryFields(params: unknown, ctx: ServerContext): Record<string, unknown> {
  const requestState = ctx.mcpReq.requestState<string | undefined>();
  const { inputResponses } = ctx.mcpReq;
  return {
    ...(params as Record<string, unknown>),
    ...(requestState !== undefined ? { requestState } : {}),
    ...(inputResponses !== undefined ? { inputResponses } : {}),
  };
}

/** Passes the server's progress on to the client, when the client asked for it (a progress token). */
function progressTo(ctx: ServerContext): ((progress: Progress) => void) | undefined {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress) =>
    void ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { ...progress, progressToken } })
      .catch(() => undefined);
}
