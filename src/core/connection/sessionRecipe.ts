// What one start opens its session with: the place's fetch and sign-in (a guest reaches another
// window's process, which signs in itself), the sandbox, the record of spawns, and a client whose
// handlers answer the server through this connection's lists, waits and share.
import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import { limitsOf, type ResolvedServerDefinition } from '../config/serverDefinition';
import type { StartCause } from '../process/spawnRecord';
import { rootPaths } from '../process/sandboxPolicy';
import type { ConnectionShare, ShareTarget } from './connectionShare';
import { createHostClient } from './hostClient';
import type { ServerConnectionDeps } from './serverConnectionDeps';
import type { ServerLists } from './serverLists';
import type { SessionOpenerDeps } from './sessionOpener';
import type { SessionRequests } from './sessionRequests';
import type { CreatedTransport } from './transportFactory';

/** The connection's parts a session is made with. */
export interface RecipePort {
  readonly definition: ResolvedServerDefinition;
  readonly deps: ServerConnectionDeps;
  readonly lists: ServerLists;
  readonly requests: SessionRequests;
  readonly share: ConnectionShare;
  /** Who asked for the start under way. */
  asker(): StartCause;
  /** Whether the start is still the connection's latest. */
  current(): boolean;
  /** The current session's client. */
  client(): Client | undefined;
  /** The start's transport exists (only while it is the latest): stderr is followed, a stop can reach it. */
  transportCreated(created: CreatedTransport): void;
}

export function sessionRecipe(
  port: RecipePort,
  place: ShareTarget,
  onCreated: (created: CreatedTransport) => void,
): SessionOpenerDeps {
  const { deps, lists, requests, share } = port;
  return {
    resolver: deps.resolver,
    eraPins: deps.eraPins,
    log: deps.log,
    authProvider: place.guest ? undefined : deps.authorization,
    ledger: deps.ledger,
    askedBy: port.asker,
    fetch: place.guest?.fetch ?? deps.fetch,
    lines: place.guest?.lines,
    sandbox: deps.sandbox && { runtime: deps.sandbox, rootPaths: () => rootPaths(deps.roots()) },
    createClient: (options: ClientOptions) =>
      createHostClient(deps, options, {
        serverRequestsPerMinute: limitsOf(port.definition).serverRequestsPerMinute,
        listChanged: lists.changeHandlers(port.client, port.current),
        whileHostWaits: (work) => requests.hostWaits.during(work),
        onRootsAsked: () => share.rootsAsked(),
        askerFor: (method) => share.askerFor(method, requests.underWay),
      }),
    onTransport: (created: CreatedTransport) => {
      onCreated(created);
      if (port.current()) port.transportCreated(created);
    },
    onIncoming: (message: unknown) => lists.observeIncoming(message),
  };
}
