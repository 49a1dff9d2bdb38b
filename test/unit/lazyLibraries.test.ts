import * as assert from 'node:assert/strict';
import { libraryFromBundle, loadLibrariesWith, type LibraryBundle } from '../../src/core/lazyLibraries';

describe('libraries from the bundles of those loaded on first use', () => {
  it('loads a bundle with the first of its libraries asked for, once, and runs each library when it is asked for', () => {
    const ran: string[] = [];
    const bundleLoads: string[] = [];
    const bundles: Record<string, LibraryBundle> = {
      mcp: {
        first: () => (ran.push('first'), { name: 'first' }),
        second: () => (ran.push('second'), { name: 'second' }),
      },
      http: { third: () => (ran.push('third'), { name: 'third' }) },
    };
    loadLibrariesWith((bundle) => (bundleLoads.push(bundle), bundles[bundle]));
    assert.deepEqual(bundleLoads, [], 'nothing loads before a library is asked for');
    assert.deepEqual(libraryFromBundle('first', 'mcp'), { name: 'first' });
    assert.deepEqual(libraryFromBundle('second', 'mcp'), { name: 'second' });
    assert.deepEqual(bundleLoads, ['mcp'], 'the other bundle waits until one of its libraries is asked for');
    assert.deepEqual(libraryFromBundle('third', 'http'), { name: 'third' });
    assert.deepEqual(libraryFromBundle('first', 'mcp'), { name: 'first' });
    assert.deepEqual(bundleLoads, ['mcp', 'http']);
    assert.deepEqual(ran, ['first', 'second', 'third', 'first']);
  });

  it('names a library its bundle lacks, and says to rebuild', () => {
    loadLibrariesWith(() => ({}));
    assert.throws(
      () => libraryFromBundle('undici', 'libraries-undici'),
      /MCP Host's library bundle libraries-undici has no undici: rebuild the extension/,
    );
  });
});
