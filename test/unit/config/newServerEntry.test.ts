import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  newServerEntry,
  parseNames,
  secretNamesProblem,
  splitCommandLine,
  suggestServerId,
  targetProblem,
} from '../../../src/core/config/newServerEntry';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';
import { probeMcpUrl } from '../../../src/core/connection/urlProbe';
import { refusedPort, startHttpFixture, type RunningProcess } from '../support/fixtures';

const valid = (id: string, raw: unknown) => {
  const result = validateServerEntry({ id, scope: 'user', raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
};

describe('Add Server: the entry from the answers', () => {
  it('runs npm packages with npx -y, Python packages with uvx and images with docker run -i --rm, secrets by name only', () => {
    const npm = newServerEntry('github', {
      kind: 'npm',
      target: '@modelcontextprotocol/server-github@2025.4.8',
      extraArgs: '--read-only',
      secretNames: ['GITHUB_TOKEN'],
    });
    assert.deepEqual(npm, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github@2025.4.8', '--read-only'],
      env: { GITHUB_TOKEN: '${input:github.GITHUB_TOKEN}' },
    });
    const pypi = newServerEntry('fetch', { kind: 'pypi', target: 'mcp-server-fetch==2025.1.17', extraArgs: '' });
    assert.deepEqual(pypi, { command: 'uvx', args: ['mcp-server-fetch==2025.1.17'] });
    const docker = newServerEntry('gh', {
      kind: 'docker',
      target: 'ghcr.io/github/github-mcp-server:v0.6',
      extraArgs: 'stdio --toolsets "repos issues"',
      secretNames: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    assert.deepEqual(docker, {
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '-e',
        'GITHUB_PERSONAL_ACCESS_TOKEN',
        'ghcr.io/github/github-mcp-server:v0.6',
        'stdio',
        '--toolsets',
        'repos issues',
      ],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:gh.GITHUB_PERSONAL_ACCESS_TOKEN}' },
    });
    const command = newServerEntry('local', {
      kind: 'command',
      target: `node "/home/me/My Servers/server.js" --root '\${workspaceFolder}'`,
    });
    assert.deepEqual(command, {
      command: 'node',
      args: ['/home/me/My Servers/server.js', '--root', '${workspaceFolder}'],
    });
    const http = newServerEntry('remote', {
      kind: 'http',
      target: 'https://example.com/mcp',
      secretNames: ['X-Api-Key'],
    });
    assert.deepEqual(http, { url: 'https://example.com/mcp', headers: { 'X-Api-Key': '${input:remote.X-Api-Key}' } });
    for (const [id, entry] of Object.entries({ github: npm, fetch: pypi, gh: docker, local: command, remote: http }))
      valid(id, entry);
  });

  it('says what is wrong with a package, image, command, URL or secret name, and writes nothing for it', () => {
    assert.equal(targetProblem('npm', '@modelcontextprotocol/server-everything'), undefined);
    assert.match(targetProblem('npm', 'Server Everything')!, /is not an npm package name/);
    assert.match(targetProblem('npm', '')!, /Enter the package name/);
    assert.equal(targetProblem('pypi', 'mcp-server-git[extra]>=0.6'), undefined);
    assert.match(targetProblem('pypi', 'mcp server')!, /is not a Python package name/);
    assert.equal(targetProblem('docker', 'localhost:5000/team/server@sha256:' + 'a'.repeat(64)), undefined);
    assert.match(targetProblem('docker', 'MCP/Fetch')!, /is not a Docker image reference/);
    assert.equal(targetProblem('command', 'python -m server'), undefined);
    assert.equal(targetProblem('command', 'node "unclosed'), 'The quote " is not closed.');
    assert.match(targetProblem('http', 'example.com/mcp')!, /is not a URL/);
    assert.match(targetProblem('http', 'ftp://example.com/mcp')!, /"ftp:" URLs cannot reach an MCP server/);
    assert.match(targetProblem('http', 'https://me:pw@example.com/mcp')!, /Leave credentials out of the URL/);
    assert.equal(secretNamesProblem('npm', parseNames('GITHUB_TOKEN, API_KEY')), undefined);
    assert.equal(secretNamesProblem('npm', ['API-KEY', '1X']), 'Not an environment variable name: API-KEY, 1X.');
    assert.equal(secretNamesProblem('http', ['Authorization', 'X-Key']), 'Name one header (e.g. Authorization).');
    assert.throws(() => newServerEntry('x', { kind: 'npm', target: 'Not A Package' }), /is not an npm package name/);
    assert.throws(
      () => newServerEntry('x', { kind: 'npm', target: 'pkg', extraArgs: "'open" }),
      /The arguments cannot be read: The quote ' is not closed\./,
    );
  });

  it('splits command lines like a shell for words and quotes', () => {
    assert.deepEqual(splitCommandLine(`a  'b c' "d \\"e\\"" f\\ g ""`), ['a', 'b c', 'd "e"', 'f g', '']);
    assert.equal(splitCommandLine('   '), 'Enter the command that starts the server.');
  });

  it('suggests an id from the package, image, command or host, and another when it is taken', () => {
    assert.equal(suggestServerId('npm', '@modelcontextprotocol/server-everything@2025.9.25'), 'everything');
    assert.equal(suggestServerId('pypi', 'mcp-server-fetch==1.0'), 'fetch');
    assert.equal(suggestServerId('docker', 'ghcr.io/github/github-mcp-server:v1'), 'github');
    assert.equal(suggestServerId('command', 'node /srv/weather.js --stdio'), 'weather');
    assert.equal(suggestServerId('http', 'https://mcp.example.com/mcp'), 'example');
    assert.equal(suggestServerId('npm', 'server-everything', new Set(['everything', 'everything-2'])), 'everything-3');
  });
});

describe('Add Server: checking a URL before it is written', () => {
  let fixture: RunningProcess;
  let plain: Server;
  let plainUrl: string;
  before(async () => {
    fixture = await startHttpFixture();
    plain = createServer((req, res) => {
      if (req.url === '/protected') {
        res
          .writeHead(401, {
            'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
          })
          .end();
      } else if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      else res.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  after(async () => {
    await fixture?.stop();
    plain?.close();
  });

  it('knows an MCP server, one that needs sign-in, a wrong path, a web page and a closed port', async () => {
    assert.deepEqual(await probeMcpUrl(`http://127.0.0.1:${fixture.port}/mcp`, fetch), {
      ok: true,
      summary: `http://127.0.0.1:${fixture.port}/mcp answers as an MCP server`,
    });
    assert.deepEqual(await probeMcpUrl(`${plainUrl}/protected`, fetch), {
      ok: true,
      summary: `${plainUrl}/protected is an MCP server that needs sign-in: MCP Host asks you to sign in when it starts`,
    });
    assert.deepEqual(await probeMcpUrl(`${plainUrl}/wrong`, fetch), {
      ok: false,
      summary: `no MCP endpoint at ${plainUrl}/wrong (HTTP 404); check the path in "url"`,
    });
    const page = await probeMcpUrl(`${plainUrl}/page`, fetch);
    assert.deepEqual(page, {
      ok: false,
      summary: `${plainUrl}/page answered HTTP 200 with text/html, not as an MCP server; is this the server's MCP endpoint (often …/mcp)?`,
    });
    const port = await refusedPort();
    const closed = await probeMcpUrl(`http://127.0.0.1:${port}/mcp`, fetch);
    assert.deepEqual(closed, {
      ok: false,
      summary: `connection refused: nothing is listening at 127.0.0.1:${port} (ECONNREFUSED); is the server running?`,
    });
  });
});
