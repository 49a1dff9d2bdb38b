import * as assert from 'node:assert/strict';
import { ServerLists } from '../../../src/core/connection/serverLists';
import { DEFAULT_LIMITS } from '../../../src/core/config/serverDefinition';
import { dropUnusableTools, MAX_SCHEMA_DEPTH } from '../../../src/core/connection/toolListLimits';

const MAX_TOOLS_PER_PAGE = DEFAULT_LIMITS.maxTools;
import { connect, disposeConnections } from '../support/connections';
import { fixture, RecordingLog, stdioDefinition } from '../support/fixtures';

/** A schema exactly `depth` JSON levels deep. */
const nested = (depth: number): unknown => {
  let schema: unknown = { type: 'string' };
  for (let i = 1; i < depth; i++) schema = { type: 'array', items: schema };
  return schema;
};

describe('tools nothing could use safely', function () {
  this.timeout(30_000);
  afterEach(disposeConnections);

  it("drops a tool whose schema nests 10,000 levels deep and keeps the server's other tools (real server, raw stdio)", async () => {
    const { connection, log } = connect(
      stdioDefinition('deep', fixture('legacyStdio'), { args: ['--deep-schema-tool', '10000'] }),
    );
    await connection.start();
    const snapshot = connection.snapshot();
    assert.equal(snapshot.status, 'running');
    assert.equal(snapshot.listProblems, undefined);
    assert.ok(snapshot.tools.some((t) => t.name === 'echo'));
    assert.ok(!snapshot.tools.some((t) => t.name === 'deep'));
    assert.match(
      log.text(),
      new RegExp(
        `Tool "deep" was left out: its schema nests deeper than ${MAX_SCHEMA_DEPTH} levels\\. The server's other tools are unaffected\\.`,
      ),
    );
    const result = await connection.request('tools/call', (client, options) =>
      client.callTool({ name: 'echo', arguments: { text: 'still here' } }, options),
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'still here' }]);
  });

  it('keeps schemas at the depth limit and drops the ones past it', () => {
    const log = new RecordingLog();
    const message = {
      result: {
        tools: [
          { name: 'ok', inputSchema: nested(MAX_SCHEMA_DEPTH) },
          { name: 'too-deep', outputSchema: nested(MAX_SCHEMA_DEPTH + 1) },
        ],
      },
    };
    dropUnusableTools(message, log);
    assert.deepEqual(
      message.result.tools.map((t) => t.name),
      ['ok'],
    );
    assert.match(log.text(), /Tool "too-deep" was left out/);
  });

  it('drops a tool whose schema is too large, and tools past the per-page limit', () => {
    const log = new RecordingLog();
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`p${i}`, { type: 'string' }])),
    };
    const tools = [
      { name: 'wide', inputSchema: wide },
      ...Array.from({ length: MAX_TOOLS_PER_PAGE + 10 }, (_, i) => ({
        name: `t${i}`,
        inputSchema: { type: 'object' },
      })),
    ];
    const message = { result: { tools } };
    dropUnusableTools(message, log);
    assert.equal(message.result.tools.length, MAX_TOOLS_PER_PAGE - 1);
    assert.equal(message.result.tools[0].name, 't0');
    assert.match(
      log.text(),
      new RegExp(`listed ${MAX_TOOLS_PER_PAGE + 11} tools in one page; only the first ${MAX_TOOLS_PER_PAGE} are used`),
    );
    assert.match(log.text(), /Tool "wide" was left out: its schema has more than 50000 parts/);
  });

  it('takes the per-page limit from the settings (limits.maxTools)', () => {
    const log = new RecordingLog();
    const message = {
      result: { tools: Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) },
    };
    dropUnusableTools(message, log, 5);
    assert.deepEqual(
      message.result.tools.map((t) => t.name),
      ['t0', 't1', 't2', 't3', 't4'],
    );
    assert.match(log.text(), /listed 12 tools in one page; only the first 5 are used \(limits\.maxTools\)/);
  });

  it("says that a server's list is cut once, not at every list it sends again", () => {
    const log = new RecordingLog();
    const lists = new ServerLists(
      log,
      1_000,
      () => undefined,
      () => undefined,
      5,
    );
    const page = () => ({
      result: { tools: Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) },
    });
    for (let i = 0; i < 3; i++) lists.observeIncoming(page());
    assert.equal(log.text().match(/only the first 5 are used/g)?.length, 1);
  });

  it('leaves every other message alone', () => {
    const log = new RecordingLog();
    const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } };
    dropUnusableTools(message, log);
    assert.deepEqual(message, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } });
    assert.equal(log.lines.length, 0);
  });
});
