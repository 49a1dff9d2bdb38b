// `npm test` installs the editor (Node 24 and code-server, a few minutes the first time) in a
// stage of its own, before any suite: inside a suite's hook it would race the hook's timeout.
import { cacheDir, ensureEditorInstall } from './editorInstall';

const started = Date.now();
const install = ensureEditorInstall();
console.log(
  `editor ready in ${((Date.now() - started) / 1000).toFixed(1)} s (cache ${cacheDir()}): ${install.codeServerEntry}`,
);
