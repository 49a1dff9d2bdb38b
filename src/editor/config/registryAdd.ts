import * as vscode from 'vscode';
import type { FetchLike } from '@modelcontextprotocol/client';
import { suggestServerId } from '../../core/config/newServerEntry';
import { HOST_SETTINGS } from '../../core/config/hostSettingKeys';
import { RegistryClient } from '../../core/registry/registryClient';
import { hostSetting } from './hostSettings';
import {
  answerProblem,
  installChoices,
  installFields,
  registryEntry,
  type InstallChoice,
  type InstallField,
} from '../../core/registry/registryInstall';
import type { RegistryServer } from '../../core/registry/registryServer';
import { askServerId, writeNewServer } from './newServerWriter';
import type { SecretInputs } from './secretInputs';
import type { RegistryOrigins } from '../../core/registry/registryOrigins';

/** Typing waits this long for the next key before it searches. */
const SEARCH_DELAY_MS = 250;

export interface RegistryAddDeps {
  readonly fetch: FetchLike;
  readonly secrets: Pick<SecretInputs, 'store'>;
  /** Where the entries it writes are recorded as the registry's (`chat.mcp.access: "registry"`). */
  readonly origins?: Pick<RegistryOrigins, 'remember'>;
}

type ServerItem = vscode.QuickPickItem & {
  readonly server?: RegistryServer;
  readonly more?: string;
  readonly retry?: true;
};

/**
 * "Search the MCP Registry" in Add Server: search the registry of `mcpHost.registry.url` by
 * name (page after page), pick a version, a package or remote, fill in what it declares
 * (required ones marked, secrets masked and kept in the secret storage) and write the entry.
 */
export async function addFromRegistry(deps: RegistryAddDeps): Promise<void> {
  const title = vscode.l10n.t('MCP Host: Add Server from the MCP Registry');
  let client: RegistryClient;
  try {
    client = new RegistryClient(hostSetting('registryUrl'), deps.fetch);
  } catch (error) {
    void showRegistryError((error as Error).message);
    return;
  }
  const picked = await searchServers(client, title);
  if (!picked) return;

  let versions: readonly RegistryServer[];
  try {
    versions = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the versions of {0}…', picked.name) },
      () => client.versions(picked.name),
    );
  } catch (error) {
    void showRegistryError((error as Error).message);
    return;
  }
  const server = versions.length <= 1 ? (versions[0] ?? picked) : await pickVersion(title, versions);
  if (!server) return;

  const choice = await pickChoice(title, server);
  if (!choice) return;
  const answers = await askFields(server, installFields(choice));
  if (!answers) return;
  const id = await askServerId(title, (taken) =>
    suggestServerId('npm', server.name.split('/').pop()!.toLowerCase(), taken),
  );
  if (id === undefined) return;
  let made: ReturnType<typeof registryEntry>;
  try {
    made = registryEntry(id, choice, answers);
  } catch (error) {
    void vscode.window.showErrorMessage((error as Error).message);
    return;
  }
  // Recorded first: the settings apply as soon as the entry is written, and under "registry" it runs for being the registry's.
  await deps.origins?.remember(id, made.entry, {
    registry: client.baseUrl,
    name: server.name,
    version: server.version,
  });
  await writeNewServer(title, id, made.entry, { values: made.secrets, store: deps.secrets });
}

/** A quick pick that searches as the user types, with a "Load more" item while there are more pages. */
function searchServers(client: RegistryClient, title: string): Promise<RegistryServer | undefined> {
  const pick = vscode.window.createQuickPick<ServerItem>();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Search {0} by server name', client.baseUrl);
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown: ServerItem[] = [];

  const load = async (query: string, cursor?: string) => {
    controller?.abort();
    const mine = (controller = new AbortController());
    pick.busy = true;
    try {
      const page = await client.search(query, cursor, mine.signal);
      if (mine.signal.aborted) return;
      const items = page.servers.map(serverItem);
      shown = [...(cursor ? shown.filter((i) => !i.more) : []), ...items];
      if (page.nextCursor)
        shown.push({ label: `$(ellipsis) ${vscode.l10n.t('Load more…')}`, alwaysShow: true, more: page.nextCursor });
      if (shown.length === 0)
        shown = [
          { label: vscode.l10n.t('No server in {0} has "{1}" in its name.', client.baseUrl, query), alwaysShow: true },
        ];
      pick.items = shown;
    } catch (error) {
      if (mine.signal.aborted) return;
      pick.items = [
        {
          label: `$(error) ${vscode.l10n.t('The registry could not be searched')}`,
          detail: (error as Error).message,
          alwaysShow: true,
          retry: true,
        },
      ];
    } finally {
      if (controller === mine) pick.busy = false;
    }
  };

  return new Promise((resolve) => {
    let query = '';
    pick.onDidChangeValue((value) => {
      query = value;
      clearTimeout(timer);
      timer = setTimeout(() => void load(value), SEARCH_DELAY_MS);
    });
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (!item) return;
      if (item.more) return void load(query, item.more);
      if (item.retry) return void load(query);
      if (!item.server) return;
      resolve(item.server);
      pick.hide();
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      controller?.abort();
      pick.dispose();
      resolve(undefined);
    });
    pick.show();
    void load('');
  });
}

