import * as assert from 'node:assert/strict';
import { libraryFromBundle, loadLibrariesWith, type LibraryBundle } from '../../src/core/lazyLibraries';

describe('libraries from the bundle of those loaded on first use', () => {
  it('loads the bundle with the first library asked for, once, and runs each library when it is asked for', () => {
    const ran: string[] = [];
    let bundleLoads = 0;
    const bundle: LibraryBundle = {
      first: () => (ran.push('first'), { name: 'first' }),
      second: () => (ran.push('second'), { name: 'second' }),
    };
    loadLibrariesWith(() => (bundleLoads++, bundle));
    assert.equal(bundleLoads, 0, 'nothing loads before a library is asked for');
    assert.deepEqual(libraryFromBundle('first'), { name: 'first' });
    assert.deepEqual(libraryFromBundle('second'), { name: 'second' });
    assert.equal(bundleLoads, 1);
    assert.deepEqual(ran, ['first', 'second']);
  });

  it('names a library the bundle lacks, and says to rebuild', () => {
    loadLibrariesWith(() => ({}));
    assert.throws(() => libraryFromBundle('undici'), /MCP Host's library bundle has no undici: rebuild the extension/);
  });
});
