import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  convertHostConfig,
  HOST_NAMES,
  sameServer,
  type ImportedServer,
  type OtherHost,
  type ServerIdentity,
} from '../../core/config/otherHostConfigs';
import type { ReportDocuments } from '../ui/reportDocuments';
import type { SecretInputs } from './secretInputs';
import { hostSetting } from './hostSettings';
import { addServerEntries } from './serverSettingsWriter';

/** A configuration file of another host, and where its servers go in MCP Host's settings. */
export interface ImportSource {
  readonly host: OtherHost;
  readonly uri: vscode.Uri;
  /** The workspace folder whose settings take its servers; user settings without one. */
  readonly folder?: vscode.WorkspaceFolder;
}

/** Where other hosts keep their servers: each workspace folder's files, then the user's. */
export function importSources(userDataDir: string | undefined): ImportSource[] {
  const sources: ImportSource[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    sources.push(
      { host: 'vscode', uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'), folder },
      { host: 'cursor', uri: vscode.Uri.joinPath(folder.uri, '.cursor', 'mcp.json'), folder },
      // Claude Code's, or VS Code 1.140's in its own shape: the file says which.
      { host: 'claude-code', uri: vscode.Uri.joinPath(folder.uri, '.mcp.json'), folder },
      { host: 'gemini-cli', uri: vscode.Uri.joinPath(folder.uri, '.gemini', 'settings.json'), folder },
      { host: 'zed', uri: vscode.Uri.joinPath(folder.uri, '.zed', 'settings.json'), folder },
    );
  }
  const home = os.homedir();
  const config = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  if (userDataDir) sources.push({ host: 'vscode', uri: vscode.Uri.file(path.join(userDataDir, 'mcp.json')) });
  sources.push(
    { host: 'claude-desktop', uri: vscode.Uri.file(claudeDesktopConfig(home)) },
    { host: 'cursor', uri: vscode.Uri.file(path.join(home, '.cursor', 'mcp.json')) },
    { host: 'claude-code', uri: vscode.Uri.file(path.join(home, '.claude.json')) },
    { host: 'copilot-cli', uri: vscode.Uri.file(path.join(home, '.copilot', 'mcp-config.json')) },
    { host: 'gemini-cli', uri: vscode.Uri.file(path.join(home, '.gemini', 'settings.json')) },
    { host: 'windsurf', uri: vscode.Uri.file(path.join(home, '.codeium', 'windsurf', 'mcp_config.json')) },
    {
      host: 'codex',
      uri: vscode.Uri.file(path.join(process.env.CODEX_HOME || path.join(home, '.codex'), 'config.toml')),
    },
    {
      host: 'zed',
      uri: vscode.Uri.file(
        path.join(
          process.platform === 'win32' ? (process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming')) : config,
          'zed',
          'settings.json',
        ),
      ),
    },
  );
  // Cline keeps its servers in the extension's storage, beside MCP Host's.
  if (userDataDir)
    sources.push({
      host: 'cline',
      uri: vscode.Uri.file(
        path.join(userDataDir, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
      ),
    });
  return sources;
}

function claudeDesktopConfig(home: string): string {
  if (process.platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (process.platform === 'win32')
    return path.join(
      process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    );
  return path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

interface Candidate extends vscode.QuickPickItem {
  readonly source: ImportSource;
  readonly server: ImportedServer;
  /** The id MCP Host already has this server under: it is left as it is. */
  readonly already?: string;
}

/**
 * "MCP Host: Import Servers…": finds the servers other hosts are configured with, shows them per
 * file (and which MCP Host already has), converts the chosen ones, puts literal secrets into
 * secret storage instead of settings, and says what it could not convert and why.
 */
export async function importServers(
  sources: readonly ImportSource[],
  secrets: SecretInputs,
  reports: ReportDocuments,
): Promise<void> {
  const items: (Candidate | vscode.QuickPickItem)[] = [];
  const notes: string[] = [];
  let files = 0;
  for (const source of sources) {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source.uri));
    } catch {
      continue; // this host has no file here
    }
    files++;
    const where = source.folder ? vscode.workspace.asRelativePath(source.uri) : source.uri.fsPath;
    const conversion = convertHostConfig(source.host, text);
    for (const problem of conversion.problems) notes.push(`${where}: ${problem}`);
    const existing = serversIn(source.folder);
    const candidates: Candidate[] = [];
    for (const server of conversion.servers) {
      for (const skipped of server.skipped) notes.push(`${where}, ${server.id}: ${skipped}`);
      if (Object.keys(server.entry).length === 0) continue;
      // The same id, or another id that runs the same thing.
      const already =
        existing[server.id] !== undefined
          ? server.id
          : Object.keys(existing).find((id) => sameServer(existing[id] as ServerIdentity, server.entry));
      candidates.push({
        label: server.id,
        description: already ? vscode.l10n.t('already in MCP Host as "{0}": left as it is', already) : summary(server),
        detail: Object.keys(server.secrets).length
          ? vscode.l10n.t('{0} secret(s) go to the secret storage, not to settings', Object.keys(server.secrets).length)
          : undefined,
        picked: !already,
        already,
        source,
        server,
      });
    }
    if (candidates.length)
      items.push(
        { label: `${HOST_NAMES[source.host]} · ${where}`, kind: vscode.QuickPickItemKind.Separator },
        ...candidates,
      );
  }
  if (files === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No configuration of VS Code, Claude Desktop, Cursor or Claude Code was found (looked for {0} files).',
        sources.length,
      ),
    );
    return;
  }
  const chosen =
    items.length === 0
      ? []
      : await vscode.window.showQuickPick(items, {
          canPickMany: true,
          title: vscode.l10n.t('MCP Host: Import Servers'),
          placeHolder: vscode.l10n.t("Servers found in other hosts' configurations"),
        });
  if (!chosen) return;
  const picks = chosen.filter((c): c is Candidate => 'server' in c && !c.already);
  let added = 0;
  for (const folder of new Set(picks.map((p) => p.source.folder))) {
    const chosenHere = picks.filter((p) => p.source.folder === folder);
    const ids = await addServerEntries(
      folder,
      Object.fromEntries(chosenHere.map((p) => [p.server.id, p.server.entry])),
      async (adding) => {
        for (const pick of chosenHere.filter((p) => adding.includes(p.server.id))) {
          for (const [id, value] of Object.entries(pick.server.secrets)) await secrets.store(id, value);
        }
      },
    );
    added += ids.length;
  }
  const message = vscode.l10n.t('Imported {0} server(s) into "mcpHost.servers".', added);
  if (notes.length === 0) {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const show = vscode.l10n.t('Show What Was Not Imported');
  if (
    (await vscode.window.showInformationMessage(
      `${message} ${vscode.l10n.t('{0} thing(s) could not be carried over.', notes.length)}`,
      show,
    )) === show
  ) {
    const title = vscode.l10n.t('Not imported');
    await reports.show(title, `# ${title}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
  }
}

function serversIn(folder: vscode.WorkspaceFolder | undefined): Record<string, unknown> {
  return hostSetting('servers', folder?.uri);
}

function summary(server: ImportedServer): string {
  const entry = server.entry as { url?: string; command?: string; args?: string[] };
  return entry.url ?? [entry.command, ...(entry.args ?? [])].join(' ');
}
