import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { NetworkFetch, type NetworkSettings } from '../core/connection/networkFetch';
import { networkSettingsFrom, type EditorHttpSettings } from '../core/connection/networkSettings';

/**
 * The host's `fetch` for HTTP servers and sign-in, following the editor's `http.proxy`,
 * `http.noProxy`, `http.proxyStrictSSL`, `http.proxyAuthorization` and `http.systemCertificates`
 * (read again after they change; the next request uses them).
 */
export function createEditorNetwork(): { readonly network: NetworkFetch } & vscode.Disposable {
  // Read on the first HTTP request, not at activation: the system's certificates take a while.
  let settings: NetworkSettings | undefined;
  const network = new NetworkFetch(() => (settings ??= readSettings()));
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('http')) settings = undefined;
  });
  return {
    network,
    dispose: () => {
      listener.dispose();
      void network.dispose();
    },
  };
}

function readSettings() {
  const http = vscode.workspace.getConfiguration('http');
  const editor: EditorHttpSettings = {
    proxy: http.get<string>('proxy'),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL'),
    noProxy: http.get<string[]>('noProxy'),
    proxyAuthorization: http.get<string | null>('proxyAuthorization'),
    systemCertificates: http.get<boolean>('systemCertificates'),
  };
  return networkSettingsFrom(editor, process.env, readIfPresent);
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
