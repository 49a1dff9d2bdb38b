import * as assert from 'node:assert/strict';
import { BoundedServerLog } from '../../../src/core/connection/boundedLog';
import { fixture, RecordingLog, waitFor } from '../support/fixtures';
import { entries, harness, hosts, node, running } from '../support/hostHarness';

describe('a server’s log has limits', () => {
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it('cuts long lines saying how much was left out, drops a flood past the rate and counts it in one line, and never drops errors', () => {
    const inner = new RecordingLog();
    let now = 10_000;
    const log = new BoundedServerLog(inner, { maxLineLength: 100, maxLinesPerSecond: 5 }, () => now);
    log.info('x'.repeat(250));
    for (let i = 0; i < 9; i++) log.info(`line ${i}`);
    log.error('the host’s own error');
    now += 1_000;
    log.info('after the flood');
    const lines = inner.lines;
    assert.deepEqual(lines, [
      `info ${'x'.repeat(100)}… (150 more characters)`,
      'info line 0',
      'info line 1',
      'info line 2',
      'info line 3',
      'error the host’s own error',
      'warn 5 log line(s) dropped: more than 5 in a second.',
      'info after the flood',
    ]);
  });

  it('keeps a real server’s flood of stderr and a 2 MB line from filling the output channel', async function () {
    this.timeout(30_000);
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({
        loud: {
          command: node,
          args: [fixture('legacyStdio'), '--stderr-flood', '5000', '--stderr-long-line', '2000000'],
        },
      }),
    );
    await running(host, 'loud');
    const log = env.logFor('loud') as RecordingLog;
    await waitFor(
      'the dropped-lines count',
      () => /log line\(s\) dropped: more than 200 in a second/.test(log.text()),
      5_000,
    );
    const lines = log.lines;
    assert.ok(
      lines.every((line) => line.length < 8_200),
      `longest line: ${Math.max(...lines.map((l) => l.length))}`,
    );
    assert.ok(lines.length < 1_000, `${lines.length} lines`);
    assert.match(log.text(), /fixture: long x+… \(\d+ more characters\)/);
  });
});
