// `npm test`: lint, types, unit tests, then the real-editor tests; every stage runs even if an
// earlier one failed, and the run ends with one line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
for (const name of ['unit', 'conformance', 'editor', 'in-editor']) rmSync(`${results}/${name}.json`, { force: true });

const stages = [
  ['lint', 'npm', ['run', 'lint']],
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['package', 'npm', ['run', 'package']],
  ['compile-tests', 'npm', ['run', 'compile-tests']],
  [
    'unit',
    'npx',
    [
      'mocha',
      '--config',
      '.mocharc.unit.json',
      '--reporter',
      './out/test/support/countingReporter.js',
      '--reporter-option',
      'name=unit',
    ],
  ],
  ['conformance', 'node', ['out/test/conformance/runConformance.js']],
  ['editor-install', 'node', ['out/test/editor/harness/installEditor.js']],
  [
    'editor',
    'npx',
    [
      'mocha',
      '--config',
      '.mocharc.editor.json',
      '--reporter',
      './out/test/support/countingReporter.js',
      '--reporter-option',
      'name=editor',
    ],
  ],
];
const failedStages = [];
for (const [name, command, args] of stages) {
  console.log(`\n=== ${name} ===`);
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) {
    failedStages.push(name);
    // Without a build there is nothing to test.
    if (name === 'package' || name === 'compile-tests') break;
  }
}

let passed = 0;
let failed = 0;
for (const name of ['unit', 'conformance', 'editor', 'in-editor']) {
  const file = `${results}/${name}.json`;
  if (!existsSync(file)) continue;
  const counts = JSON.parse(readFileSync(file, 'utf8'));
  passed += counts.passes;
  failed += counts.failures;
}
// A stage that broke without reporting a test (lint, types, a crashed runner) still fails the run.
const broken = failedStages.filter((s) => !['unit', 'conformance', 'editor'].includes(s) || failed === 0);
if (broken.length > 0) console.log(`\nFailed stages: ${broken.join(', ')}`);
console.log(`\n${passed} passed, ${failed + broken.length} failed`);
process.exit(failed + broken.length > 0 ? 1 : 0);
