import * as vscode from 'vscode';
import {
  newServerEntry,
  parseNames,
  RUNNERS,
  secretNamesProblem,
  splitCommandLine,
  suggestServerId,
  targetProblem,
  type NewServerKind,
} from '../../core/config/newServerEntry';
import type { ExecutableResolver } from '../../core/process/executableResolver';
import { probeMcpUrl } from '../../core/connection/urlProbe';
import { askServerId, writeNewServer } from './newServerWriter';
import { addFromRegistry, type RegistryAddDeps } from './registryAdd';

export interface AddServerDeps extends RegistryAddDeps {
  readonly resolver: Pick<ExecutableResolver, 'resolve'>;
}

interface KindItem extends vscode.QuickPickItem {
  readonly serverKind: NewServerKind | 'registry';
}

const KINDS: readonly KindItem[] = [
  {
    serverKind: 'registry',
    label: '$(search) Search the MCP Registry',
    detail: 'Find a server by name, pick its version, fill in what it needs',
  },
  {
    serverKind: 'npm',
    label: '$(package) npm package',
    detail: 'A Node.js server from npm, run with npx -y <package>',
  },
  {
    serverKind: 'pypi',
    label: '$(symbol-namespace) Python package',
    detail: 'A Python server from PyPI, run with uvx <package>',
  },
  {
    serverKind: 'docker',
    label: '$(vm) Docker image',
    detail: 'A server in a container, run with docker run -i --rm <image>',
  },
  {
    serverKind: 'command',
    label: '$(terminal) Command',
    detail: 'Any program that speaks MCP on its standard input and output',
  },
  { serverKind: 'http', label: '$(globe) HTTP URL', detail: 'A remote server (Streamable HTTP or the older HTTP+SSE)' },
];

const TARGET_PROMPTS: Readonly<Record<NewServerKind, { prompt: string; placeHolder: string }>> = {
  npm: {
    prompt: 'The npm package of the server, optionally with @version.',
    placeHolder: '@modelcontextprotocol/server-everything',
  },
  pypi: { prompt: 'The Python package of the server, optionally with ==version.', placeHolder: 'mcp-server-fetch' },
  docker: { prompt: 'The image of the server.', placeHolder: 'mcp/fetch' },
  command: {
    prompt: 'The command line that starts the server (quotes as in a shell).',
    placeHolder: 'node /path/to/server.js --stdio',
  },
  http: { prompt: "The server's MCP endpoint.", placeHolder: 'https://example.com/mcp' },
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
  const chosen = await vscode.window.showQuickPick(KINDS, {
    title,
    placeHolder: vscode.l10n.t('What kind of server?'),
    matchOnDetail: true,
  });
  if (!chosen) return;
  if (chosen.serverKind === 'registry') return addFromRegistry(deps);
  const kind = chosen.serverKind;
  if (kind !== 'command' && kind !== 'http') {
    const runner = RUNNERS[kind];
    try {
      await deps.resolver.resolve(runner, cwd);
    } catch (error) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'Adding a {0} needs `{1}`: {2}',
          chosen.label.replace(/^\$\([\w-]+\) /, ''),
          runner,
          (error as Error).message,
        ),
      );
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
      validateInput: (text) =>
        targetProblem(kind, text) ?? (kind === 'command' ? programProblem(deps, text, cwd) : undefined),
    });
    if (entered === undefined) return;
    target = entered.trim();
    if (kind !== 'http') break;
    const probe = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking {0}…', target),
        cancellable: false,
      },
      () => probeMcpUrl(target, deps.fetch),
    );
    if (probe.ok) {
      secretHint = probe.summary;
      break;
    }
    const change = vscode.l10n.t('Change the URL');
    const anyway = vscode.l10n.t('Add It Anyway');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('This URL does not look like an MCP server: {0}.', probe.summary),
      { modal: true },
      change,
      anyway,
    );
    if (answer === anyway) break;
    if (answer !== change) return;
  }

  let extraArgs = '';
  if (kind === 'npm' || kind === 'pypi' || kind === 'docker') {
    const entered = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t(
        'Arguments for the server after the {0} (optional).',
        kind === 'docker' ? vscode.l10n.t('image') : vscode.l10n.t('package'),
      ),
      placeHolder: '--root ${workspaceFolder}',
      ignoreFocusOut: true,
      validateInput: (text) =>
        text.trim() === ''
          ? undefined
          : typeof splitCommandLine(text) === 'string'
            ? (splitCommandLine(text) as string)
            : undefined,
    });
    if (entered === undefined) return;
    extraArgs = entered;
  }

  const secretsText = await vscode.window.showInputBox({
    title,
    prompt:
      kind === 'http'
        ? vscode.l10n.t(
            'A header that carries an API key, if the server wants one (optional; {0}). Its value is asked once when the server starts and kept in the secret storage, never in settings.',
            secretHint || vscode.l10n.t('servers that sign in with OAuth need none'),
          )
        : vscode.l10n.t(
            'Environment variables that hold secrets, if the server needs any (optional; names separated by spaces). Each value is asked once when the server starts and kept in the secret storage, never in settings.',
          ),
    placeHolder: kind === 'http' ? 'Authorization' : 'GITHUB_TOKEN',
    ignoreFocusOut: true,
    validateInput: (text) => secretNamesProblem(kind, parseNames(text)),
  });
  if (secretsText === undefined) return;

  const id = await askServerId(title, (taken) => suggestServerId(kind, target, taken));
  if (id === undefined) return;
  const entry = newServerEntry(id, { kind, target, extraArgs, secretNames: parseNames(secretsText) });
  await writeNewServer(title, id, entry);
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
