import * as vscode from 'vscode';
import type { FetchLike } from '@modelcontextprotocol/client';
import { newServerEntry, parseNames, RUNNERS, secretNamesProblem, splitCommandLine, suggestServerId, targetProblem, type NewServerKind } from '../core/config/newServerEntry';
import { isServerId } from '../core/config/vscodeMcpJson';
import type { ExecutableResolver } from '../core/connection/executableResolver';
import { probeMcpUrl } from '../core/connection/urlProbe';
import { SERVERS_SETTING } from './serverSettingsReader';
import { addServerEntries } from './serverSettingsWriter';

export interface AddServerDeps {
  readonly resolver: Pick<ExecutableResolver, 'resolve'>;
  readonly fetch: FetchLike;
}

interface KindItem extends vscode.QuickPickItem {
  readonly serverKind: NewServerKind;
}

const KINDS: readonly KindItem[] = [
  { serverKind: 'npm', label: '$(package) npm package', detail: 'A Node.js server from npm, run with npx -y <package>' },
  { serverKind: 'pypi', label: '$(symbol-namespace) Python package', detail: 'A Python server from PyPI, run with uvx <package>' },
  { serverKind: 'docker', label: '$(vm) Docker image', detail: 'A server in a container, run with docker run -i --rm <image>' },
  { serverKind: 'command', label: '$(terminal) Command', detail: 'Any program that speaks MCP on its standard input and output' },
  { serverKind: 'http', label: '$(globe) HTTP URL', detail: 'A remote server (Streamable HTTP or the older HTTP+SSE)' },
];

const TARGET_PROMPTS: Readonly<Record<NewServerKind, { prompt: string; placeHolder: string }>> = {
  npm: { prompt: 'The npm package of the server, optionally with @version.', placeHolder: '@modelcontextprotocol/server-everything' },
  pypi: { prompt: 'The Python package of the server, optionally with ==version.', placeHolder: 'mcp-server-fetch' },
  docker: { prompt: 'The image of the server.', placeHolder: 'mcp/fetch' },
  command: { prompt: 'The command line that starts the server (quotes as in a shell).', placeHolder: 'node /path/to/server.js --stdio' },
  http: { prompt: 'The server\'s MCP endpoint.', placeHolder: 'https://example.com/mcp' },
};

/**
 * "MCP Host: Add Server…": asks what kind of server, what to run or where it is, its secrets by
 * name only, its id and where the entry goes; checks as it goes (the program is on the login
 * shell's PATH, the URL answers like an MCP server) and writes nothing until all is known. The
 * settings file opens on the new entry, and the server starts.
 */
