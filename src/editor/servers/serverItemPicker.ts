import type { Prompt, Tool } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { listsKnown, startsForUse, type ServerSnapshot } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';

type UsedHost = ServerDirectory & Pick<ServerLifecycle, 'startOnDemand'>;

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
export async function startWhenNeeded(
  host: UsedHost,
  options: { readonly signal?: AbortSignal; readonly unknownOnly?: boolean; readonly ids?: readonly string[] } = {},
): Promise<void> {
  const { signal, unknownOnly = false, ids } = options;
  const waiting = host
    .servers()
    .filter(
      (s) => (ids ? ids.includes(s.id) && startsForUse(s) : s.startsWhenNeeded) && !(unknownOnly && s.fromLastRun),
    );
  if (waiting.length === 0) return;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting MCP servers…') },
    () =>
      host.startOnDemand(
        waiting.map((s) => s.id),
        signal,
      ),
  );
}

/** A quick pick over the tools (or prompts) of every running server, and of waiting servers' last runs. */
export async function pickServerItem<K extends Kind>(
  host: UsedHost,
  kind: K,
  describe: (server: ServerSnapshot, item: K extends 'tools' ? Tool : Prompt) => vscode.QuickPickItem,
  texts: {
    readonly none: string;
    readonly noneOffers: (running: number) => string;
    readonly title: string;
    readonly placeHolder: string;
  },
  /** Which items are listed (all of them unless it says otherwise). */
  listed: (item: K extends 'tools' ? Tool : Prompt) => boolean = () => true,
): Promise<ServerItemRef | undefined> {
  // What a server had in its last run is listed without starting it (its command starts it).
  await startWhenNeeded(host, { unknownOnly: true });
  const known = host.servers().filter(listsKnown);
  const itemsOf = (server: ServerSnapshot) =>
    (server[kind] as readonly (K extends 'tools' ? Tool : Prompt)[]).filter(listed);
  const running = known.filter((s) => itemsOf(s).length > 0);
  if (running.length === 0) {
    void vscode.window.showInformationMessage(known.length > 0 ? texts.noneOffers(known.length) : texts.none);
    return undefined;
  }
  const items = running.flatMap((server) =>
    itemsOf(server).map((item) => ({ ...describe(server, item), ref: { serverId: server.id, name: item.name } })),
  );
  return pickPreferringExactName(items, texts);
}

/**
 * A quick pick that ranks as VS Code does, except that a typed name equal to an item's name (what
 * READMEs and models write: "run get-time") puts that item first and active, whatever another
 * title's fuzzy match says ("Get Tiny Image Tool"): Enter runs what was typed.
 */
async function pickPreferringExactName<T extends vscode.QuickPickItem & { readonly ref: ServerItemRef }>(
  items: readonly T[],
  texts: { readonly title: string; readonly placeHolder: string },
): Promise<ServerItemRef | undefined> {
  const quickPick = vscode.window.createQuickPick<T>();
  Object.assign(quickPick, {
    title: texts.title,
    placeholder: texts.placeHolder,
    matchOnDescription: true,
    matchOnDetail: true,
    items,
  });
  let relabelled = false;
  quickPick.onDidChangeValue((value) => {
    const typed = value.trim().toLowerCase();
    const exact = new Set(items.filter((item) => item.ref.name.toLowerCase() === typed));
    if (exact.size === 0 && !relabelled) return;
    // VS Code ranks label matches first: the exact match is labelled by its name while it is typed.
    const shown = items.map((item) =>
      exact.has(item) && item.label !== item.ref.name
        ? { ...item, label: item.ref.name, description: [item.label, item.description].filter(Boolean).join('  ') }
        : item,
    );
    relabelled = exact.size > 0;
    quickPick.items = shown;
    const first = shown.find((item) => item.ref.name.toLowerCase() === typed);
    if (first) quickPick.activeItems = [first];
  });
  try {
    return await new Promise<ServerItemRef | undefined>((resolve) => {
      quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]?.ref ?? quickPick.activeItems[0]?.ref));
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.show();
    });
  } finally {
    quickPick.dispose();
  }
}