function serverItem(server: RegistryServer): ServerItem {
  const deprecated =
    server.status === 'deprecated'
      ? ` · $(warning) ${vscode.l10n.t('deprecated')}${server.statusMessage ? `: ${server.statusMessage}` : ''}`
      : '';
  const ways = [
    ...new Set([...server.packages.map((p) => p.registryType), ...(server.remotes.length ? ['remote'] : [])]),
  ].join(', ');
  const what = `${ways || vscode.l10n.t('nothing to run')} — ${server.description}`;
  return {
    label: server.title ?? server.name,
    description: `${server.version}${deprecated}`,
    detail: server.title ? `${server.name} · ${what}` : what,
    server,
  };
}

async function pickVersion(title: string, versions: readonly RegistryServer[]): Promise<RegistryServer | undefined> {
  const items = versions.map((v) => ({
    label: v.version,
    description: [
      v.isLatest ? vscode.l10n.t('latest') : '',
      v.status === 'deprecated' ? vscode.l10n.t('deprecated') : '',
      v.publishedAt ? v.publishedAt.slice(0, 10) : '',
    ]
      .filter(Boolean)
      .join(' · '),
    detail: v.statusMessage,
    version: v,
  }));
  return (
    await vscode.window.showQuickPick(items, {
      title,
      placeHolder: vscode.l10n.t('Which version of {0}?', versions[0].name),
    })
  )?.version;
}

/** The package or remote to use: asked when there are several; one that cannot run says why. */
async function pickChoice(title: string, server: RegistryServer): Promise<InstallChoice | undefined> {
  const choices = installChoices(server);
  if (choices.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('{0} {1} lists no package and no remote to run.', server.name, server.version),
    );
    return undefined;
  }
  const choice =
    choices.length === 1
      ? choices[0]
      : (
          await vscode.window.showQuickPick(
            choices.map((c) => ({
              label: c.label,
              description: c.unsupported ? `$(circle-slash) ${vscode.l10n.t('cannot be added')}` : c.detail,
              detail: c.unsupported,
              choice: c,
            })),
            { title, placeHolder: vscode.l10n.t('How should {0} run?', server.title ?? server.name) },
          )
        )?.choice;
  if (choice?.unsupported) {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} cannot be added: {1}.', choice.label, choice.unsupported));
    return undefined;
  }
  return choice;
}

/** One box per field (a list for choices and true/false); undefined when the user cancels. */
async function askFields(
  server: RegistryServer,
  fields: readonly InstallField[],
): Promise<Record<string, string> | undefined> {
  const answers: Record<string, string> = {};
  const folder = vscode.workspace.workspaceFolders?.[0];
  for (const [i, field] of fields.entries()) {
    const title = `${server.title ?? server.name} (${i + 1}/${fields.length})`;
    const need = field.required ? vscode.l10n.t('required') : vscode.l10n.t('optional');
    const prompt = `${field.label} · ${whereLabel(field.where)} · ${need}${field.secret ? ` · ${vscode.l10n.t('secret: kept in the secret storage, not in settings')}` : ''}${field.description ? ` — ${field.description}` : ''}`;
    if (field.choices || field.format === 'boolean') {
      const options = field.choices ?? ['true', 'false'];
      const items = [
        ...options.map((o) => ({ label: o, description: o === field.default ? vscode.l10n.t('default') : undefined })),
        ...(field.required ? [] : [{ label: vscode.l10n.t('(leave out)'), value: '' }]),
      ];
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder: prompt, ignoreFocusOut: true });
      if (!picked) return undefined;
      answers[field.key] = 'value' in picked ? picked.value : picked.label;
      continue;
    }
    // A required path is most often this workspace.
    const suggested =
      field.default ?? (field.format === 'filepath' && field.required && folder ? '${workspaceFolder}' : '');
    const value = await vscode.window.showInputBox({
      title,
      prompt,
      value: field.secret ? undefined : suggested,
      placeHolder:
        field.placeholder ?? (field.repeated ? vscode.l10n.t('one or more, separated by spaces') : undefined),
      password: field.secret,
      ignoreFocusOut: true,
      validateInput: (text) => answerProblem(field, text),
    });
    if (value === undefined) return undefined;
    answers[field.key] = value;
  }
  return answers;
}

function whereLabel(where: InstallField['where']): string {
  switch (where) {
    case 'argument':
      return vscode.l10n.t('argument');
    case 'environment variable':
      return vscode.l10n.t('environment variable');
    case 'header':
      return vscode.l10n.t('header');
    case 'URL variable':
      return vscode.l10n.t('part of the URL');
  }
}

async function showRegistryError(message: string): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  if ((await vscode.window.showErrorMessage(message, open)) === open)
    await vscode.commands.executeCommand('workbench.action.openSettings', HOST_SETTINGS.registryUrl.key);
}
