import * as assert from 'node:assert/strict';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';

function check(raw: unknown, id = 'srv') {
  return validateServerEntry({ id, scope: 'user', raw });
}

function errorOf(raw: unknown, id = 'srv'): string {
  const result = check(raw, id);
  assert.equal(result.ok, false, 'expected a validation error');
  return result.ok ? '' : result.error.message;
}

describe('validateServerEntry', () => {
  it('accepts the ecosystem shape for a stdio server and fills defaults', () => {
    const result = check({
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { TOKEN: '${env:TOKEN}' },
      envFile: '${workspaceFolder}/.env',
      cwd: '${workspaceFolder}',
    });
    assert.ok(result.ok);
    assert.equal(result.definition.transport, 'stdio');
    assert.deepEqual(result.definition.args, ['-y', 'pkg']);
    assert.equal(result.definition.enabled, true);
    assert.equal(result.definition.autoStart, 'startup');
    assert.equal(result.definition.requestTimeoutMs, 60_000);
    assert.equal(result.definition.restart.maxRestarts, 5);
  });

  it("starts a server whose entry has no autoStart as mcpHost.autoStart says, and an entry's own autoStart wins", () => {
    const start = (raw: Record<string, unknown>, autoStartDefault?: 'startup' | 'onDemand') => {
      const result = validateServerEntry({
        id: 'srv',
        scope: 'user',
        raw: { command: 'node', ...raw },
        autoStartDefault,
      });
      assert.ok(result.ok);
      return result.definition.autoStart;
    };
    assert.deepEqual(
      [
        start({}, 'onDemand'),
        start({}, 'startup'),
        start({}),
        start({ autoStart: true }, 'onDemand'),
        start({ autoStart: 'startup' }, 'onDemand'),
        start({ autoStart: false }, 'onDemand'),
        start({ autoStart: 'onDemand' }, 'startup'),
      ],
      ['onDemand', 'startup', 'startup', 'startup', 'startup', 'never', 'onDemand'],
    );
  });

  it('takes dev mode for stdio servers, with the default debounce, and says what is wrong with it', () => {
    const result = check({ command: 'node', args: ['dist/index.js'], dev: { watch: ['src/**/*.ts'] } });
    assert.ok(result.ok);
    assert.deepEqual(result.definition.dev, { watch: ['src/**/*.ts'], debounceMs: 500, debug: false });
    const plain = check({ command: 'node' });
    assert.ok(plain.ok);
    assert.equal(plain.definition.dev, undefined);
    assert.equal(
      errorOf({ url: 'https://x.test/mcp', dev: { watch: ['a'] } }),
      'MCP server "srv": "dev" only applies to stdio servers ("command"), not to type "http"',
    );
    assert.match(errorOf({ command: 'node', dev: { watch: [] } }), /MCP server "srv": "dev\.watch"/);
    assert.match(
      errorOf({ command: 'node', dev: { watch: ['a'], debounceMs: 10 } }),
      /MCP server "srv": "dev\.debounceMs"/,
    );
  });

  it('infers http from url, and accepts sse explicitly', () => {
    const http = check({ url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:tok}' } });
    assert.ok(http.ok);
    assert.equal(http.definition.transport, 'http');
    const sse = check({ type: 'sse', url: 'http://127.0.0.1:3001/sse' });
    assert.ok(sse.ok);
    assert.equal(sse.definition.transport, 'sse');
  });

  it('names the server and the field for a wrong type', () => {
    assert.equal(errorOf({ command: 42 }, 'bad'), 'MCP server "bad": "command" must be a string (got number 42)');
    assert.equal(
      errorOf({ command: 'x', args: ['ok', 7] }),
      'MCP server "srv": "args[1]" must be a string (got number 7)',
    );
    assert.equal(
      errorOf({ command: 'x', restart: { maxRestarts: 'many' } }),
      'MCP server "srv": "restart.maxRestarts" must be an integer (got "many")',
    );
  });

  it('echoes an id bounded and with its control characters visible, and refuses one over 128 characters', () => {
    const long = 'a'.repeat(10_000);
    const error = errorOf({ command: 'x' }, long);
    assert.equal(
      error,
      `MCP server "${'a'.repeat(80)}… (9,920 more characters cut)": the id is 10000 characters long; use at most 128`,
    );
    assert.equal(
      errorOf({ command: 'x' }, 'red\u001b[31m'),
      'MCP server "red\\u001b[31m": the id may only use letters, digits, "_", "." and "-", and must start with a letter or digit',
    );
  });

  it('refuses an env or headers name "__proto__", which would be lost silently', () => {
    assert.match(
      errorOf({ command: 'x', env: JSON.parse('{"__proto__": "x"}') }),
      /^MCP server "srv": "env\.__proto__" is a name MCP Host cannot pass on .*; rename it$/,
    );
  });

  it('takes an oauth object for HTTP servers only, and names its bad fields', () => {
    const ok = check({
      url: 'https://mcp.example.com/mcp',
      oauth: { clientId: 'c', clientSecret: '${input:s}', scopes: ['read'], redirectPort: 40000 },
    });
    assert.ok(ok.ok);
    assert.deepEqual(ok.ok && ok.definition.oauth, {
      clientId: 'c',
      clientSecret: '${input:s}',
      scopes: ['read'],
      redirectPort: 40000,
    });
    assert.equal(
      errorOf({ command: 'npx', oauth: {} }),
      'MCP server "srv": "oauth" only applies to HTTP servers ("url")',
    );
    assert.equal(
      errorOf({ url: 'https://x/mcp', oauth: { redirectPort: 80 } }),
      'MCP server "srv": "oauth.redirectPort" must be >= 1024 (got number 80)',
    );
    assert.equal(
      errorOf({ url: 'https://x/mcp', oauth: { grant: 'password' } }),
      'MCP server "srv": "oauth.grant" must be one of "authorizationCode", "clientCredentials", "crossAppAccess", "workloadIdentity" (got "password")',
    );
    assert.equal(
      errorOf({ url: 'https://x/mcp', oauth: { clientMetadataUrl: 'http://x/meta.json' } }),
      'MCP server "srv": "oauth.clientMetadataUrl" must be an https:// URL with a path (got "http://x/meta.json")',
    );
    assert.equal(
      errorOf({ url: 'https://x/mcp', oauth: { clientSecret: '${input:}' } }),
      'MCP server "srv": "oauth.clientSecret" uses ${input:} without an id',
    );
  });

  it('suggests the field the user probably meant', () => {
    assert.equal(
      errorOf({ comand: 'npx' }),
      'MCP server "srv": "comand" is not a known field (did you mean "command"?)',
    );
  });

  it('rejects an enum value outside the list and out-of-range numbers', () => {
    assert.equal(
      errorOf({ type: 'websocket', url: 'ws://x' }),
      'MCP server "srv": "type" must be one of "stdio", "http", "sse" (got "websocket")',
    );
    assert.match(
      errorOf({ command: 'x', requestTimeoutMs: 5 }),
      /^MCP server "srv": "requestTimeoutMs" must be >= 1000 \(got number 5\)$/,
    );
  });

  it('reads the sampling policy: ask and review by default, review off with allowAlways unless set', () => {
    const policy = (sampling?: unknown) => {
      const result = check({ command: 'x', ...(sampling === undefined ? {} : { sampling }) });
      assert.ok(result.ok);
      return result.definition.samplingPolicy;
    };
    assert.deepEqual(policy(), { mode: 'ask', models: [], reviewResponse: true, maxRequestsPerMinute: undefined });
    assert.deepEqual(policy({ mode: 'allowAlways' }), {
      mode: 'allowAlways',
      models: [],
      reviewResponse: false,
      maxRequestsPerMinute: undefined,
    });
    assert.deepEqual(
      policy({ mode: 'allowAlways', reviewResponse: true, models: ['gpt-4o'], maxRequestsPerMinute: 5 }),
      { mode: 'allowAlways', models: ['gpt-4o'], reviewResponse: true, maxRequestsPerMinute: 5 },
    );
    assert.equal(
      errorOf({ command: 'x', sampling: { mode: 'sometimes' } }),
      'MCP server "srv": "sampling.mode" must be one of "ask", "allowAlways", "deny" (got "sometimes")',
    );
    assert.equal(
      errorOf({ command: 'x', sampling: { maxRequestsPerMinute: 0 } }),
      'MCP server "srv": "sampling.maxRequestsPerMinute" must be >= 1 (got number 0)',
    );
    assert.equal(
      errorOf({ command: 'x', sampling: { reviewResponses: true } }),
      'MCP server "srv": "sampling.reviewResponses" is not a known field',
    );
  });

  it('reads the elicitation limit, 30 a minute by default', () => {
    const limit = (elicitation?: unknown) => {
      const result = check({ command: 'x', ...(elicitation === undefined ? {} : { elicitation }) });
      assert.ok(result.ok);
      return result.definition.elicitationsPerMinute;
    };
    assert.equal(limit(), 30);
    assert.equal(limit({ maxRequestsPerMinute: 3 }), 3);
    assert.equal(
      errorOf({ command: 'x', elicitation: { maxRequestsPerMinute: 'lots' } }),
      'MCP server "srv": "elicitation.maxRequestsPerMinute" must be an integer (got "lots")',
    );
  });

  it('requires command or url, and keeps stdio and http fields apart', () => {
    assert.equal(
      errorOf({}),
      'MCP server "srv": "command" is required for a stdio server (or set "url" for an HTTP server)',
    );
    assert.equal(errorOf({ type: 'http' }), 'MCP server "srv": "url" is required when "type" is "http"');
    assert.equal(
      errorOf({ url: 'https://x.test/mcp', command: 'npx' }),
      'MCP server "srv": "url" cannot be combined with "command"; use one or the other',
    );
    assert.equal(
      errorOf({ type: 'http', url: 'https://x.test/mcp', args: [] }),
      'MCP server "srv": "args" only applies to stdio servers ("command"), not to type "http"',
    );
    assert.equal(
      errorOf({ url: 'ftp://x.test/mcp' }),
      'MCP server "srv": "url" must be an http:// or https:// URL (got "ftp://x.test/mcp")',
    );
  });

  it('rejects entries that are not objects and ids with odd characters', () => {
    assert.equal(
      errorOf('npx server'),
      'MCP server "srv": must be an object with "command" or "url" (got "npx server")',
    );
    assert.match(errorOf({ command: 'x' }, 'has space'), /MCP server "has space": the id may only use letters/);
  });
});
