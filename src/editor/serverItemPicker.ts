import type { Prompt, Tool } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { listsKnown, startsForUse, type ServerSnapshot } from '../core/connection/serverSnapshot';
import type { McpHost } from '../core/host/mcpHost';

/** One tool or prompt of one server. */
export interface ServerItemRef {
  readonly serverId: string;
  readonly name: string;
}

/** A command's target: a tool or prompt node of the Servers view, a reference, or nothing (pick). */
export type ServerItemTarget = { server?: { id: string }; name?: string } | ServerItemRef | undefined;

export function refOf(target: ServerItemTarget): ServerItemRef | undefined {
  if (!target) return undefined;
  if ('serverId' in target) return target;
  return target.server && target.name ? { serverId: target.server.id, name: target.name } : undefined;
}

type Kind = 'tools' | 'prompts';

/**
 * Starts the servers that start on demand (all of them, or those of `ids`), with progress; with
 * `unknownOnly` only those whose tools and prompts are not known from their last run (using one
 * of the known ones starts its server then). Servers of `ids` that are on their way are waited
 * for, and one waiting for its turn goes at once.
 */
export async function startWhenNeeded(host: McpHost, options: { readonly signal?: AbortSignal; readonly unknownOnly?: boolean; readonly ids?: readonly string[] } = {}): Promise<void> {
  const { signal, unknownOnly = false, ids } = options;
  const waiting = host.servers().filter((s) => (ids ? ids.includes(s.id) && startsForUse(s) : s.startsWhenNeeded) && !(unknownOnly && s.fromLastRun));
  if (waiting.length === 0) return;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting MCP servers…') }, () =>
    host.startOnDemand(waiting.map((s) => s.id), signal),
  );
}

/** A quick pick over the tools (or prompts) of every running server, and of waiting servers' last runs. */
export async function pickServerItem<K extends Kind>(
  host: McpHost,
  kind: K,
  describe: (server: ServerSnapshot, item: K extends 'tools' ? Tool : Prompt) => vscode.QuickPickItem,
  texts: { readonly none: string; readonly title: string; readonly placeHolder: string },
): Promise<ServerItemRef | undefined> {
  // What a server had in its last run is listed without starting it (its command starts it).
  await startWhenNeeded(host, { unknownOnly: true });
  const running = host.servers().filter((s) => listsKnown(s) && s[kind].length > 0);
  if (running.length === 0) {
    void vscode.window.showInformationMessage(texts.none);
    return undefined;
  }
  const items = running.flatMap((server) =>
    (server[kind] as readonly (Tool | Prompt)[]).map((item) => ({ ...describe(server, item as K extends 'tools' ? Tool : Prompt), ref: { serverId: server.id, name: item.name } })),
  );
  const picked = await vscode.window.showQuickPick(items, { title: texts.title, placeHolder: texts.placeHolder, matchOnDescription: true, matchOnDetail: true });
  return picked?.ref;
}
