// Bundles the extension (cjs, node, `vscode` external) with esbuild.
import * as esbuild from 'esbuild';
import { cpSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateValidators } from './generate-validators.mjs';

const production = process.argv.includes('--production');
// Validators compiled from package.json's schemas, imported by the bundle (see the script).
generateValidators();
const watch = process.argv.includes('--watch');

// `import * as vscode from 'vscode'` in each of some fifty modules would copy the API's two hundred
// names onto an object of its own per module (esbuild's interop for an external CommonJS module),
// about 2 MB of heap at every window open: every module gets one shared namespace instead.
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
    }));
  },
};

// Libraries loaded on first use (src/core/lazyLibraries.ts), by the names the extension's code
// requires or imports them by, in the bundles of their own a window loads only when it first needs
// one of them (dist/<bundle>.js): the extension's bundle holds none of their code. A bundle holds
// what is needed together: a stdio server's start loads the MCP libraries alone (their zod
// schemas shared), not the HTTP client or the form validator beside them.
const LIBRARY_BUNDLES = {
  libraries: [
    '@modelcontextprotocol/client',
    '@modelcontextprotocol/client/stdio',
    '@modelcontextprotocol/client/ext/skills',
    '@modelcontextprotocol/ext-apps/app-bridge',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/server/stdio',
    '@modelcontextprotocol/node',
  ],
  'libraries-ajv': ['ajv', 'ajv/dist/2020', 'ajv-formats'],
  'libraries-undici': ['undici'],
};
const bundleOf = new Map(
  Object.entries(LIBRARY_BUNDLES).flatMap(([bundle, names]) => names.map((name) => [name, bundle])),
);
// (The MCP Apps library's server entry is a few constants without schemas: the extension's bundle holds it.)
const LIBRARY_FILES =
  /node_modules\/(@modelcontextprotocol\/(client\/|core\/|server\/|node\/|ext-apps\/(?!dist\/src\/server\/))|zod\/|ajv\/dist\/(ajv|2020)\.js$|ajv-formats\/|undici\/)/;

