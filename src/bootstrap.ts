import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache, type CachedModule } from './core/codeCache';
import type { LibraryBundle } from './core/lazyLibraries';
import type { McpHostApi } from './editor/publicApi';
import type * as Main from './extension';

/**
 * The file VS Code loads (`dist/extension.js`): it loads the extension's bundle (`dist/main.js`)
 * through a V8 code cache in the extension's global storage, so a window after the first skips
 * parsing it (less CPU at window open, and none of the parser's memory kept by the extension host).
 * The bundles of the libraries loaded on first use (`dist/libraries*.js`) load the same way when first needed.
 */
let main: typeof Main | undefined;
const saving = new Set<NodeJS.Timeout>();

/** When a cache is written: after the work that follows the load (servers starting), so it holds the code that work compiled. */
const SAVE_CACHE_AFTER_MS = 8_000;

function loadCached<T>(file: string, cacheDir: string): CachedModule<T> {
  const loaded = loadWithCodeCache<T>(path.join(__dirname, file), cacheDir);
  if (loaded.cache !== 'used') {
    const timer = setTimeout(() => {
      saving.delete(timer);
      // A cache that cannot be written only means the next window parses the code again.
      loaded
        .save()
        .catch((error: Error) => console.warn(`MCP Host: the code cache of ${file} was not written: ${error.message}`));
    }, SAVE_CACHE_AFTER_MS);
    saving.add(timer);
  }
  return loaded;
}

export function activate(context: vscode.ExtensionContext): Promise<McpHostApi> {
  const cacheDir = path.join(context.globalStorageUri.fsPath, 'code-cache');
  const loaded = loadCached<typeof Main>('main.js', cacheDir);
  main = loaded.exports;
  return main.activate(context, {
    loadMs: loaded.loadMs,
    cache: loaded.cache,
    importModule: (url) => import(url),
    loadLibraries: (bundle) => loadCached<{ libraries: LibraryBundle }>(`${bundle}.js`, cacheDir),
  });
}

export async function deactivate(): Promise<void> {
  for (const timer of saving) clearTimeout(timer);
  saving.clear();
  await main?.deactivate();
}
