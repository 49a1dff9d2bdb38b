import * as vscode from 'vscode';
import type { OtherHostFiles } from './otherHostFiles';
import { ReportDocuments } from '../ui/reportDocuments';
import type { SecretInputs } from './secretInputs';
import { importServers, importSources } from './serverImport';

const CONTEXT_KEY = 'mcpHost.hasVsCodeMcpJson';

/**
 * VS Code's built-in MCP support keeps a workspace's servers in `.vscode/mcp.json`, which a
 * newcomer's "MCP: Add Server..." writes. The Servers view says so when that file exists, and
 * "Use Servers from .vscode/mcp.json" imports them into `mcpHost.servers` of that folder;
 * "MCP Host: Import Servers…" looks at every other host's files too.
 */
export function registerServerImport(
  secrets: SecretInputs,
  builtIn: OtherHostFiles,
  userDataDir: string | undefined,
): vscode.Disposable[] {
  const update = () =>
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, builtIn.workspaceFiles().length > 0);
  update();
  const reports = new ReportDocuments();
  return [
    builtIn.onDidChange(update),
    reports.register(),
    vscode.commands.registerCommand('mcpHost.useVsCodeMcpJson', () =>
      importServers([...builtIn.workspaceFiles()], secrets, reports),
    ),
    vscode.commands.registerCommand('mcpHost.importServers', () =>
      importServers(importSources(userDataDir), secrets, reports),
    ),
  ];
}
