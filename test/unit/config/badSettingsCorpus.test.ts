import * as assert from 'node:assert/strict';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

const big = (n: number) => 'x'.repeat(n);
const cmd = { command: 'node' };
const web = { url: 'https://example.com/mcp' };

/**
 * Malformed entries, each with the field its message must name (undefined: the entry as a
 * whole) and what the message must say. Every one is refused when settings are applied, never
 * only when the server starts.
 */
const CORPUS: [string, unknown, string | undefined, RegExp][] = [
  ['not an object', 'npx server', undefined, /must be an object with "command" or "url" \(got "npx server"\)/],
  ['an array', ['npx'], undefined, /must be an object/],
  ['null', null, undefined, /must be an object/],
  ['empty object', {}, 'command', /is required for a stdio server/],
  ['command number', { command: 42 }, 'command', /must be a string \(got number 42\)/],
  ['command empty', { command: '' }, 'command', /must NOT have fewer than 1 characters/],
  [
    'command 10 MB',
    { command: big(10 * 1024 * 1024) },
    'command',
    /must be at most 4096 characters long \(got 10485760\)$/,
  ],
  ['args not array', { ...cmd, args: 'a b' }, 'args', /must be an array/],
  ['args item number', { ...cmd, args: ['a', 1] }, 'args[1]', /must be a string/],
  [
    'args too many',
    { ...cmd, args: Array.from({ length: 1001 }, () => 'a') },
    'args',
    /may list at most 1000 items \(got 1001\)/,
  ],
  ['args item too long', { ...cmd, args: [big(40_000)] }, 'args[0]', /must be at most 32768 characters long/],
  ['env not object', { ...cmd, env: ['A=1'] }, 'env', /must be an object/],
  ['env value number', { ...cmd, env: { PORT: 3000 } }, 'env.PORT', /must be a string or a null/],
  ['env value object', { ...cmd, env: { A: {} } }, 'env.A', /must be a string or a null/],
  [
    'env name with =',
    { ...cmd, env: { 'A=B': '1' } },
    'env',
    /has an entry named "A=B": characters that are not allowed there/,
  ],
  [
    'env too many',
    { ...cmd, env: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`V${i}`, '1'])) },
    'env',
    /may have at most 1000 entries \(got 1001\)/,
  ],
  ['env value too long', { ...cmd, env: { A: big(40_000) } }, 'env.A', /must be at most 32768 characters long/],
  ['envFile number', { ...cmd, envFile: 1 }, 'envFile', /must be a string/],
  ['cwd number', { ...cmd, cwd: 7 }, 'cwd', /must be a string/],
  ['cwd too long', { ...cmd, cwd: big(5000) }, 'cwd', /must be at most 4096 characters long/],
  ['type unknown', { ...cmd, type: 'websocket' }, 'type', /must be one of "stdio", "http", "sse"/],
  ['url with command', { ...cmd, url: 'https://x/mcp' }, 'url', /cannot be combined with "command"/],
  ['headers on stdio', { ...cmd, headers: { A: 'b' } }, 'headers', /only applies to HTTP servers/],
  ['url number', { url: 5 }, 'url', /must be a string/],
  ['url ftp', { url: 'ftp://example.com/mcp' }, 'url', /must be an http:\/\/ or https:\/\/ URL/],
  ['url relative', { url: 'example.com/mcp' }, 'url', /must be an http:\/\/ or https:\/\/ URL/],
  ['url too long', { url: `https://example.com/${big(5000)}` }, 'url', /must be at most 4096 characters long/],
  ['http without url', { type: 'http' }, 'url', /is required when "type" is "http"/],
  ['sse without url', { type: 'sse' }, 'url', /is required when "type" is "sse"/],
  ['args on http', { ...web, args: ['a'] }, 'args', /only applies to stdio servers/],
  ['env on http', { ...web, env: { A: '1' } }, 'env', /only applies to stdio servers/],
  ['cwd on http', { ...web, cwd: '/tmp' }, 'cwd', /only applies to stdio servers/],
  ['headers not object', { ...web, headers: 'Authorization: x' }, 'headers', /must be an object/],
  ['header value number', { ...web, headers: { 'X-N': 1 } }, 'headers.X-N', /must be a string/],
  [
    'header name with space',
    { ...web, headers: { 'Bad Name': 'x' } },
    'headers',
    /has an entry named "Bad Name": characters that are not allowed there/,
  ],
  [
    'header value too long',
    { ...web, headers: { A: big(20_000) } },
    'headers.A',
    /must be at most 16384 characters long/,
  ],
  ['enabled string', { ...cmd, enabled: 'yes' }, 'enabled', /must be a boolean/],
  [
    'autoStart number',
    { ...cmd, autoStart: 1 },
    'autoStart',
    /must be one of true, false, "startup", "onDemand" \(got number 1\)/,
  ],
  ['requestTimeoutMs string', { ...cmd, requestTimeoutMs: '60s' }, 'requestTimeoutMs', /must be an integer/],
  ['requestTimeoutMs too small', { ...cmd, requestTimeoutMs: 10 }, 'requestTimeoutMs', /must be >= 1000/],
  ['requestTimeoutMs too big', { ...cmd, requestTimeoutMs: 3_000_000_000 }, 'requestTimeoutMs', /must be <= 3600000/],
  ['requestTimeoutMs fraction', { ...cmd, requestTimeoutMs: 1500.5 }, 'requestTimeoutMs', /must be an integer/],
  ['startTimeoutMs too big', { ...cmd, startTimeoutMs: 99_999_999 }, 'startTimeoutMs', /must be <= 3600000/],
  [
    'maxTotalTimeoutMs too big',
    { ...cmd, maxTotalTimeoutMs: 3_000_000_000 },
    'maxTotalTimeoutMs',
    /must be <= 86400000 \(got number 3000000000\)/,
  ],
  ['maxTotalTimeoutMs negative', { ...cmd, maxTotalTimeoutMs: -1 }, 'maxTotalTimeoutMs', /must be >= 1000/],
  ['roots not array', { ...cmd, roots: '/tmp' }, 'roots', /must be an array/],
  ['roots item number', { ...cmd, roots: [1] }, 'roots[0]', /must be a string/],
  [
    'roots too many',
    { ...cmd, roots: Array.from({ length: 101 }, (_, i) => `/r${i}`) },
    'roots',
    /may list at most 100 items/,
  ],
  ['autoApprove string', { ...cmd, autoApprove: '*' }, 'autoApprove', /must be an array/],
  ['autoApprove empty name', { ...cmd, autoApprove: [''] }, 'autoApprove[0]', /must NOT have fewer than 1 characters/],
  ['trusted string', { ...cmd, trusted: 'true' }, 'trusted', /must be a boolean/],
  ['restart not object', { ...cmd, restart: true }, 'restart', /must be an object/],
  ['restart unknown field', { ...cmd, restart: { retries: 3 } }, 'restart.retries', /is not a known field/],
  ['restart maxRestarts too big', { ...cmd, restart: { maxRestarts: 1000 } }, 'restart.maxRestarts', /must be <= 100/],
  [
    'restart windowMs too big',
    { ...cmd, restart: { windowMs: 3_000_000_000 } },
    'restart.windowMs',
    /must be <= 86400000/,
  ],
  [
    'restart initialDelayMs too big',
    { ...cmd, restart: { initialDelayMs: 10_000_000 } },
    'restart.initialDelayMs',
    /must be <= 3600000/,
  ],
  ['restart maxDelayMs negative', { ...cmd, restart: { maxDelayMs: -5 } }, 'restart.maxDelayMs', /must be >= 0/],
  ['restart enabled string', { ...cmd, restart: { enabled: 'no' } }, 'restart.enabled', /must be a boolean/],
  [
    'sampling mode unknown',
    { ...cmd, sampling: { mode: 'always' } },
    'sampling.mode',
    /must be one of "ask", "allowAlways", "deny"/,
  ],
  ['sampling models string', { ...cmd, sampling: { models: 'gpt' } }, 'sampling.models', /must be an array/],
  [
    'sampling rate zero',
    { ...cmd, sampling: { maxRequestsPerMinute: 0 } },
    'sampling.maxRequestsPerMinute',
    /must be >= 1/,
  ],
  [
    'sampling rate too big',
    { ...cmd, sampling: { maxRequestsPerMinute: 1_000_000 } },
    'sampling.maxRequestsPerMinute',
    /must be <= 10000/,
  ],
  ['sampling unknown field', { ...cmd, sampling: { temperature: 1 } }, 'sampling.temperature', /is not a known field/],
  [
    'elicitation rate too big',
    { ...cmd, elicitation: { maxRequestsPerMinute: 1e9 } },
    'elicitation.maxRequestsPerMinute',
    /must be <= 10000/,
  ],
  ['elicitation unknown field', { ...cmd, elicitation: { mode: 'form' } }, 'elicitation.mode', /is not a known field/],
  ['unknown field with a near name', { ...cmd, arg: ['x'] }, 'arg', /is not a known field \(did you mean "args"\?\)/],
  ['unknown field', { ...cmd, enabledd: true }, 'enabledd', /is not a known field/],
  // Other hosts' fields, pasted: what MCP Host calls them.
  [
    'another host\'s "transport"',
    { ...cmd, transport: 'stdio' },
    'transport',
    /is not a known field; "type" names the transport \("stdio", "http" or "sse"\)$/,
  ],
  [
    'another host\'s "serverUrl"',
    { serverUrl: 'https://example.com/mcp' },
    'serverUrl',
    /is not a known field; the address of an HTTP server goes in "url"$/,
  ],
  [
    'another host\'s "disabled"',
    { ...cmd, disabled: true },
    'disabled',
    /is not a known field; write "enabled": false to turn a server off$/,
  ],
  [
    'another host\'s "alwaysAllow"',
    { ...cmd, alwaysAllow: ['read'] },
    'alwaysAllow',
    /is not a known field; list the tools that run without asking in "autoApprove"$/,
  ],
  [
    'another host\'s "timeout"',
    { ...cmd, timeout: 60 },
    'timeout',
    /is not a known field; "requestTimeoutMs" says how long a request may take, in milliseconds$/,
  ],
  [
    'another host\'s "streamableHttp"',
    { type: 'streamableHttp', url: 'https://example.com/mcp' },
    'type',
    /must be one of "stdio", "http", "sse" \(got "streamableHttp"\); Streamable HTTP is "http"$/,
  ],
  [
    'a command line as an array',
    { command: ['npx', '-y', 'x'] },
    'command',
    /must be a string \(got an array\); put the program in "command" and its arguments in "args"$/,
  ],
  [
    'arguments as one string',
    { ...cmd, args: '-y @scope/server' },
    'args',
    /must be an array \(got "-y @scope\/server"\); list the arguments one by one: \["-y","@scope\/server"\]$/,
  ],
  ['${env:} without a name', { ...cmd, env: { T: '${env:}' } }, 'env.T', /uses \$\{env:\} without a variable name/],
  [
    '${env:} with a bad name',
    { ...cmd, args: ['${env:MY-VAR}'] },
    'args[0]',
    /uses \$\{env:MY-VAR\}, which is not a valid environment variable name/,
  ],
  [
    '${input:} without an id',
    { ...web, headers: { Authorization: 'Bearer ${input:}' } },
    'headers.Authorization',
    /uses \$\{input:\} without an id/,
  ],
  [
    '${workspaceFolder:} without a name',
    { ...cmd, cwd: '${workspaceFolder:}' },
    'cwd',
    /uses \$\{workspaceFolder:\} without a folder name/,
  ],
  [
    'unknown variable',
    { ...cmd, args: ['${home}'] },
    'args[0]',
    /uses the unknown variable \$\{home\} \(known: workspaceFolder/,
  ],
  ['unknown variable in url', { url: 'https://${host}/mcp' }, 'url', /uses the unknown variable \$\{host\}/],
  [
    'a shell-style environment variable',
    { ...cmd, env: { TOKEN: '${GITHUB_TOKEN}' } },
    'env.TOKEN',
    /uses the unknown variable \$\{GITHUB_TOKEN\} \(known: .*\); to read the environment variable GITHUB_TOKEN, write \$\{env:GITHUB_TOKEN\}$/,
  ],
  [
    'unclosed variable',
    { ...cmd, envFile: '${workspaceFolder/.env' },
    'envFile',
    /has a "\$\{" without its closing "\}"/,
  ],
  [
    'unclosed variable after a good one',
    { ...cmd, command: '${userHome}/bin/${x' },
    'command',
    /has a "\$\{" without its closing "\}"/,
  ],
  [
    'variable in roots',
    { ...cmd, roots: ['${workspacefolder}'] },
    'roots[0]',
    /uses the unknown variable \$\{workspacefolder\}/,
  ],
  ['limits not object', { ...cmd, limits: 5 }, 'limits', /must be an object/],
  ['limits unknown field', { ...cmd, limits: { maxSize: 1 } }, 'limits.maxSize', /is not a known field/],
  ['limits maxMessageMB too big', { ...cmd, limits: { maxMessageMB: 4096 } }, 'limits.maxMessageMB', /must be <= 1024/],
  [
    'limits logLinesPerSecond zero',
    { ...cmd, limits: { logLinesPerSecond: 0 } },
    'limits.logLinesPerSecond',
    /must be >= 1/,
  ],
  ['limits maxTools fraction', { ...cmd, limits: { maxTools: 10.5 } }, 'limits.maxTools', /must be an integer/],
  [
    'healthCheck without interval',
    { ...cmd, healthCheck: { timeoutSeconds: 5 } },
    'healthCheck',
    /must have required property 'intervalSeconds'/,
  ],
  [
    'healthCheck interval too short',
    { ...cmd, healthCheck: { intervalSeconds: 1 } },
    'healthCheck.intervalSeconds',
    /must be >= 5/,
  ],
  [
    'healthCheck timeout too long',
    { ...cmd, healthCheck: { intervalSeconds: 30, timeoutSeconds: 3600 } },
    'healthCheck.timeoutSeconds',
    /must be <= 600/,
  ],
  ['sandbox string', { ...cmd, sandbox: 'yes' }, 'sandbox', /must be a boolean or an object/],
  ['sandbox unknown field', { ...cmd, sandbox: { net: {} } }, 'sandbox.net', /is not a known field/],
  [
    'sandbox path not a string',
    { ...cmd, sandbox: { filesystem: { allowWrite: [7] } } },
    'sandbox.filesystem.allowWrite[0]',
    /must be a string/,
  ],
  [
    'sandbox domain as a URL',
    { ...cmd, sandbox: { network: { allowedDomains: ['https://api.github.com'] } } },
    'sandbox.network.allowedDomains[0]',
    /must be a host name, `\*\.` and a domain, or an IP address/,
  ],
  [
    'sandbox on an HTTP server',
    { ...web, sandbox: true },
    'sandbox',
    /only applies to stdio servers \("command"\), not to type "http"/,
  ],
  [
    'sandbox path variable unknown',
    { ...cmd, sandbox: { filesystem: { allowRead: ['${workspace}'] } } },
    'sandbox.filesystem.allowRead[0]',
    /uses the unknown variable \$\{workspace\}/,
  ],
];

