// Mocha's spec output, plus the counts written to test-results/<name>.json for the run's summary line.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const name = (options.reporterOptions as { name?: string } | undefined)?.name ?? 'mocha';
    runner.once('end', () => {
      const dir = path.resolve(__dirname, '../../../test-results');
      mkdirSync(dir, { recursive: true });
      const stats = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      writeFileSync(
        path.join(dir, `${name}.json`),
        JSON.stringify({ passes: stats.passes, failures: stats.failures, pending: stats.pending }),
      );
    });
  }
}

module.exports = CountingReporter;
