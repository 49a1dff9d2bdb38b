import * as vscode from 'vscode';
import { isServerId } from '../../core/config/vscodeMcpJson';
import type { SecretInputs } from './secretInputs';
import { hostSetting } from './hostSettings';
import { addServerEntries } from './serverSettingsWriter';

// The last steps of adding a server, shared by Add Server and its registry search: the id,
// where the entry goes, writing it with its secrets, and showing it.

/** Asks for the new server's id, suggesting one not yet configured; undefined when cancelled. */
export async function askServerId(
  title: string,
  suggest: (taken: ReadonlySet<string>) => string,
): Promise<string | undefined> {
  const taken = new Set(Object.keys(hostSetting('servers')));
  return vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t("The server's id: its name in the Servers view, in tool names and in settings."),
    value: suggest(taken),
    ignoreFocusOut: true,
    validateInput: (text) =>
      !isServerId(text)
        ? vscode.l10n.t('Letters, digits, ".", "_" and "-", starting with a letter or digit.')
        : taken.has(text)
          ? vscode.l10n.t('MCP server "{0}" is already configured.', text)
          : undefined,
  });
}

/**
 * Asks where the entry goes (user or a folder), writes it (after storing `secrets`, by
 * `${input:}` id, so the server finds them when it starts), opens the settings on it and says
 * what happens next. Nothing is written when the user cancels or the id is taken there.
 */
export async function writeNewServer(
  title: string,
  id: string,
  entry: Record<string, unknown>,
  secrets?: { readonly values: Readonly<Record<string, string>>; readonly store: Pick<SecretInputs, 'store'> },
): Promise<boolean> {
  const folder = await chooseFolder(title);
  if (folder === null) return false;
  const added = await addServerEntries(folder, { [id]: entry }, async () => {
    for (const [inputId, value] of Object.entries(secrets?.values ?? {})) await secrets!.store.store(inputId, value);
  });
  if (added.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('MCP server "{0}" is already configured there; nothing was written.', id),
    );
    return false;
  }
  await showEntry(id, folder);
  void vscode.window.showInformationMessage(
    folder
      ? vscode.l10n.t(
          'Added MCP server "{0}" to the settings of {1}. It starts once you allow this workspace\'s server.',
          id,
          folder.name,
        )
      : vscode.l10n.t('Added MCP server "{0}" to your user settings. It starts now.', id),
  );
  return true;
}

/** Opens the settings file that now holds the server, on its entry. */
async function showEntry(id: string, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  let editor: vscode.TextEditor | undefined;
  if (folder)
    editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'));
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

/** User settings (undefined), a workspace folder, or null when the user cancelled. */
async function chooseFolder(title: string): Promise<vscode.WorkspaceFolder | undefined | null> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return undefined;
  const items: (vscode.QuickPickItem & { folder?: vscode.WorkspaceFolder })[] = [
    { label: vscode.l10n.t('User settings'), detail: vscode.l10n.t('In every window; starts without asking') },
    ...folders.map((folder) => ({
      label: folders.length === 1 ? vscode.l10n.t('Workspace settings') : vscode.l10n.t('Folder {0}', folder.name),
      detail: vscode.l10n.t("Only in this workspace, shared with it; starts after you allow the workspace's servers"),
      folder,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t('Where should the server be configured?'),
  });
  return picked ? picked.folder : null;
}
