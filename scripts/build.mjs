// Bundles the extension (cjs, node, `vscode` external) with esbuild.
import * as esbuild from 'esbuild';
import { cpSync } from 'node:fs';
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

// Libraries loaded on first use (src/core/lazyLibraries.ts), which the extension's entry must not
// import. The MCP ones' require() gets the same ESM build the session's modules import: it would
// otherwise bundle their CommonJS build beside it, a second copy whose classes fail instanceof.
const LAZY_LIBRARIES = /^@modelcontextprotocol\/(client|ext-apps)(\/|$)/;
const LOADED_ON_FIRST_USE = /node_modules\/(@modelcontextprotocol\/(client|ext-apps)\/|ajv\/dist\/(ajv|2020)\.js$|ajv-formats\/|undici\/)/;
const lazyLibrariesOnce = {
  name: 'lazy-libraries-once',
  setup(build) {
    build.onResolve({ filter: LAZY_LIBRARIES }, (args) => (args.kind === 'require-call' ? build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir }) : undefined));
  },
};

/**
 * The chain of static imports by which the extension's entry reaches one of the lazy libraries, if
 * any: then they would load with every window again (require() calls count as lazy, so keep
 * them inside functions).
 */
function eagerLibraryChain(metafile, entry) {
  const from = new Map([[entry, undefined]]);
  for (const queue = [entry]; queue.length > 0; ) {
    const file = queue.shift();
    for (const { path, kind, external } of metafile.inputs[file]?.imports ?? []) {
      if (external || kind !== 'import-statement' || from.has(path)) continue;
      from.set(path, file);
      if (LOADED_ON_FIRST_USE.test(path)) {
        const chain = [];
        for (let at = path; at !== undefined; at = from.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(path);
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
  // here, and the lazy-libraries plugin sends their require() calls to the same file.
  mainFields: ['main', 'module'],
  conditions: ['require', 'node'],
  // jsonc-parser's main entry is a UMD module that requires its parts at run time, which a
  // bundle cannot follow; its ESM build bundles.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  logLevel: 'info',
  metafile: true,
  plugins: [vscodeOnce, lazyLibrariesOnce],
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
  for (const config of [options, webviewOptions, sandboxOptions]) await (await esbuild.context(config)).watch();
} else {
  const [built] = await Promise.all([esbuild.build(options), esbuild.build(webviewOptions), esbuild.build(sandboxOptions)]);
  const chain = eagerLibraryChain(built.metafile, 'src/extension.ts');
  if (chain) {
    console.error(`The extension's entry imports a library meant to load on first use (see src/core/lazyLibraries.ts):\n  ${chain.join('\n  > ')}`);
    process.exit(1);
  }
}
