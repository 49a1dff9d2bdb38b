import type { FetchLike } from '@modelcontextprotocol/client';
import { definitionHash } from '../config/definitionHash';
import type { ResolvedRoot, ResolvedServerDefinition } from '../config/serverDefinition';
import type { Event } from '../events';
import type { LineSocket } from './lineSocketTransport';

/** Answers one server-to-client request. */
export type ServerRequestAnswer = (params: unknown, signal: AbortSignal) => Promise<unknown>;

/** Why a window's way to a process another window runs ended. */
export type ShareEnd =
  /** That window stopped serving it (it closed, stopped it for itself, or its server ended). */
  | 'closed'
  /** Someone stopped it for every window. */
  | 'stopped-for-all'
  /** The server asked for roots, and this window's folders differ from that window's. */
  | 'asks-roots';

/** This window runs the shared process and serves the other windows that define the same server. */
export interface OwnerClaim {
  readonly role: 'owner';
  /** Other windows served now. */
  readonly guests: number;
  /** Why windows with other folders are not served, when that is so. */
  readonly note?: string;
  /** Fires when {@link guests} or {@link note} change. */
  readonly onDidChange: Event<void>;
  /** The server process, once it runs: the other windows see it. */
  running(pid: number | undefined): void;
  /** The server asked for roots: windows with other folders must leave. */
  rootsAsked(): void;
  /**
   * Who answers what the server asks (`method`: sampling, elicitation): the other window whose
   * call is the only one under way (this window has `ownRequests` under way besides theirs);
   * undefined when that is not known for sure, and this window answers.
   */
  askerFor(method: string, ownRequests: number): ServerRequestAnswer | undefined;
  /** Stops serving; the other windows take over, or stop too when `forAll`. */
  release(forAll?: boolean): void;
}

/** Another window runs the shared process; this window reaches it through that window. */
export interface GuestClaim {
  readonly role: 'guest';
  /** The Streamable HTTP endpoint and how to reach it (a private socket). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: FetchLike;
  /** The same endpoint as newline-delimited JSON-RPC, used instead when the other window offers it. */
  readonly lines?: LineSocket;
  /** The shared process, when the other window knows it. */
  readonly pid?: number;
  /** Windows besides this one that use the process (the one running it included). */
  readonly otherWindows: number;
  readonly onDidChange: Event<void>;
  /** Settles when the way ends, with why. */
  readonly ended: Promise<ShareEnd>;
  /** Asks the window that runs it to stop it for every window. */
  stopForAll(): Promise<void>;
  release(): void;
}

export type ShareClaim = OwnerClaim | GuestClaim;

/** The machine-wide rendezvous of shared servers (see src/core/share/machineShares.ts). */
export interface MachineShare {
  /**
   * Runs the process in this window (owner) or reaches the window that does (guest). `onStopForAll`:
   * another window asked to stop it for all. Throws, saying why, when this window cannot share.
   */
  claim(serverId: string, key: string, roots: readonly ResolvedRoot[], onStopForAll: () => void): Promise<ShareClaim>;
}

/** What the Servers view says of a server shared between windows. */
export interface ShareState {
  readonly role: 'owner' | 'guest' | 'alone';
  /** Windows besides this one that use the process. */
  readonly otherWindows: number;
  /** The process, when another window runs it. */
  readonly pid?: number;
  /** Why it is not shared (with some windows), when that is so. */
  readonly note?: string;
}

/** The state of a claim, for the view. */
export function shareState(claim: ShareClaim | undefined, alone?: string): ShareState | undefined {
  if (!claim) return alone === undefined ? undefined : { role: 'alone', otherWindows: 0, note: alone };
  return claim.role === 'owner'
    ? { role: 'owner', otherWindows: claim.guests, note: claim.note }
    : { role: 'guest', otherWindows: claim.otherWindows, pid: claim.pid };
}

/**
 * What windows must agree on to share a process: what runs, as resolved (command, arguments,
 * environment, working folder, sandbox). Not the server's name, nor how its requests are treated.
 */
export function shareKey(def: ResolvedServerDefinition): string {
  const { transport, command, args, env, cwd, sandbox } = def;
  return definitionHash({ transport, command, args, env, cwd, sandbox: sandbox ?? null });
}

/** The definition a guest connects with: the owner's endpoint over Streamable HTTP. */
export function guestDefinition(def: ResolvedServerDefinition, guest: GuestClaim): ResolvedServerDefinition {
  return { ...def, transport: 'http', url: guest.url, headers: { ...guest.headers }, oauth: undefined };
}

/** Whether two windows' roots are the same folders. */
export function sameRoots(a: readonly { uri: string }[], b: readonly { uri: string }[]): boolean {
  const uris = (roots: readonly { uri: string }[]) => JSON.stringify(roots.map((r) => r.uri).sort());
  return uris(a) === uris(b);
}
