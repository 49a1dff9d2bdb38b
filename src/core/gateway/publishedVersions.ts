import type { ServerSnapshot } from '../connection/serverSnapshot';
import { listsHash } from './gatewayHost';

/** The version of a server whose lists no run has shown yet. */
export const NOT_STARTED = 'not-started';

interface Handed {
  version: string;
  /** The hash of the lists VS Code has (from the cache under `version`, or live on its session). */
  seen?: string;
  /** The lists last hashed (by identity), and their hash. */
  tools?: unknown;
  prompts?: unknown;
  hash?: string;
}

/**
 * The `version` of each published server, which VS Code keys its cache of the server's tools by.
 * VS Code stops its connection to a server whenever that version changes (and with it every call
 * in flight), so a version changes only when VS Code must fetch the lists again and has no other
 * way to learn it: when what the server offers ({@link listsHash}) changed while VS Code had no
 * session with it.
 * - A server that merely starts (its lists unknown meanwhile) keeps the version it had.
 * - While VS Code has a session open, the session hears `list_changed` and VS Code fetches the
 *   lists on it and caches them under the version it connected with: the version stays, and what
 *   VS Code has is what the server offers. So a first call that starts a server is not cut off,
 *   and a session's end changes nothing.
 * - The user's switches do not enter it: they reach VS Code as `list_changed`. (A version that
 *   went back to an earlier value after a switch was flipped twice made VS Code take its cached
 *   list, fetched in between, as current: the tool switched back on never returned.)
 */
export class PublishedVersions {
  private readonly handedOut = new Map<string, Handed>();

  /** The version to hand out for `server`; `connected`: VS Code has a session with it open (or opening). */
  versionOf(server: ServerSnapshot, connected: boolean): string {
    let handed = this.handedOut.get(server.id);
    const hash = this.hashOf(server, handed);
    if (!handed) {
      handed = { version: hash ?? NOT_STARTED, seen: hash };
      this.handedOut.set(server.id, handed);
    }
    this.keepHash(handed, server, hash);
    if (hash === undefined) return handed.version;
    if (connected) handed.seen = hash;
    else if (hash !== handed.seen) {
      handed.version = hash;
      handed.seen = hash;
    }
    return handed.version;
  }

  /** Forgets the servers no longer published. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.handedOut.keys()) if (!ids.has(id)) this.handedOut.delete(id);
  }

  /** The server's lists hashed, again only when they changed (by identity): every change of any server asks. */
  private hashOf(server: ServerSnapshot, handed: Handed | undefined): string | undefined {
    if (handed && handed.tools === server.tools && handed.prompts === server.prompts) return handed.hash;
    return listsHash(server);
  }

  private keepHash(handed: Handed, server: ServerSnapshot, hash: string | undefined): void {
    handed.tools = server.tools;
    handed.prompts = server.prompts;
    handed.hash = hash;
  }
}
