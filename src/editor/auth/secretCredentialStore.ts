import type * as vscode from 'vscode';
import type { CredentialStore } from '../../core/auth/signInRecords';

/** Sign-in credentials in the editor's SecretStorage (the OS keychain where there is one). */
export class SecretCredentialStore implements CredentialStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}
  async get(key: string): Promise<string | undefined> {
    return this.secrets.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    await this.secrets.store(key, value);
  }
  async delete(key: string): Promise<void> {
    await this.secrets.delete(key);
  }
}
