// The extension's manifest as the marketplace and a translator see it: every contributed string
// is localisable (a %key% with its English text in package.nls.json), the icon is the size the
// marketplace shows, and the walkthrough's images ship in the package.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../support/tempDir';

const REPO = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync(path.join(REPO, 'package.nls.json'), 'utf8')) as Record<string, string>;
const TEXT_FIELDS = new Set([
  'title',
  'description',
  'markdownDescription',
  'patternErrorMessage',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'contents',
  'fullName',
  'displayName',
  'userDescription',
  'modelDescription',
  'altText',
  'category',
]);

/** Every [path, text] of a field a person reads, in the contributions and the top-level names. */
function texts(node: unknown, at: string, inViews = false): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => texts(item, `${at}[${i}]`, inViews));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]): [string, string][] => {
    if (key === 'enum' || key === 'default' || key === 'examples' || key === 'when' || key === 'command') return [];
    if (typeof value === 'string' && (TEXT_FIELDS.has(key) || (inViews && key === 'name')))
      return [[`${at}.${key}`, value]];
    if ((key === 'enumDescriptions' || key === 'markdownEnumDescriptions') && Array.isArray(value))
      return value.map((v, i): [string, string] => [`${at}.${key}[${i}]`, String(v)]);
    return texts(value, `${at}.${key}`, inViews || key === 'views');
  });
}

describe('the manifest, for the marketplace and for translators', () => {
  it('has every contributed string as a %key% with its text in package.nls.json, and no key without a use', () => {
    const found = [
      ['displayName', String(manifest.displayName)],
      ['description', String(manifest.description)],
      ...texts(manifest.contributes, 'contributes'),
    ] as [string, string][];
    assert.ok(found.length > 100, `only ${found.length} strings found`);
    const literal = found.filter(([, text]) => !/^%[^%]+%$/.test(text));
    assert.deepEqual(literal, [], 'strings written in package.json instead of package.nls.json');
    const used = new Set(found.map(([, text]) => text.slice(1, -1)));
    assert.deepEqual(
      [...used].filter((key) => typeof nls[key] !== 'string' || nls[key] === ''),
      [],
      'keys without text',
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
      'texts nothing uses',
    );
  });

  it('lets the settings.json completion of "mcpHost.servers" insert a server to fill in, not an empty value', () => {
    // VS Code's JSON language service inserts a property's value only when it has exactly one value
    // proposal (defaultSnippets, enum, const, default and examples all count); with more it inserts nothing.
    const properties = Object.assign(
      {},
      ...[(manifest.contributes as { configuration: unknown }).configuration]
        .flat()
        .map((c) => (c as { properties: object }).properties),
    ) as Record<string, Record<string, unknown>>;
    const servers = properties['mcpHost.servers'];
    const proposals =
      ((servers.defaultSnippets as unknown[]) ?? []).length +
      ((servers.enum as unknown[]) ?? []).length +
      ('const' in servers ? 1 : 0) +
      ('default' in servers ? 1 : 0) +
      ((servers.examples as unknown[]) ?? []).length;
    assert.equal(proposals, 1);
    assert.deepEqual(Object.keys((servers.defaultSnippets as { body: object }[])[0].body), ['${1:everything}']);
  });

  it('has a 128×128 PNG icon, a gallery banner, and walkthrough images that ship in the package', () => {
    const icon = readFileSync(path.join(REPO, String(manifest.icon)));
    assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128]);
    assert.match(String((manifest.galleryBanner as { color?: string }).color), /^#[0-9a-f]{6}$/i);
    const ignore = readFileSync(path.join(REPO, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/\*\*$/m);
    assert.match(ignore, /^!package\.nls\.json$/m);
    const walkthroughs = (manifest.contributes as { walkthroughs: { steps: { media: { image: string } }[] }[] })
      .walkthroughs;
    const images = walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image));
    assert.equal(images.length, 4);
    for (const image of images) assert.ok(image.startsWith('media/') && existsSync(path.join(REPO, image)), image);
  });

  it("ships every script the build writes to dist/ for the editor to run (the extension's entry points and the stdio lane's relay)", () => {
    const build = readFileSync(path.join(REPO, 'scripts/build.mjs'), 'utf8');
    const [, points] = /entryPoints: \{([^}]*)\},\s*[^}]*outdir: 'dist',/.exec(build) ?? [];
    const names = [...(points ?? '').matchAll(/(\w+):/g)].map((m) => m[1]);
    assert.ok(
      names.includes('main') && names.includes('gatewayRelay'),
      `entry points read from build.mjs: ${names.join(', ')}`,
    );
    const kept = readFileSync(path.join(REPO, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!dist/'))
      .map((line) => new RegExp(`^${line.slice(1).replace(/[.]/g, '\\.').replace(/\*\*?/g, '.*')}$`));
    for (const name of names)
      assert.ok(
        kept.some((pattern) => pattern.test(`dist/${name}.js`)),
        `dist/${name}.js is built but left out of the package by .vscodeignore`,
      );
  });

  it('has the runtime strings (vscode.l10n.t) of the source in l10n/bundle.l10n.json, as `npm run l10n` writes it', function () {
    this.timeout(60_000);
    assert.equal(manifest.l10n, './l10n');
    const out = tempDir('mcp-host-l10n-');
    execFileSync(
      process.execPath,
      [path.join(REPO, 'node_modules/@vscode/l10n-dev/dist/cli.js'), 'export', '--outDir', out, path.join(REPO, 'src')],
      { stdio: 'ignore' },
    );
    const fresh = JSON.parse(readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const committed = JSON.parse(readFileSync(path.join(REPO, 'l10n/bundle.l10n.json'), 'utf8')) as Record<
      string,
      string
    >;
    assert.ok(Object.keys(fresh).length > 200);
    assert.deepEqual(committed, fresh, 'l10n/bundle.l10n.json is stale: run npm run l10n');
  });
});
