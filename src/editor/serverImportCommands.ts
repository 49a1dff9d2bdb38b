import * as vscode from 'vscode';
import { ReportDocuments } from './reportDocuments';
import type { SecretInputs } from './secretInputs';
import { importServers, importSources } from './serverImport';

const CONTEXT_KEY = 'mcpHost.hasVsCodeMcpJson';
const PATTERN = '.vscode/mcp.json';

/**
 * VS Code's built-in MCP support keeps a workspace's servers in `.vscode/mcp.json`, which a
 * newcomer's "MCP: Add Server..." writes. The Servers view says so when that file exists, and
 * "Use Servers from .vscode/mcp.json" imports them into `mcpHost.servers` of that folder;
 * "MCP Host: Import Servers…" looks at every other host's files too.
 */
export function registerServerImport(secrets: SecretInputs, userDataDir: string | undefined): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${PATTERN}`);
  const workspaceMcpJson = () => importSources(undefined).filter((s) => s.host === 'vscode' && s.folder);
  const update = () => void existing(workspaceMcpJson().map((s) => s.uri)).then((files) => vscode.commands.executeCommand('setContext', CONTEXT_KEY, files.length > 0));
  update();
  const reports = new ReportDocuments();
  return [
    watcher,
    reports.register(),
    watcher.onDidCreate(update),
    watcher.onDidDelete(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.commands.registerCommand('mcpHost.useVsCodeMcpJson', () => importServers(workspaceMcpJson(), secrets, reports)),
    vscode.commands.registerCommand('mcpHost.importServers', () => importServers(importSources(userDataDir), secrets, reports)),
  ];
}

async function existing(uris: readonly vscode.Uri[]): Promise<vscode.Uri[]> {
  const found = await Promise.all(uris.map((uri) => vscode.workspace.fs.stat(uri).then(() => uri, () => undefined)));
  return found.filter((u): u is vscode.Uri => u !== undefined);
}
