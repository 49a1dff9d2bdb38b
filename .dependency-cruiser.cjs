// The layers, as data: `npm run lint` fails on an import that breaks them (see docs/architecture.md).

/**
 * The core's tiers, lowest first: a module may import its own tier and those below, never above.
 * (A type-only import counts too: a port is declared where it is used, or below.)
 */
const CORE_TIERS = [
  { name: 'basics', path: '^src/core/([^/]+\\.ts$|apps/|forms/|models/|view/|skills/)' },
  { name: 'config', path: '^src/core/config/' },
  { name: 'services', path: '^src/core/(auth|process|resources|sampling|elicitation|tasks)/' },
  { name: 'connection', path: '^src/core/connection/' },
  { name: 'host', path: '^src/core/(host|tools|registry)/' },
  { name: 'lanes', path: '^src/core/(gateway|chat|share)/' },
];

const upwardInCore = CORE_TIERS.slice(0, -1).map((tier, i) => ({
  name: `core-${tier.name}-not-upward`,
  comment: `src/core's ${tier.name} tier imports only its own tier and those below it`,
  severity: 'error',
  from: { path: tier.path },
  to: { path: CORE_TIERS.slice(i + 1).map((above) => above.path) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a module never reaches itself again through what it imports, types included (shared types move down)',
      severity: 'error',
      from: { path: '^(src|webview-ui)/' },
      to: { circular: true },
    },
    {
      name: 'webviews-import-shared-only',
      comment: 'the webviews run in the editor\'s sandboxed frames: of this project they import only src/shared',
      severity: 'error',
      from: { path: '^webview-ui/' },
      to: { path: '^src/(?!shared/)|^scripts/|^test/|^bench/' },
    },
    {
      name: 'core-is-pure',
      comment: 'src/core imports `vscode` for types only, and nothing of the editor, the headless client or the webviews',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(editor|headless)/|^webview-ui/|^src/extension\\.ts$|^src/bootstrap\\.ts$' },
    },
    {
      name: 'core-vscode-types-only',
      comment: 'src/core runs without the editor: `vscode` for types only',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^vscode$|^node_modules/@types/vscode/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-stands-alone',
      comment: 'src/shared is imported by the extension and the webviews alike: it imports neither',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(core|editor|headless)/|^webview-ui/' },
    },
    {
      name: 'editor-not-headless',
      severity: 'error',
      from: { path: '^src/editor/' },
      to: { path: '^src/headless/' },
    },
    {
      name: 'headless-not-editor',
      comment: 'the headless client runs without VS Code',
      severity: 'error',
      from: { path: '^src/headless/' },
      to: { path: '^src/editor/|^vscode$|^node_modules/@types/vscode/' },
    },
    ...upwardInCore,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.generated\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
