// In-editor suites: mocha inside the extension host. Exports run() so @vscode/test-electron's
// runTests could run it too; here the test-host extension calls it when the runner asks.
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteResult {
  readonly passed: number;
  readonly failed: number;
  readonly tests: { title: string; state: 'passed' | 'failed'; error?: string }[];
}

export function run(options: { grep?: string } = {}): Promise<SuiteResult> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec', grep: options.grep });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js'))) {
    const full = path.join(__dirname, file);
    delete require.cache[require.resolve(full)];
    mocha.addFile(full);
  }
  const tests: SuiteResult['tests'] = [];
  return new Promise((resolve) => {
    const runner = mocha.run(() => {
      resolve({
        passed: tests.filter((t) => t.state === 'passed').length,
        failed: tests.filter((t) => t.state === 'failed').length,
        tests,
      });
    });
    runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed' }));
    runner.on('fail', (test, error) =>
      tests.push({ title: test.fullTitle(), state: 'failed', error: String(error?.stack ?? error) }),
    );
  });
}
