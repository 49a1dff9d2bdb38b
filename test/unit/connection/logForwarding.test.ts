import * as assert from 'node:assert/strict';
import { forwardedLogMessages, type ForwardedLogMessage } from '../../../src/core/connection/logForwarding';

describe("forwardedLogMessages: a server's log lines as other clients get them", () => {
  const secrets = [{ value: 'hunter2-token', placeholder: '${input:token}' }];

  it('passes each line on as text, its secrets as placeholders, cut at the line bound', () => {
    const sent: ForwardedLogMessage[] = [];
    const forward = forwardedLogMessages((m) => sent.push(m), { maxLineLength: 40, maxLinesPerSecond: 10 }, secrets);
    forward({ level: 'info', logger: 'db', data: 'connected with hunter2-token' });
    forward({ level: 'warning', data: { retry: 3 } });
    forward({ level: 'error', data: 'x'.repeat(100) });
    assert.deepEqual(sent, [
      { level: 'info', logger: 'db', data: 'connected with ${input:token}' },
      { level: 'warning', data: '{"retry":3}' },
      { level: 'error', data: `${'x'.repeat(40)}… (60 more characters cut)` },
    ]);
  });

  it('passes at most the bound of lines in a second, and as many again in the next', () => {
    let time = 0;
    const sent: ForwardedLogMessage[] = [];
    const forward = forwardedLogMessages(
      (m) => sent.push(m),
      { maxLineLength: 100, maxLinesPerSecond: 3 },
      [],
      () => time,
    );
    for (let i = 0; i < 10; i++) forward({ level: 'info', data: `a${i}` });
    time = 1_000;
    for (let i = 0; i < 10; i++) forward({ level: 'info', data: `b${i}` });
    assert.deepEqual(
      sent.map((m) => m.data),
      ['a0', 'a1', 'a2', 'b0', 'b1', 'b2'],
    );
  });
});
