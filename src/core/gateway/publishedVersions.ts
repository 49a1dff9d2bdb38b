import type { ServerSnapshot } from '../connection/serverSnapshot';
import { listsHash } from './gatewayHost';

/** The version of a server whose lists no run has shown yet. */
export const NOT_STARTED = 'not-started';

/**
 * The `version` of each published server, which VS Code keys its cache of the server's tools by.
 * VS Code stops its connection to a server whenever that version changes (and with it every call
 * in flight), so a version changes only when VS Code must fetch the lists again and has no other
 * way to learn it:
 * - it is the hash of what the server offers ({@link listsHash}), not of its status: a server that
 *   merely starts (its lists unknown meanwhile) keeps the version it had;
 * - while VS Code has a session open with the server it keeps the version it connected with: the
 *   session hears `list_changed` and VS Code fetches the lists on it, so a first call that starts
 *   a server whose tools differ from its last run's is not cut off;
 * - the user's switches do not enter it: they reach VS Code as `list_changed`. (A version that
 *   went back to an earlier value after a switch was flipped twice made VS Code take its cached
 *   list, fetched in between, as current: the tool switched back on never returned.)
 */
export class PublishedVersions {
  private readonly handedOut = new Map<string, { tools: unknown; prompts: unknown; version: string }>();

  /** The version to hand out for `server`; `connected`: VS Code has a session with it open (or opening). */
  versionOf(server: ServerSnapshot, connected: boolean): string {
    const kept = this.handedOut.get(server.id);
    if (kept && (connected || (kept.tools === server.tools && kept.prompts === server.prompts))) return kept.version;
    const version = listsHash(server) ?? kept?.version ?? NOT_STARTED;
    this.handedOut.set(server.id, { tools: server.tools, prompts: server.prompts, version });
    return version;
  }

  /** Forgets the servers no longer published. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.handedOut.keys()) if (!ids.has(id)) this.handedOut.delete(id);
  }
}
