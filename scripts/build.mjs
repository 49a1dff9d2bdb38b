// Bundles the extension (cjs, node, `vscode` external) with esbuild.
import * as esbuild from 'esbuild';
import { cpSync } from 'node:fs';
import { generateValidators } from './generate-validators.mjs';

const production = process.argv.includes('--production');
// Validators compiled from package.json's schemas, imported by the bundle (see the script).
generateValidators();
const watch = process.argv.includes('--watch');

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
  external: ['vscode', '@anthropic-ai/sandbox-runtime'],
  sourcemap: !production,
  minify: production,
  // The SDK ships ESM and CJS; prefer the CJS entry so require() semantics hold in the bundle.
  mainFields: ['main', 'module'],
  conditions: ['require', 'node'],
  // jsonc-parser's main entry is a UMD module that requires its parts at run time, which a
  // bundle cannot follow; its ESM build bundles.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  logLevel: 'info',
  metafile: true,
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
  await Promise.all([esbuild.build(options), esbuild.build(webviewOptions), esbuild.build(sandboxOptions)]);
}
