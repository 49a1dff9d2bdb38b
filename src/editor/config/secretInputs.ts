import * as vscode from 'vscode';

const KEY_PREFIX = 'mcpHost.input.';

/**
 * `${input:ID}` values: asked once with a password box, then kept in SecretStorage. Never written
 * to settings or logs. Concurrent asks for the same id share one prompt.
 */
export class SecretInputs {
  private readonly asking = new Map<string, Promise<string>>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(id: string, serverId: string): Promise<string> {
    const stored = await this.secrets.get(KEY_PREFIX + id);
    if (stored !== undefined) return stored;
    let pending = this.asking.get(id);
    if (!pending) {
      pending = this.ask(id, serverId).finally(() => this.asking.delete(id));
      this.asking.set(id, pending);
    }
    return pending;
  }

  /** Keeps a value given another way (an imported configuration's literal secret). */
  async store(id: string, value: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + id, value);
  }

  async forget(id: string): Promise<void> {
    await this.secrets.delete(KEY_PREFIX + id);
  }

  private async ask(id: string, serverId: string): Promise<string> {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('MCP server "{0}" needs a value', serverId),
      prompt: vscode.l10n.t(
        "Value for ${input:{0}}. It is kept in the editor's secret storage, never in settings.",
        id,
      ),
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined || value === '') throw new Error(vscode.l10n.t('no value was entered'));
    await this.secrets.store(KEY_PREFIX + id, value);
    return value;
  }
}
