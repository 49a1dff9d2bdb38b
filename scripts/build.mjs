// Bundles the extension (cjs, node, `vscode` external) with esbuild.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
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
  entryPoints: { toolForm: 'webview-ui/toolForm/main.ts', toolResult: 'webview-ui/toolResult/main.ts', sampling: 'webview-ui/sampling/main.ts' },
  bundle: true,
  outdir: 'dist/webview',
  format: 'iife',
  platform: 'browser',
  target: 'chrome120',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

if (watch) {
  for (const config of [options, webviewOptions]) await (await esbuild.context(config)).watch();
} else {
  await Promise.all([esbuild.build(options), esbuild.build(webviewOptions)]);
}
