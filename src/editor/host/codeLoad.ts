import type { CachedModule, CodeCacheOutcome } from '../../core/codeCache';
import type { Disposable } from '../../core/events';
import { loadLibrariesWith, whenLibraryLoads, type LibraryBundle } from '../../core/lazyLibraries';
import type { ServerLog } from '../../core/connection/serverLog';

/** How the extension's code was loaded (see bootstrap.ts). */
export interface CodeLoad {
  readonly loadMs: number;
  readonly cache: CodeCacheOutcome;
  /** The loader's `import()`: code compiled from a cache has none of its own. */
  readonly importModule: (url: string) => Promise<unknown>;
  /** Loads `dist/<bundle>.js`, a bundle of libraries loaded on first use (see lazyLibraries.ts). */
  readonly loadLibraries: (bundle: string) => CachedModule<{ readonly libraries: LibraryBundle }>;
}

const CODE_LOAD_NOTES: Record<CodeCacheOutcome, string> = {
  used: 'from the code cache',
  none: 'parsed; the code cache is written for the next window',
  rejected: 'parsed, the code cache being for another build; it is written again',
};

/** How the code loaded, in the words of the host's log. */
export function codeLoadNote(load: Pick<CodeLoad, 'loadMs' | 'cache'>): string {
  return `${load.loadMs.toFixed(1)} ms, ${CODE_LOAD_NOTES[load.cache]}`;
}

/** Loads the libraries used on first use through `load`, and says in `log` when each loads and how long it took. */
export function loadLibrariesLogged(load: CodeLoad, log: ServerLog): Disposable {
  const loads = whenLibraryLoads((library, ms) =>
    log.info(`Loaded ${library} in ${ms.toFixed(1)} ms (on its first use).`),
  );
  loadLibrariesWith((bundle) => {
    const loaded = load.loadLibraries(bundle);
    log.info(`Loaded the bundle of the libraries loaded on first use (dist/${bundle}.js) in ${codeLoadNote(loaded)}.`);
    return loaded.exports.libraries;
  });
  return loads;
}
