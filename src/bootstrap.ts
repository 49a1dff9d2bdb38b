import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './core/codeCache';
import type { McpHostApi } from './editor/publicApi';
import type * as Main from './extension';

/**
 * The file VS Code loads (`dist/extension.js`): it loads the extension's bundle (`dist/main.js`)
 * through a V8 code cache in the extension's global storage, so a window after the first skips
 * parsing it (less CPU at window open, and none of the parser's memory kept by the extension host).
 */
let main: typeof Main | undefined;
let saving: NodeJS.Timeout | undefined;

/** When the cache is written: after the start-up work (servers starting with the window), so it holds the code that work compiled. */
const SAVE_CACHE_AFTER_MS = 8_000;

export function activate(context: vscode.ExtensionContext): Promise<McpHostApi> {
  const loaded = loadWithCodeCache<typeof Main>(path.join(__dirname, 'main.js'), path.join(context.globalStorageUri.fsPath, 'code-cache'));
  main = loaded.exports;
  if (loaded.cache !== 'used') {
    saving = setTimeout(() => {
      saving = undefined;
      // A cache that cannot be written only means the next window parses the code again.
      loaded.save().catch((error: Error) => console.warn(`MCP Host: the code cache was not written: ${error.message}`));
    }, SAVE_CACHE_AFTER_MS);
  }
  return main.activate(context, { loadMs: loaded.loadMs, cache: loaded.cache, importModule: (url) => import(url) });
}

export async function deactivate(): Promise<void> {
  clearTimeout(saving);
  await main?.deactivate();
}
