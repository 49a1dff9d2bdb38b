// docs/security.md maps each threat to the test that shows what MCP Host does about it: each test
// it names must still exist, so the map stays true.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../../..');

describe('the threat map in docs/security.md', () => {
  it('names, for every threat, a test that exists, or says why none covers it', () => {
    const doc = readFileSync(path.join(REPO, 'docs/security.md'), 'utf8');
    const section = doc.split('## Threats and the tests behind them')[1]?.split('\n## ')[0] ?? '';
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !/^\| (threat|---)/.test(line));
    assert.ok(rows.length >= 15, `the map has ${rows.length} rows`);
    for (const row of rows) {
      const cells = row.split(' | ');
      const test = cells[cells.length - 1].replace(/ \|$/, '');
      if (test === '—') {
        assert.match(row, /not covered/, `a row without a test says why: ${row}`);
        continue;
      }
      const named = /^`(test\/[^`]+)` › "([^"]+)"$/.exec(test);
      assert.ok(named, `a test cell reads \`file\` › "test name": ${test}`);
      const file = path.join(REPO, named[1]);
      assert.ok(existsSync(file), `${named[1]} exists`);
      assert.ok(readFileSync(file, 'utf8').includes(named[2]), `${named[1]} has a test "${named[2]}"`);
    }
  });
});