// In the extension's bundle, each of those names becomes a module that takes the library from
// its bundle (lazyLibraries.ts's libraryFromBundle); the rest of the bundle is unchanged.
const librariesApart = {
  name: 'libraries-apart',
  setup(build) {
    const names = new RegExp(`^(${[...bundleOf.keys()].map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: 'library-apart' }));
    build.onLoad({ filter: /.*/, namespace: 'library-apart' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(fileURLToPath(new URL('../src/core/lazyLibraries.ts', import.meta.url)))}).libraryFromBundle(${JSON.stringify(args.path)}, ${JSON.stringify(bundleOf.get(args.path))});`,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

// Each library bundle: each library as a function that runs it (esbuild runs a bundled module on its
// first require). The MCP libraries' require() gets the ESM build their own imports get: it would
// otherwise bundle their CommonJS build beside it, a second copy whose classes fail instanceof.
const libraryBundleEntry = (names) =>
  `exports.libraries = {\n${names.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(name)}),`).join('\n')}\n};\n`;
const MCP_LIBRARIES = /^@modelcontextprotocol\/(client|server|node|ext-apps)(\/|$)/;
const mcpLibrariesOnce = {
  name: 'mcp-libraries-once',
  setup(build) {
    build.onResolve({ filter: MCP_LIBRARIES }, (args) =>
      args.kind === 'require-call'
        ? build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir })
        : undefined,
    );
  },
};

// The MCP Apps host bridge imports zod's namespace as a value (`import { z } from "zod/v4"`), which
// keeps the whole namespace, with its 250 locales, in the bundle (zod's own note on this: #6050),
// where the client library's `import * as z` keeps only what is used: 350 KB more to load with the
// first server. Where the bridge uses `z` only for its members, a namespace import is the same
// thing and lets the bundler leave the rest out; otherwise the file is bundled as it is.
const zodMembersOnly = {
  name: 'zod-members-only',
  setup(build) {
    build.onLoad({ filter: /node_modules\/@modelcontextprotocol\/ext-apps\/dist\/.*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const imported = /import\{z as ([A-Za-z_$][\w$]*)\}from"zod\/v4";?/.exec(source);
      if (!imported) return undefined;
      const name = imported[1].replace(/\$/g, '\\$');
      const uses = source.match(new RegExp(`(?<![\\w$.])${name}(?![\\w$])(?!\\.)`, 'g')) ?? [];
      // The one use that is not a member access is the import itself.
      if (uses.length !== 1) return undefined;
      return { contents: source.replace(imported[0], `import*as ${imported[1]} from"zod/v4";`), loader: 'js' };
    });
  },
};

/**
 * The chain of static imports by which the extension's entry reaches one of the libraries loaded
 * on first use, if any: then its bundle would load with every window again (require()
 * calls count as lazy, so keep them inside functions).
 */
function eagerLibraryChain(metafile, entry) {
  const from = new Map([[entry, undefined]]);
  for (const queue = [entry]; queue.length > 0;) {
    const file = queue.shift();
    for (const { path: imported, kind, external } of metafile.inputs[file]?.imports ?? []) {
      if (external || kind !== 'import-statement' || from.has(imported)) continue;
      from.set(imported, file);
      if (imported.startsWith('library-apart:')) {
        const chain = [];
        for (let at = imported; at !== undefined; at = from.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(imported);
    }
  }
  return undefined;
}

// The extension's bundle (dist/main.js), and the file VS Code loads (dist/extension.js), which
// loads the bundle through a V8 code cache (src/bootstrap.ts).
const options = {
  entryPoints: { main: 'src/extension.ts', extension: 'src/bootstrap.ts', gatewayRelay: 'src/gatewayRelay.ts' },
  bundle: true,
  outdir: 'dist',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The sandbox runtime is ESM that finds its helper binaries next to itself: it is bundled on its own (below).
  external: ['@anthropic-ai/sandbox-runtime'],
  sourcemap: !production,
  minify: production,
  // Packages without an exports map resolve to their CommonJS `main`; those with one match their
  // `import` condition first for import statements (the MCP SDK's ESM build), whatever is listed
  // here (the libraries' bundle below sends their require() calls to the same file).
  mainFields: ['main', 'module'],
  conditions: ['require', 'node'],
  // jsonc-parser's main entry is a UMD module that requires its parts at run time, which a
  // bundle cannot follow; its ESM build bundles.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  logLevel: 'info',
  metafile: true,
  plugins: [vscodeOnce, librariesApart],
};

const libraryBundleOptions = Object.entries(LIBRARY_BUNDLES).map(([bundle, names]) => ({
  stdin: { contents: libraryBundleEntry(names), resolveDir: process.cwd(), sourcefile: `${bundle}.js`, loader: 'js' },
  bundle: true,
  outfile: `dist/${bundle}.js`,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  mainFields: options.mainFields,
  conditions: options.conditions,
  logLevel: 'warning',
  metafile: true,
  plugins: [mcpLibrariesOnce, zodMembersOnly],
}));

// Webviews: browser bundles, one per panel, with the VS Code-styled web components inside.
const webviewOptions = {
  entryPoints: {
    toolForm: 'webview-ui/toolForm/main.ts',
    toolResult: 'webview-ui/toolResult/main.ts',
    sampling: 'webview-ui/sampling/main.ts',
    appHost: 'webview-ui/appHost/main.ts',
    appSandbox: 'webview-ui/appSandbox/main.ts',
  },
  bundle: true,
  outdir: 'dist/webview',
  format: 'iife',
  platform: 'browser',
  target: 'chrome120',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

// The sandbox runtime (@anthropic-ai/sandbox-runtime), loaded with import() when a server is
// sandboxed: one ESM file with its dependencies, and its seccomp helpers where it looks for them.
const SANDBOX_RUNTIME = 'node_modules/@anthropic-ai/sandbox-runtime';
const sandboxOptions = {
  entryPoints: { sandboxRuntime: `${SANDBOX_RUNTIME}/dist/index.js` },
  bundle: true,
  outdir: 'dist/sandbox',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: production,
  // Its CommonJS dependencies call require(); an ESM bundle has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
};
cpSync(`${SANDBOX_RUNTIME}/vendor/seccomp`, 'dist/sandbox/vendor/seccomp', {
  recursive: true,
  filter: (source) => !source.endsWith('.ts'),
});
cpSync(`${SANDBOX_RUNTIME}/LICENSE`, 'dist/sandbox/LICENSE');

if (watch) {
  for (const config of [options, ...libraryBundleOptions, webviewOptions, sandboxOptions])
    await (await esbuild.context(config)).watch();
} else {
  const [built, ...libraryBundles] = await Promise.all([
    esbuild.build(options),
    ...libraryBundleOptions.map((config) => esbuild.build(config)),
    esbuild.build(webviewOptions),
    esbuild.build(sandboxOptions),
  ]);
  // A package in two library bundles would load twice (twice the memory, classes that fail instanceof).
  const inBundles = new Map();
  for (const [i, bundle] of Object.keys(LIBRARY_BUNDLES).entries()) {
    const packages = new Set(
      Object.keys(libraryBundles[i].metafile.inputs)
        .map((file) => /.*node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1])
        .filter(Boolean),
    );
    for (const name of packages) inBundles.set(name, [...(inBundles.get(name) ?? []), bundle]);
  }
  const twice = [...inBundles].filter(([, bundles]) => bundles.length > 1);
  if (twice.length > 0) {
    console.error(
      `Packages in more than one library bundle (put the libraries that share them in one bundle of LIBRARY_BUNDLES):\n  ${twice
        .slice(0, 5)
        .map(([name, bundles]) => `${name} (${bundles.join(', ')})`)
        .join('\n  ')}`,
    );
    process.exit(1);
  }
  const chain = eagerLibraryChain(built.metafile, 'src/extension.ts');
  if (chain) {
    console.error(
      `The extension's entry imports a library meant to load on first use (see src/core/lazyLibraries.ts):\n  ${chain.join('\n  > ')}`,
    );
    process.exit(1);
  }
  const bundledIn = Object.keys(built.metafile.inputs).filter((file) => LIBRARY_FILES.test(file));
  if (bundledIn.length > 0) {
    console.error(
      `The extension's bundle holds code of the libraries meant for their own bundles (add the names the code requires them by to LIBRARY_BUNDLES):\n  ${bundledIn.slice(0, 5).join('\n  ')}`,
    );
    process.exit(1);
  }
}
