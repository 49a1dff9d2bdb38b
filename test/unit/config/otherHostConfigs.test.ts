import * as assert from 'node:assert/strict';
import { convertHostConfig, sameServer } from '../../../src/core/config/otherHostConfigs';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';

const valid = (id: string, raw: unknown) => {
  const result = validateServerEntry({ id, scope: 'user', raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
};

describe('importing other hosts\' MCP configurations', () => {
  it('Claude Desktop: keeps commands and Windows paths, moves literal secrets to secret storage, leaves out what MCP Host would read as a variable', () => {
    const text = JSON.stringify({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'] },
        github: { command: 'docker', args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret123', LOG_LEVEL: 'debug' } },
        'my server': { command: 'node', args: ['${HOME}/server.js'] },
      },
      globalShortcut: 'Ctrl+Space',
    });
    const { servers, problems } = convertHostConfig('claude-desktop', text);
    assert.deepEqual(problems, []);
    const [filesystem, github, mine] = servers;
    assert.deepEqual(filesystem, { id: 'filesystem', entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'] }, skipped: [], secrets: {} });
    assert.deepEqual(github.entry.env, { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.GITHUB_PERSONAL_ACCESS_TOKEN}', LOG_LEVEL: 'debug' });
    assert.deepEqual(github.secrets, { 'github.GITHUB_PERSONAL_ACCESS_TOKEN': 'ghp_secret123' });
    assert.ok(!JSON.stringify(github.entry).includes('ghp_secret123'), 'the secret never reaches the settings entry');
    assert.equal(mine.id, 'my-server');
    assert.deepEqual(mine.entry, {});
    assert.deepEqual(mine.skipped, ['"args[0]" holds ${HOME}, which MCP Host would read as a variable; the server was not imported']);
    valid(filesystem.id, filesystem.entry);
    valid(github.id, github.entry);
  });

  it('Cursor: its variables are MCP Host\'s, remote servers keep their headers, a disabled server stays off', () => {
    const text = `{
      // Cursor's project file (.cursor/mcp.json)
      "mcpServers": {
        "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${env:EXAMPLE_TOKEN}" } },
        "local": { "command": "python", "args": ["\${workspaceFolder}/tools/server.py"], "env": { "API_KEY": "\${env:API_KEY}" }, "envFile": "\${workspaceFolder}/.env", "disabled": true },
        "odd": { "command": "node", "args": ["\${cursorRoot}/x.js"] },
      }
    }`;
    const { servers } = convertHostConfig('cursor', text);
    const [remote, local, odd] = servers;
    assert.deepEqual(remote.entry, { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:EXAMPLE_TOKEN}' } });
    assert.deepEqual(remote.secrets, {}, 'a variable is not a literal secret');
    assert.deepEqual(local.entry, { command: 'python', args: ['${workspaceFolder}/tools/server.py'], env: { API_KEY: '${env:API_KEY}' }, envFile: '${workspaceFolder}/.env', enabled: false });
    assert.match(odd.skipped[0], /uses \$\{cursorRoot\}, which MCP Host does not have; the server was not imported/);
    valid(remote.id, remote.entry);
    valid(local.id, local.entry);
  });

  it('Claude Code: ${VAR} becomes ${env:VAR}, a default value cannot be carried, transports map', () => {
    const text = JSON.stringify({
      mcpServers: {
        api: { type: 'http', url: '${API_BASE_URL:-https://api.example.com}/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
        events: { type: 'sse', url: 'https://events.example.com/sse', headers: { 'X-Api-Key': 'literal-key' } },
        local: { type: 'stdio', command: '${HOME}/bin/server', args: ['--verbose'], env: { DEBUG: '1' } },
        weird: { type: 'websocket', url: 'wss://x' },
      },
    });
    const { servers } = convertHostConfig('claude-code', text);
    const [api, events, local, weird] = servers;
    assert.deepEqual(api.entry, {});
    assert.deepEqual(api.skipped, ['"url" uses ${API_BASE_URL:-https://api.example.com}: MCP Host has no default values for variables; the server was not imported']);
    assert.deepEqual(events.entry, { url: 'https://events.example.com/sse', headers: { 'X-Api-Key': '${input:events.X-Api-Key}' }, type: 'sse' });
    assert.deepEqual(events.secrets, { 'events.X-Api-Key': 'literal-key' });
    assert.deepEqual(local.entry, { command: '${env:HOME}/bin/server', args: ['--verbose'], env: { DEBUG: '1' } });
    assert.deepEqual([weird.entry, weird.skipped], [{}, ['"type": "websocket" is not a transport MCP Host knows; the server was not imported']]);
    valid(events.id, events.entry);
    valid(local.id, local.entry);
  });

  it('VS Code: the servers of mcp.json with their ${input:} ids; broken files say why', () => {
    const vscode = convertHostConfig('vscode', '{ "inputs": [{ "id": "token", "type": "promptString", "password": true }], "servers": { "gh": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer ${input:token}" } } } }');
    assert.deepEqual(vscode.servers[0].entry, { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${input:token}' } });
    assert.match(convertHostConfig('claude-desktop', '{ "mcpServers": ').problems[0], /^not valid JSON/);
    assert.deepEqual(convertHostConfig('cursor', '{ "servers": {} }').problems, ['it has no "mcpServers" object']);
  });
});

describe('the same server in two configurations', () => {
  it('is the same URL, or the same program by its file name with the same arguments', () => {
    assert.ok(sameServer({ url: 'https://Example.com/mcp/' }, { url: 'https://example.com/mcp' }));
    assert.ok(!sameServer({ url: 'https://example.com/mcp' }, { url: 'https://example.com/other' }));
    assert.ok(sameServer({ command: '/usr/bin/npx', args: ['-y', 'pkg'] }, { command: 'npx', args: ['-y', 'pkg'] }));
    assert.ok(sameServer({ command: 'C:\\Program Files\\nodejs\\npx.cmd', args: ['-y', 'pkg'] }, { command: 'npx', args: ['-y', 'pkg'] }));
    assert.ok(!sameServer({ command: 'npx', args: ['-y', 'pkg'] }, { command: 'npx', args: ['-y', 'pkg', '--flag'] }));
    assert.ok(!sameServer({ command: 'npx', args: ['-y', 'pkg'] }, { url: 'https://example.com/mcp' }));
    assert.ok(!sameServer({}, {}));
  });
});
