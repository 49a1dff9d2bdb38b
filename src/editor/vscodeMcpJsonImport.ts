import * as vscode from 'vscode';
import { convertVsCodeMcpJson } from '../core/config/vscodeMcpJson';
import { SERVERS_SETTING } from './serverSettingsReader';

const CONTEXT_KEY = 'mcpHost.hasVsCodeMcpJson';
const PATTERN = '.vscode/mcp.json';

/**
 * VS Code's built-in MCP support keeps a workspace's servers in `.vscode/mcp.json`, which a
 * newcomer's "MCP: Add Server..." writes. The Servers view says so when that file exists, and
 * "Use Servers from .vscode/mcp.json" copies them into `mcpHost.servers` of that folder.
 */
export function registerVsCodeMcpJsonImport(): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${PATTERN}`);
  const update = () => void findFiles().then((files) => vscode.commands.executeCommand('setContext', CONTEXT_KEY, files.length > 0));
  update();
  return [
    watcher,
    watcher.onDidCreate(update),
    watcher.onDidDelete(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.commands.registerCommand('mcpHost.useVsCodeMcpJson', () => useServers()),
  ];
}

async function findFiles(): Promise<{ folder: vscode.WorkspaceFolder; uri: vscode.Uri }[]> {
  const found: { folder: vscode.WorkspaceFolder; uri: vscode.Uri }[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, PATTERN);
    try {
      await vscode.workspace.fs.stat(uri);
      found.push({ folder, uri });
    } catch {
      // no mcp.json in this folder
    }
  }
  return found;
}

async function useServers(): Promise<void> {
  const files = await findFiles();
  if (files.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No workspace folder has a {0} file.', PATTERN));
    return;
  }
  const candidates: (vscode.QuickPickItem & { folder: vscode.WorkspaceFolder; id: string; entry: Record<string, unknown> })[] = [];
  const notes: string[] = [];
  for (const { folder, uri } of files) {
    const conversion = convertVsCodeMcpJson(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    for (const problem of conversion.problems) notes.push(`${vscode.workspace.asRelativePath(uri)}: ${problem}`);
    const existing = vscode.workspace.getConfiguration(undefined, folder.uri).get<Record<string, unknown>>(SERVERS_SETTING, {});
    for (const server of conversion.servers) {
      for (const skipped of server.skipped) notes.push(`${server.id}: ${skipped}`);
      if (Object.keys(server.entry).length === 0) continue;
      const already = existing[server.id] !== undefined;
      candidates.push({
        label: server.id,
        description: already ? vscode.l10n.t('already in mcpHost.servers: left as it is') : String(server.entry.url ?? [server.entry.command, ...((server.entry.args as string[] | undefined) ?? [])].join(' ')),
        detail: vscode.workspace.asRelativePath(uri),
        picked: !already,
        folder,
        id: server.id,
        entry: server.entry,
      });
    }
  }
  const chosen = candidates.length === 0 ? [] : await vscode.window.showQuickPick(candidates, { canPickMany: true, title: vscode.l10n.t('Use which servers from {0}?', PATTERN) });
  if (!chosen) return;
  let added = 0;
  for (const folder of new Set(chosen.map((c) => c.folder))) {
    const config = vscode.workspace.getConfiguration(undefined, folder.uri);
    const target = vscode.workspace.workspaceFile ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    const inspected = config.inspect<Record<string, unknown>>(SERVERS_SETTING);
    const servers = { ...((target === vscode.ConfigurationTarget.Workspace ? inspected?.workspaceValue : inspected?.workspaceFolderValue) ?? {}) };
    for (const pick of chosen.filter((c) => c.folder === folder && servers[c.id] === undefined && config.get<Record<string, unknown>>(SERVERS_SETTING, {})[c.id] === undefined)) {
      servers[pick.id] = pick.entry;
      added++;
    }
    await config.update(SERVERS_SETTING, servers, target);
  }
  const message = vscode.l10n.t('Added {0} server(s) from {1} to the workspace settings ("mcpHost.servers"). They start once you allow them.', added, PATTERN);
  void vscode.window.showInformationMessage(notes.length > 0 ? `${message} ${vscode.l10n.t('Not carried over: {0}', notes.join('; '))}` : message);
}
