import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const LOADER = path.resolve(__dirname, '../../src/core/codeCache.js');

interface Load {
  readonly cache: string;
  readonly answer: string;
  readonly where: string;
  readonly saveError?: string;
}

// Each load in a process of its own, as each window's extension host is: V8 keeps what it
// compiled for the life of a process, so a second load in the same one would not read the cache.
const CHILD = `
const { loadWithCodeCache } = require(process.argv[1]);
const loaded = loadWithCodeCache(process.argv[2], process.argv[3]);
loaded.save().then(() => undefined, (error) => error.message).then((saveError) =>
  console.log(JSON.stringify({ cache: loaded.cache, answer: loaded.exports.answer(), where: loaded.exports.where, saveError })));
`;

describe('loading a CommonJS file through a V8 code cache', () => {
  let dir: string;
  let cacheDir: string;
  let file: string;

  const write = (answer: string) =>
    writeFileSync(
      file,
      [
        "'use strict';",
        "const helper = require('./helper.js');",
        "const path = require('node:path');",
        `exports.answer = () => helper.shout('${answer}');`,
        'exports.where = `${path.basename(__dirname)}/${path.basename(__filename)}`;',
      ].join('\n'),
    );
  const load = async (): Promise<Load> =>
    JSON.parse((await promisify(execFile)(process.execPath, ['-e', CHILD, LOADER, file, cacheDir])).stdout) as Load;
  const caches = () => readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'));
    cacheDir = path.join(dir, 'cache');
    file = path.join(dir, 'sample.js');
    writeFileSync(path.join(dir, 'helper.js'), "exports.shout = (s) => s.toUpperCase() + '!';");
    write('alpha');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the file as Node would (require beside it, __dirname, __filename), writes its cache, and uses it in the next process', async () => {
    assert.deepEqual(await load(), { cache: 'none', answer: 'ALPHA!', where: `${path.basename(dir)}/sample.js` });
    assert.equal(caches().length, 1);
    const written = statSync(path.join(cacheDir, caches()[0])).mtimeMs;
    assert.deepEqual(await load(), { cache: 'used', answer: 'ALPHA!', where: `${path.basename(dir)}/sample.js` });
    assert.equal(statSync(path.join(cacheDir, caches()[0])).mtimeMs, written, 'a used cache is not written again');
  });

  it('does not give a changed file of the same length the old cache (V8 checks only the length), and keeps one cache per file', async () => {
    await load();
    const old = caches();
    writeFileSync(path.join(cacheDir, `${old[0]}.4242.partial`), 'left by a window that ended while writing');
    write('gamma'); // as long as 'alpha'
    assert.deepEqual(await load(), { cache: 'none', answer: 'GAMMA!', where: `${path.basename(dir)}/sample.js` });
    assert.equal(readdirSync(cacheDir).length, 1, `one file left: ${readdirSync(cacheDir).join(', ')}`);
    assert.notDeepEqual(caches(), old);
    assert.equal((await load()).cache, 'used');
  });

  it('parses the file when its cache is damaged, and writes a good one', async () => {
    await load();
    const cacheFile = path.join(cacheDir, caches()[0]);
    writeFileSync(cacheFile, Buffer.alloc(readFileSync(cacheFile).length, 7));
    const damaged = await load();
    assert.equal(damaged.cache, 'rejected');
    assert.equal(damaged.answer, 'ALPHA!');
    assert.equal((await load()).cache, 'used');
  });

  it('loads the file when the cache cannot be written, and the save says why', async () => {
    writeFileSync(cacheDir, 'a file where the folder would be');
    const loaded = await load();
    assert.equal(loaded.cache, 'none');
    assert.equal(loaded.answer, 'ALPHA!');
    assert.match(loaded.saveError ?? '', /EEXIST|ENOTDIR/);
  });
});