describe('a corpus of bad settings', function () {
  this.timeout(60_000);
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it(`refuses each of ${CORPUS.length} malformed entries when settings are applied, naming the server and the field, and leaves a valid server alone`, async () => {
    assert.ok(CORPUS.length >= 70);
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ good: legacy() }));
    const pid = (await running(host, 'good')).pid;
    const wrong: string[] = [];
    for (const [name, raw, field, expected] of CORPUS) {
      const errors = await host.applySettings(entries({ good: legacy(), bad: raw }));
      const message = errors.map((e) => e.message).join(' | ');
      const prefix = field === undefined ? 'MCP server "bad": ' : `MCP server "bad": "${field}" `;
      if (errors.length !== 1 || !message.startsWith(prefix) || !expected.test(message))
        wrong.push(`${name}: ${message.slice(0, 300) || '(accepted)'}`);
      // Never megabytes of the value in a message or a status line.
      if (message.length > 600) wrong.push(`${name}: a message of ${message.length} characters`);
      const bad = host.server('bad');
      if (bad?.status !== 'invalid' || (bad.reason?.length ?? 0) > 600)
        wrong.push(`${name}: the row shows ${bad?.status} (${bad?.reason?.length} characters)`);
      const good = host.server('good');
      if (good?.status !== 'running' || good.pid !== pid)
        wrong.push(`${name}: the valid server was touched (${good?.status}, pid ${good?.pid})`);
    }
    assert.deepEqual(wrong, []);
  });
});
