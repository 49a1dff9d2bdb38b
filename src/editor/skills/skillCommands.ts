import * as vscode from 'vscode';
import type { ServerCalls } from '../../core/host/hostPorts';
import { ReportDocuments } from '../ui/reportDocuments';

/**
 * `mcpHost.openSkill`: loads one of a server's skills (its SKILL.md, verified against the server's
 * entry) and shows it as a read-only Markdown document; a refused skill says why.
 */
export function registerSkillCommands(host: ServerCalls): vscode.Disposable[] {
  const documents = new ReportDocuments('mcp-host-skill');
  return [
    documents.register(),
    vscode.commands.registerCommand('mcpHost.openSkill', async (serverId?: string, uri?: string) => {
      if (typeof serverId !== 'string' || typeof uri !== 'string') {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open a skill from its row under Skills in the MCP Servers view.'),
        );
        return;
      }
      try {
        const skill = await vscode.window.withProgress(
          { location: { viewId: 'mcpHost.servers' }, title: vscode.l10n.t('Loading skill {0}…', uri) },
          () => host.loadSkill(serverId, uri),
        );
        const files = skill.files.length
          ? `\n\n---\n\n${vscode.l10n.t('Files of this skill: {0}', skill.files.join(', '))}\n`
          : '';
        const header = `<!-- ${vscode.l10n.t('Skill {0} of MCP server "{1}", verified against the server\'s digest. Read-only.', uri, serverId)} -->\n\n`;
        await documents.show(`${skill.summary.name} (${serverId})`, `${header}${skill.body}${files}`);
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
      }
    }),
  ];
}
