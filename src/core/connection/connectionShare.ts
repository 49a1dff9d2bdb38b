import type { ResolvedServerDefinition } from '../config/serverDefinition';
import type { Disposable } from '../events';
import {
  guestDefinition,
  shareKey,
  shareState,
  type GuestClaim,
  type ServerRequestAnswer,
  type ShareClaim,
  type ShareEnd,
  type ShareState,
} from './machineShare';
import type { ServerConnectionDeps } from './serverConnectionDeps';

/** What a start connects to: the server itself, or (a guest) the window that runs it. */
export interface ShareTarget {
  readonly definition: ResolvedServerDefinition;
  /** What era pins key on: a guest's endpoint is not the server's own. */
  readonly hash: string;
  readonly guest?: GuestClaim;
  /** What this start claimed, to let go of if a stop overtakes it. */
  readonly claim?: ShareClaim;
}

/**
 * One server's part in sharing its process between windows (`"share": "machine"`): claimed at each
 * start (this window runs it, or reaches the window that does), let go at each end. Servers that
 * do not ask, and hosts that cannot share, run in their window as always.
 */
export class ConnectionShare implements Disposable {
  private claim?: ShareClaim;
  /** Why a server that asks to be shared is not. */
  private alone?: string;
  private listening?: Disposable;
  /** The next release stops the process for every window. */
  private forAll = false;

  constructor(
    private readonly definition: ResolvedServerDefinition,
    private readonly hash: string,
    private readonly deps: Pick<ServerConnectionDeps, 'share' | 'roots' | 'log'>,
    private readonly changed: () => void,
    /** Another window asked to stop the process for all. */
    private readonly stopAsked: () => void,
  ) {}

  get state(): ShareState | undefined {
    return shareState(this.claim, this.alone);
  }

  get guest(): GuestClaim | undefined {
    return this.claim?.role === 'guest' ? this.claim : undefined;
  }

  /**
   * Before a start: runs the process here, or finds the window that runs it. A window that cannot
   * share (no private folder for the socket) runs its own, and its row says why.
   */
  async take(): Promise<ShareTarget> {
    this.release(); // a start overtaken before it connected may still hold one
    const own = { definition: this.definition, hash: this.hash };
    if (this.definition.share !== 'machine') return own;
    const share = this.deps.share;
    if (!share || this.definition.dev) {
      this.alone = share
        ? 'not shared while dev mode restarts it on file changes'
        : 'not shared: this host runs every server in its window';
      return own;
    }
    let claim: ShareClaim;
    try {
      claim = await share.claim(this.definition.id, shareKey(this.definition), this.deps.roots(), this.stopAsked);
    } catch (error) {
      this.alone = `not shared: ${(error as Error).message}`;
      this.deps.log.warn(
        `Not shared with other windows (${(error as Error).message}); this window runs its own process.`,
      );
      return own;
    }
    this.claim = claim;
    this.alone = undefined;
    this.listening = claim.onDidChange(() => this.changed());
    if (claim.role === 'owner') {
      this.deps.log.info("Shared with this user's other windows: this window runs it and serves them.");
      return { ...own, claim };
    }
    this.deps.log.info(
      `Shared with this user's other windows: another window runs it${claim.pid ? ` (pid ${claim.pid})` : ''}; this window connects to it.`,
    );
    return { definition: guestDefinition(this.definition, claim), hash: `${this.hash}:guest`, guest: claim, claim };
  }

  /** The process runs: the other windows may see it. */
  running(pid: number | undefined): void {
    if (this.claim?.role === 'owner') this.claim.running(pid);
  }

  /** Who answers the server's `method` request: another window (see `OwnerClaim.askerFor`), or undefined for this one. */
  askerFor(method: string, requestsUnderWay: number): ServerRequestAnswer | undefined {
    return this.claim?.role === 'owner' ? this.claim.askerFor(method, requestsUnderWay) : undefined;
  }

  rootsAsked(): void {
    if (this.claim?.role === 'owner') this.claim.rootsAsked();
  }

  /** The next {@link release} stops the process for every window that shares it. */
  stopForAll(): void {
    this.forAll = true;
  }

  /** Asks the window that runs it to stop it for all (a guest); false when this window runs it. */
  async askStopForAll(): Promise<boolean> {
    const guest = this.guest;
    if (!guest) return false;
    try {
      await guest.stopForAll();
    } catch (error) {
      this.deps.log.warn(`Could not stop it in the window that runs it: ${(error as Error).message}.`);
    }
    return true;
  }

  /** Lets go of what a start claimed, unless a later start holds something else since. */
  releaseIfHeld(claim: ShareClaim | undefined): void {
    if (claim && claim === this.claim) this.release();
  }

  /** The session ended (a stop, a crash, a failed start): the others take over, or stop too. */
  release(): void {
    const claim = this.claim;
    const forAll = this.forAll;
    this.claim = undefined;
    this.forAll = false;
    this.listening?.dispose();
    this.listening = undefined;
    if (claim?.role === 'owner') claim.release(forAll);
    else claim?.release();
  }

  dispose(): void {
    this.release();
  }
}

/** What a guest's row and requests in flight are told when the window that ran it lets go. */
export function shareEndReason(why: Exclude<ShareEnd, 'stopped-for-all'>): string {
  return why === 'asks-roots'
    ? 'the server asks for roots, and the window that runs it has other folders; this window starts its own'
    : 'the window that ran it closed or stopped it; this window takes over';
}
