import * as assert from 'node:assert/strict';
import { lastOutput, outputCause } from '../../../src/core/connection/outputCause';

// What a failed process printed, as stderr tails (the last 20 lines, as `StderrTail` keeps them).
const NPM_UNREACHABLE = [
  'npm error code ECONNREFUSED',
  'npm error syscall connect',
  'npm error errno ECONNREFUSED',
  'npm error FetchError: request to http://127.0.0.1:9/@acme%2fserver-wether failed, reason: connect ECONNREFUSED 127.0.0.1:9',
  'npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)',
  'npm error     at ClientRequest.emit (node:events:524:28)',
  'npm error     at process.processTicksAndRejections (node:internal/process/task_queues:83:21) {',
  "npm error   code: 'ECONNREFUSED',",
  "npm error   errno: 'ECONNREFUSED',",
  "npm error   syscall: 'connect',",
  "npm error   address: '127.0.0.1',",
  'npm error   port: 9,',
  "npm error   type: 'system'",
  'npm error }',
  'npm error',
  "npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.  See: 'npm help config'",
  'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-29T05_02_01_447Z-debug-0.log',
];

describe("a failed process's output names its cause", () => {
  it('ends the cause with the sentence that says why, not the words that lead into a list of paths', () => {
    // A native addon that was not built (better-sqlite3, sqlite3), as Node prints its crash.
    const tail = [
      '/home/u/.npm/_npx/1/node_modules/bindings/bindings.js:126',
      '  err = new Error(',
      '        ^',
      '',
      'Error: Could not locate the bindings file. Tried:',
      ' → /home/u/.npm/_npx/1/node_modules/sqlite3/build/node_sqlite3.node',
      ' → /home/u/.npm/_npx/1/node_modules/sqlite3/build/Release/node_sqlite3.node',
      '    at bindings (/home/u/.npm/_npx/1/node_modules/bindings/bindings.js:126:9)',
      '    at Object.<anonymous> (/home/u/.npm/_npx/1/node_modules/sqlite3/lib/sqlite3-binding.js:1:37)',
      '',
      'Node.js v20.20.2',
    ];
    assert.equal(outputCause(tail), 'Could not locate the bindings file.');
    assert.equal(
      lastOutput(tail),
      " (cause: Error: Could not locate the bindings file.; the whole output is in the server's log)",
    );
    // A line that is all lead-in stays as it is: nothing before it says why.
    assert.equal(outputCause(['Please set the following variables:']), 'Please set the following variables:');
  });

  it("takes npm's line that says why, not its advice or the path of its log", () => {
    assert.equal(
      outputCause(NPM_UNREACHABLE),
      'npm: FetchError: request to http://127.0.0.1:9/@acme%2fserver-wether failed, reason: connect ECONNREFUSED 127.0.0.1:9',
    );
    assert.equal(
      lastOutput(NPM_UNREACHABLE),
      " (cause: npm error FetchError: request to http://127.0.0.1:9/@acme%2fserver-wether failed, reason: connect ECONNREFUSED 127.0.0.1:9; the whole output is in the server's log)",
    );
    // The tail lost the report's first lines: its stack and fields still do not pass for the cause.
    assert.match(outputCause(NPM_UNREACHABLE.slice(4)) ?? '', /^npm: If you are behind a proxy/);
  });

  it("reads older npm's `npm ERR!` report, and a package under a registry's path", () => {
    const tail = [
      'npm ERR! code E404',
      'npm ERR! 404 Not Found - GET https://npm.example.com/api/npm/remote/some-mcp-server - Not found',
      'npm ERR! 404',
      "npm ERR! 404  'some-mcp-server@*' is not in this registry.",
      'npm ERR! A complete log of this run can be found in:',
    ];
    assert.equal(outputCause(tail), 'no npm package "some-mcp-server"');
  });

  it('takes the last line that looks like an error, without a bare "error:" in front', () => {
    assert.equal(outputCause(['reading settings', 'error: API_KEY is not set']), 'API_KEY is not set');
    assert.equal(
      outputCause(["Error: Cannot find module '/x/index.js'", 'Require stack:', '- /x', 'Node.js v20.20.2']),
      "Cannot find module '/x/index.js'",
    );
    assert.equal(
      outputCause([
        'Traceback (most recent call last):',
        '  File "s.py", line 1',
        "ModuleNotFoundError: No module named 'mcp'",
      ]),
      "ModuleNotFoundError: No module named 'mcp'",
    );
    assert.equal(outputCause(['listening on stdio', 'bye']), undefined);
    assert.equal(outputCause([]), undefined);
  });

  it('without a line that looks like an error, takes the last one that asks for something or says what is missing', () => {
    const supabase =
      'Please provide a personal access token (PAT) with the --access-token flag or set the SUPABASE_ACCESS_TOKEN environment variable';
    assert.equal(outputCause([supabase]), supabase);
    assert.equal(outputCause(['starting', 'SLACK_BOT_TOKEN is required', 'bye']), 'SLACK_BOT_TOKEN is required');
    assert.equal(outputCause(['Missing --workspace argument']), 'Missing --workspace argument');
    assert.equal(
      outputCause(['Unable to connect to Redis at 127.0.0.1:6379']),
      'Unable to connect to Redis at 127.0.0.1:6379',
    );
    // A line that looks like an error wins, wherever it is.
    assert.equal(
      outputCause(['Error: listen EADDRINUSE :::3000', 'could not start, exiting']),
      'listen EADDRINUSE :::3000',
    );
    assert.equal(outputCause(['Invalid number of arguments']), 'Invalid number of arguments');
    assert.equal(
      outputCause(['@acme/mcp-server is deprecated.', '', 'Install the Acme CLI, then run:', '  acme mcp']),
      '@acme/mcp-server is deprecated.',
    );
    // Node's and npm's own warnings are not why a server failed.
    assert.equal(
      outputCause([
        '(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.',
        'npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.',
        'bye',
      ]),
      undefined,
    );
    // Usage text is not a cause.
    assert.equal(
      outputCause(['Usage: server [--token <t>]', '  --token <t>  Required for self-hosted instances']),
      undefined,
    );
  });

  it("leaves out a logger's level in capitals: the row says error already", () => {
    assert.equal(
      outputCause(['ERROR APIFY_TOKEN is required but not set', 'APIFY_TOKEN is required but not set']),
      'APIFY_TOKEN is required but not set',
    );
    assert.equal(outputCause(['FATAL: cannot open database']), 'cannot open database');
    // A logger's tags in brackets go too; the stack it prints after the message is not the cause.
    assert.equal(
      outputCause([
        '[Redis Retry] Attempt 1/5 failed',
        '[Redis Error] Error: connect ECONNREFUSED 127.0.0.1:6379',
        '[Redis Error] Connection: redis://localhost:6379',
        '[Redis Error] Stack: Error: connect ECONNREFUSED 127.0.0.1:6379',
        '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)',
      ]),
      'connect ECONNREFUSED 127.0.0.1:6379',
    );
    assert.equal(outputCause(['[14:02:11.377] ERROR: listen EACCES :::80']), 'listen EACCES :::80');
    assert.equal(outputCause(['Error reading settings.json']), 'Error reading settings.json');
  });

  it("reads a launcher's own complaint: Python's missing module, Docker's daemon", () => {
    const python = ['/root/.pyenv/versions/3.11.7/bin/python3: No module named mcp_server_wether'];
    assert.equal(outputCause(python), 'python3: No module named mcp_server_wether');
    assert.equal(
      outputCause([
        "Unable to find image 'mcp/wether:latest' locally",
        "docker: Error response from daemon: pull access denied for mcp/wether, repository does not exist or may require 'docker login'.",
        "Run 'docker run --help' for more information",
      ]),
      "docker: Error response from daemon: pull access denied for mcp/wether, repository does not exist or may require 'docker login'.",
    );
  });

  it("reads the error inside a Python exception group's frame (anyio's and asyncio's task groups, as FastMCP servers end)", () => {
    // Python 3.11's own output for a task group whose task failed.
    const group = [
      '  + Exception Group Traceback (most recent call last):',
      '  |   File "<string>", line 8, in <module>',
      '  |   File "/root/.pyenv/versions/3.11.7/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__',
      '  |     raise me from None',
      '  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)',
      '  +-+---------------- 1 ----------------',
      '    | Traceback (most recent call last):',
      '    |   File "<string>", line 5, in boom',
      '    | ConnectionRefusedError: [Errno 111] Connect call failed ("127.0.0.1", 5432)',
      '    +------------------------------------',
    ];
    assert.equal(outputCause(group), 'ConnectionRefusedError: [Errno 111] Connect call failed ("127.0.0.1", 5432)');
    assert.equal(
      lastOutput(group),
      ' (cause: ConnectionRefusedError: [Errno 111] Connect call failed ("127.0.0.1", 5432); the whole output is in the server\'s log)',
    );
  });

  it("names the package uvx could not find, from uv's report", () => {
    const uv = [
      '  × No solution found when resolving tool dependencies:',
      '  ╰─▶ Because mcp-server-wether was not found in the package registry and you',
      '      require mcp-server-wether, we can conclude that your requirements are',
      '      unsatisfiable.',
    ];
    assert.equal(outputCause(uv), 'no Python package "mcp-server-wether"');
  });

  it('keeps a long cause to its bound', () => {
    const cause = outputCause([`Error: ${'x'.repeat(500)}`]) ?? '';
    assert.equal(cause.length, 201);
    assert.ok(cause.endsWith('…'));
  });
});
