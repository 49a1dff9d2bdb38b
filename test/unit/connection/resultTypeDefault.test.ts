import * as assert from 'node:assert/strict';
import { ResultTypeDefault } from '../../../src/core/connection/resultTypeDefault';

const request = (id: number, method: string, revision?: string) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: revision ? { _meta: { 'io.modelcontextprotocol/protocolVersion': revision } } : {},
});

describe('A 2026-07-28 result without resultType', () => {
  it('is read as complete for a request made at 2026-07-28, once said per method, and left alone otherwise', () => {
    const said: string[] = [];
    const defaults = new ResultTypeDefault((m) => said.push(m));
    defaults.sent(request(1, 'tools/call', '2026-07-28'));
    defaults.sent(request(2, 'tools/call', '2026-07-28'));
    defaults.sent(request(3, 'tools/call', '2025-11-25'));
    defaults.sent(request(4, 'tools/list', '2026-07-28'));
    const read = (message: object) => defaults.received(message) as { result?: Record<string, unknown> };
    assert.deepEqual(read({ jsonrpc: '2.0', id: 1, result: { content: [] } }).result, {
      content: [],
      resultType: 'complete',
    });
    assert.deepEqual(read({ jsonrpc: '2.0', id: 2, result: { content: [] } }).result, {
      content: [],
      resultType: 'complete',
    });
    // A 2025 request's answer, one that says its resultType, an error, a notification: unchanged.
    const legacy = { jsonrpc: '2.0', id: 3, result: { content: [] } };
    assert.equal(defaults.received(legacy), legacy);
    const input = { jsonrpc: '2.0', id: 4, result: { resultType: 'input_required', inputRequests: {} } };
    assert.equal(defaults.received(input), input);
    const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: {} };
    assert.equal(defaults.received(notification), notification);
    assert.equal(said.length, 1);
    assert.match(
      said[0],
      /^The server answered tools\/call without "resultType", which protocol revision 2026-07-28 requires; MCP Host reads it as "complete"/,
    );
    // An answer is matched once: a second answer with the same id is not touched.
    const again = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    assert.equal(defaults.received(again), again);
  });
});
