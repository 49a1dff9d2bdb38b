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
  logLevel: 'info',
  metafile: true,
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
