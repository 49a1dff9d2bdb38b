// Bundles the extension (cjs, node, `vscode` external) with esbuild.
import * as esbuild from 'esbuild';
import { cpSync } from 'node:fs';
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
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

// Libraries loaded on first use (src/core/lazyLibraries.ts), by the names the extension's code
// requires or imports them by. They are bundled on their own, in dist/libraries.js, which a window
// loads only when it first needs one of them: the extension's bundle holds none of their code.
const LIBRARIES_APART = ['@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio', '@modelcontextprotocol/ext-apps/app-bridge', 'ajv', 'ajv/dist/2020', 'ajv-formats', 'undici'];
// (The MCP Apps library's server entry is a few constants without schemas: the extension's bundle holds it.)
const LIBRARY_FILES = /node_modules\/(@modelcontextprotocol\/(client\/|core\/|ext-apps\/(?!dist\/src\/server\/))|zod\/|ajv\/dist\/(ajv|2020)\.js$|ajv-formats\/|undici\/)/;

// In the extension's bundle, each of those names becomes a module that takes the library from
// dist/libraries.js (lazyLibraries.ts's libraryFromBundle); the rest of the bundle is unchanged.
const librariesApart = {
  name: 'libraries-apart',
  setup(build) {
    const names = new RegExp(`^(${LIBRARIES_APART.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter: names }, (args) => ({ path: args.path, namespace: 'library-apart' }));
    build.onLoad({ filter: /.*/, namespace: 'library-apart' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(fileURLToPath(new URL('../src/core/lazyLibraries.ts', import.meta.url)))}).libraryFromBundle(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

// dist/libraries.js: each library as a function that runs it (esbuild runs a bundled module on its
// first require). The MCP libraries' require() gets the ESM build their own imports get: it would
// otherwise bundle their CommonJS build beside it, a second copy whose classes fail instanceof.
const librariesEntry = `exports.libraries = {\n${LIBRARIES_APART.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(name)}),`).join('\n')}\n};\n`;
const MCP_LIBRARIES = /^@modelcontextprotocol\/(client|ext-apps)(\/|$)/;
const mcpLibrariesOnce = {
  name: 'mcp-libraries-once',
  setup(build) {
    build.onResolve({ filter: MCP_LIBRARIES }, (args) => (args.kind === 'require-call' ? build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir }) : undefined));
  },
};

/**
 * The chain of static imports by which the extension's entry reaches one of the libraries loaded
 * on first use, if any: then dist/libraries.js would load with every window again (require()
 * calls count as lazy, so keep them inside functions).
 */
function eagerLibraryChain(metafile, entry) {
  const from = new Map([[entry, undefined]]);
  for (const queue = [entry]; queue.length > 0; ) {
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
  entryPoints: { main: 'src/extension.ts', extension: 'src/bootstrap.ts' },
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

const librariesOptions = {
  stdin: { contents: librariesEntry, resolveDir: process.cwd(), sourcefile: 'libraries.js', loader: 'js' },
  bundle: true,
  outfile: 'dist/libraries.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  mainFields: options.mainFields,
  conditions: options.conditions,
  logLevel: 'warning',
  metafile: true,
  plugins: [mcpLibrariesOnce],
};

// Webviews: browser bundles, one per panel, with the VS Code-styled web components inside.
const webviewOptions = {
  entryPoints: { toolForm: 'webview-ui/toolForm/main.ts', toolResult: 'webview-ui/toolResult/main.ts', sampling: 'webview-ui/sampling/main.ts', appHost: 'webview-ui/appHost/main.ts', appSandbox: 'webview-ui/appSandbox/main.ts' },
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
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
};
cpSync(`${SANDBOX_RUNTIME}/vendor/seccomp`, 'dist/sandbox/vendor/seccomp', { recursive: true, filter: (source) => !source.endsWith('.ts') });
cpSync(`${SANDBOX_RUNTIME}/LICENSE`, 'dist/sandbox/LICENSE');

if (watch) {
  for (const config of [options, librariesOptions, webviewOptions, sandboxOptions]) await (await esbuild.context(config)).watch();
} else {
  const [built] = await Promise.all([esbuild.build(options), esbuild.build(librariesOptions), esbuild.build(webviewOptions), esbuild.build(sandboxOptions)]);
  const chain = eagerLibraryChain(built.metafile, 'src/extension.ts');
  if (chain) {
    console.error(`The extension's entry imports a library meant to load on first use (see src/core/lazyLibraries.ts):\n  ${chain.join('\n  > ')}`);
    process.exit(1);
  }
  const bundledIn = Object.keys(built.metafile.inputs).filter((file) => LIBRARY_FILES.test(file));
  if (bundledIn.length > 0) {
    console.error(`The extension's bundle holds code of the libraries meant for dist/libraries.js (add the names the code requires them by to LIBRARIES_APART):\n  ${bundledIn.slice(0, 5).join('\n  ')}`);
    process.exit(1);
  }
}
