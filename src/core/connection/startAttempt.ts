// One start of a server, from the place its process runs to the first lists, told in one piece
// that ends in an outcome. The connection keeps the state and applies the outcome; nothing here
// sets it.
import type { ResolvedServerDefinition } from '../config/serverDefinition';
import { spawnsProcess, TRANSPORTS } from '../config/transportKinds';
import { authorizationOutcome } from '../auth/authorizationFailure';
import type { ShareTarget } from './connectionShare';
import type { ServerLog } from './serverLog';
import { closeThenEnd, processTreeOf, settleExit } from './serverProcessEnd';
import type { OpenedSession, SessionOpenerDeps } from './sessionOpener';
import { clientLibrary } from '../lazyLibraries';
import {
  describeStartFailure,
  givenHeaders,
  startFailureCause,
  unexpandedWarning,
  type StartFailureContext,
} from './startFailure';
import type { CreatedTransport } from './transportFactory';

/** How a start ended. */
export type StartOutcome =
  /** The session is open and its lists are in: the server runs. */
  | { readonly kind: 'running'; readonly session: OpenedSession; readonly place: ShareTarget }
  /** The server wants a sign-in, or refused the credentials it was given (`error`). */
  | { readonly kind: 'refused'; readonly status: 'needs-sign-in' | 'error'; readonly reason: string }
  /** It did not start: why, as the user reads it (the restart policy decides whether it tries again). */
  | {
      readonly kind: 'failed';
      readonly why: string;
      /** Its cause in a few words, for its row, when one is known (see {@link startFailureCause}). */
      readonly cause?: string;
    }
  /** A stop or a newer start overtook it: what it started has ended, and the state is theirs. */
  | { readonly kind: 'overtaken' };

const OVERTAKEN: StartOutcome = { kind: 'overtaken' };

/** The session's modules (transports, the protocol eras' probing) load when a first server starts, not with the extension. */
function sessionModules(): typeof import('./sessionOpener') {
  // They import the client library: load it first, so that the host log's time for it is its own.
  clientLibrary();
  return require('./sessionOpener') as typeof import('./sessionOpener');
}

/** What a start needs of its connection. */
export interface StartAttempt {
  readonly definition: ResolvedServerDefinition;
  /** The command line or URL as shown to the user. */
  readonly target: string;
  readonly log: ServerLog;
  /** Whether the host signs in to servers (a 401 then means "needs sign-in"). */
  readonly signsIn: boolean;
  /** Whether this start is still the connection's latest. */
  current(): boolean;
  /** Where the process runs: this window's own, or another window's (`"share": "machine"`). */
  place(): Promise<ShareTarget>;
  /** Lets go of a place a stop overtook. */
  leave(place: ShareTarget): void;
  /** What a session at `place` is opened with; `onCreated` hears of the transport as soon as there is one. */
  recipe(place: ShareTarget, onCreated: (created: CreatedTransport) => void): SessionOpenerDeps;
  /** Aborts the opening (a stop). */
  readonly signal: AbortSignal;
  /** The connection takes the session and fetches its lists (so "running" never shows with empty counts). */
  adopt(session: OpenedSession): Promise<void>;
  /** The start failed: the connection forgets the transport and the place it was given. */
  abandon(): void;
  /** The server's last stderr lines, for the reason. */
  stderrLines(): readonly string[];
}

/** Runs one start to its outcome, writing the story of it to the server's log. */
export async function attemptStart(start: StartAttempt): Promise<StartOutcome> {
  const { definition, log } = start;
  log.info(
    spawnsProcess(definition.transport)
      ? `Starting: ${start.target}${definition.cwd ? ` (in ${definition.cwd})` : ''}`
      : `Connecting to ${start.target} (${TRANSPORTS[definition.transport].label})`,
  );
  const unexpanded = unexpandedWarning(definition);
  if (unexpanded) log.warn(unexpanded);
  // What this start created, so that one a stop overtook ends it (children included).
  let started: CreatedTransport | undefined;
  const overtaken = async (closing?: Promise<unknown>): Promise<StartOutcome> => {
    await closeThenEnd(
      closing?.catch(() => undefined),
      await processTreeOf(started, true),
    );
    return OVERTAKEN;
  };
  try {
    const place = await start.place();
    if (!start.current()) {
      start.leave(place);
      return OVERTAKEN;
    }
    const recipe = start.recipe(place, (created) => (started = created));
    const session = await sessionModules().openSession(place.definition, place.hash, recipe, start.signal);
    if (!start.current()) {
      start.leave(place);
      return await overtaken(session.client.close());
    }
    const client = session.client;
    const version = client.getServerVersion();
    const pid = session.created.stdio?.pid;
    log.info(
      `Connected: ${version?.name ?? 'unnamed server'} ${version?.version ?? ''}, protocol ${client.getNegotiatedProtocolVersion()} (${client.getProtocolEra()} era) over ${session.created.kind}${pid ? `, pid ${pid}` : ''}.`,
    );
    await start.adopt(session);
    // A stop meanwhile closed the adopted session itself.
    return start.current() ? { kind: 'running', session, place } : OVERTAKEN;
  } catch (error) {
    if (!start.current()) return await overtaken();
    start.abandon();
    const auth = start.signsIn ? await authorizationOutcome(error, start.target) : undefined;
    if (!start.current()) return OVERTAKEN;
    if (auth) {
      log[auth.status === 'error' ? 'error' : 'warn'](`The server asks for authorization: ${auth.reason}.`);
      return { kind: 'refused', status: auth.status, reason: auth.reason };
    }
    // The exit and the last stderr lines may still be on their way when the handshake fails.
    if (started?.child) await settleExit(started.child.exited);
    const stderrTail = start.stderrLines();
    const tried: StartFailureContext = {
      kind: started?.kind ?? definition.transport,
      url: spawnsProcess(definition.transport) ? undefined : start.target,
      exit: started?.child?.exit,
      stderrTail,
      startTimeoutMs: definition.startTimeoutMs,
      headers: givenHeaders(definition),
      ...(definition.command === undefined ? {} : { command: { command: definition.command, args: definition.args } }),
    };
    const why = describeStartFailure(error, tried);
    log.error(`Failed to start: ${why}`);
    const raw = error instanceof Error ? error.message : String(error);
    if (!why.includes(raw)) log.info(`(as the client library reported it: ${raw})`);
    const cause = startFailureCause(error, tried);
    return { kind: 'failed', why, ...(cause === undefined ? {} : { cause }) };
  }
}