export async function addServer(deps: AddServerDeps): Promise<void> {
  const title = vscode.l10n.t('MCP Host: Add Server');
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const chosen = await vscode.window.showQuickPick(KINDS, { title, placeHolder: vscode.l10n.t('What kind of server?'), matchOnDetail: true });
  if (!chosen) return;
  const kind = chosen.serverKind;
  if (kind !== 'command' && kind !== 'http') {
    const runner = RUNNERS[kind];
    try {
      await deps.resolver.resolve(runner, cwd);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Adding a {0} needs `{1}`: {2}', chosen.label.replace(/^\$\([\w-]+\) /, ''), runner, (error as Error).message));
      return;
    }
  }

  let target = '';
  let secretHint = '';
  for (;;) {
    const entered = await vscode.window.showInputBox({
      title,
      ...TARGET_PROMPTS[kind],
      value: target,
      ignoreFocusOut: true,
      validateInput: (text) => targetProblem(kind, text) ?? (kind === 'command' ? programProblem(deps, text, cwd) : undefined),
    });
    if (entered === undefined) return;
    target = entered.trim();
    if (kind !== 'http') break;
    const probe = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking {0}…', target), cancellable: false },
      () => probeMcpUrl(target, deps.fetch),
    );
    if (probe.ok) {
      secretHint = probe.summary;
      break;
    }
    const change = vscode.l10n.t('Change the URL');
    const anyway = vscode.l10n.t('Add It Anyway');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('This URL does not look like an MCP server: {0}.', probe.summary), { modal: true }, change, anyway);
    if (answer === anyway) break;
    if (answer !== change) return;
  }

  let extraArgs = '';
  if (kind === 'npm' || kind === 'pypi' || kind === 'docker') {
    const entered = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('Arguments for the server after the {0} (optional).', kind === 'docker' ? vscode.l10n.t('image') : vscode.l10n.t('package')),
      placeHolder: '--root ${workspaceFolder}',
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? undefined : typeof splitCommandLine(text) === 'string' ? (splitCommandLine(text) as string) : undefined),
    });
    if (entered === undefined) return;
    extraArgs = entered;
  }

  const secretsText = await vscode.window.showInputBox({
    title,
    prompt:
      kind === 'http'
        ? vscode.l10n.t('A header that carries an API key, if the server wants one (optional; {0}). Its value is asked once when the server starts and kept in the secret storage, never in settings.', secretHint || vscode.l10n.t('servers that sign in with OAuth need none'))
        : vscode.l10n.t('Environment variables that hold secrets, if the server needs any (optional; names separated by spaces). Each value is asked once when the server starts and kept in the secret storage, never in settings.'),
    placeHolder: kind === 'http' ? 'Authorization' : 'GITHUB_TOKEN',
    ignoreFocusOut: true,
    validateInput: (text) => secretNamesProblem(kind, parseNames(text)),
  });
  if (secretsText === undefined) return;

  const taken = new Set(Object.keys(vscode.workspace.getConfiguration().get<Record<string, unknown>>(SERVERS_SETTING, {})));
  const id = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('The server\'s id: its name in the Servers view, in tool names and in settings.'),
    value: suggestServerId(kind, target, taken),
    ignoreFocusOut: true,
    validateInput: (text) =>
      !isServerId(text) ? vscode.l10n.t('Letters, digits, ".", "_" and "-", starting with a letter or digit.') : taken.has(text) ? vscode.l10n.t('MCP server "{0}" is already configured.', text) : undefined,
  });
  if (id === undefined) return;

  const folder = await chooseFolder(title);
  if (folder === null) return;
  const entry = newServerEntry(id, { kind, target, extraArgs, secretNames: parseNames(secretsText) });
  const added = await addServerEntries(folder, { [id]: entry });
  if (added.length === 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" is already configured there; nothing was written.', id));
    return;
  }
  await showEntry(id, folder);
  void vscode.window.showInformationMessage(
    folder
      ? vscode.l10n.t('Added MCP server "{0}" to the settings of {1}. It starts once you allow this workspace\'s server.', id, folder.name)
      : vscode.l10n.t('Added MCP server "{0}" to your user settings. It starts now.', id),
  );
}

/** Opens the settings file that now holds the server, on its entry. */
async function showEntry(id: string, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  let editor: vscode.TextEditor | undefined;
  if (folder) editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'));
  else {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    editor = vscode.window.activeTextEditor;
  }
  if (!editor) return;
  const offset = editor.document.getText().indexOf(JSON.stringify(id) + ':');
  if (offset < 0) return;
  const start = editor.document.positionAt(offset);
  editor.selection = new vscode.Selection(start, start.translate(0, JSON.stringify(id).length));
  editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

async function programProblem(deps: AddServerDeps, text: string, cwd: string | undefined): Promise<string | undefined> {
  const words = splitCommandLine(text);
  if (typeof words === 'string') return words;
  try {
    await deps.resolver.resolve(words[0], cwd);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** User settings (undefined), a workspace folder, or null when the user cancelled. */
async function chooseFolder(title: string): Promise<vscode.WorkspaceFolder | undefined | null> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return undefined;
  const items: (vscode.QuickPickItem & { folder?: vscode.WorkspaceFolder })[] = [
    { label: vscode.l10n.t('User settings'), detail: vscode.l10n.t('In every window; starts without asking') },
    ...folders.map((folder) => ({
      label: folders.length === 1 ? vscode.l10n.t('Workspace settings') : vscode.l10n.t('Folder {0}', folder.name),
      detail: vscode.l10n.t('Only in this workspace, shared with it; starts after you allow the workspace\'s servers'),
      folder,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where should the server be configured?') });
  return picked ? picked.folder : null;
}
