import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** How a module's code came to run: from a matching cache, or parsed (no cache yet, or V8 refused the one there). */
export type CodeCacheOutcome = 'used' | 'none' | 'rejected';

export interface CachedModule<T> {
  readonly exports: T;
  readonly cache: CodeCacheOutcome;
  /** Reading, compiling and running the module's top level, in ms. */
  readonly loadMs: number;
  /**
   * Writes the cache for the next load, with the functions compiled since this one (call it once
   * the module has done its start-up work), unless the cache was used. Other caches of the same
   * file (older builds, another V8) and half-written ones are removed: one stays per file.
   */
  save(): Promise<void>;
}

// The parameters of Node's CommonJS wrapper, on the source's first line so later lines keep their numbers.
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_END = '\n})';

/**
 * Loads a CommonJS file as Node's loader does (its `require` resolves from the file, so the
 * `vscode` module it gets from VS Code is the API of the extension that owns the file), but
 * compiled from a V8 code cache in `cacheDir` when one was written for the same text by the same
 * Node. Parsing a 2 MB bundle costs about 80 ms of CPU (and, in a bare Node, leaves some 15 MB
 * of the parser's freed memory in the C heap, which the process keeps); a cache skips the parse. The cache's name
 * carries a hash of the text, because V8 checks only a source's length before trusting a cache.
 * The file has no `import()` of its own (`vm`'s loader for it is experimental before Node 24 and
 * warns): it imports through its loader.
 */
export function loadWithCodeCache<T>(file: string, cacheDir: string): CachedModule<T> {
  const start = performance.now();
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256')
    .update(process.version)
    .update(process.arch)
    .update(source)
    .digest('hex')
    .slice(0, 16);
  const base = path.basename(file);
  const cacheFile = path.join(cacheDir, `${base}-${key}.v8cache`);
  const cachedData = readIfPresent(cacheFile);
  const script = new vm.Script(WRAPPER_START + source + WRAPPER_END, { filename: file, cachedData });
  const cache: CodeCacheOutcome = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  const scope = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    scope.exports,
    scope.exports,
    createRequire(file),
    scope,
    file,
    path.dirname(file),
  );
  const loadMs = performance.now() - start;
  const save = async (): Promise<void> => {
    if (cache === 'used') return;
    const data = script.createCachedData();
    await fs.mkdir(cacheDir, { recursive: true });
    // Written aside and renamed, so a window loading at the same time reads a whole cache or none.
    const partial = `${cacheFile}.${process.pid}.partial`;
    await fs.writeFile(partial, data);
    await fs.rename(partial, cacheFile);
    // Caches of other builds, and what a window that ended while writing left.
    const stale = (await fs.readdir(cacheDir)).filter(
      (name) => name.startsWith(`${base}-`) && name !== path.basename(cacheFile),
    );
    await Promise.all(stale.map((name) => fs.rm(path.join(cacheDir, name), { force: true })));
  };
  return { exports: scope.exports, cache, loadMs, save };
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
