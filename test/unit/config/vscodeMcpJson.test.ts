import * as assert from 'node:assert/strict';
import { convertVsCodeMcpJson } from '../../../src/core/config/vscodeMcpJson';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';

describe('servers from VS Code’s .vscode/mcp.json', () => {
  it('carries command, args, env, envFile, cwd, URL, headers and ${input:} ids over as they are, and names what it leaves out', () => {
    const text = `{
      // written by "MCP: Add Server..."
      "inputs": [{ "type": "promptString", "id": "gh-token", "password": true }],
      "servers": {
        "everything": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": { "TOKEN": "\${input:gh-token}" }, "envFile": "\${workspaceFolder}/.env", "cwd": "\${workspaceFolder}", "dev": { "watch": "src/**" } },
        "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:gh-token}" } },
        "my server!": { "command": "node", "args": ["s.js"] },
      },
    }`;
    const { servers, problems } = convertVsCodeMcpJson(text);
    assert.deepEqual(problems, []);
    assert.deepEqual(servers, [
      {
        id: 'everything',
        entry: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-everything'],
          env: { TOKEN: '${input:gh-token}' },
          envFile: '${workspaceFolder}/.env',
          cwd: '${workspaceFolder}',
        },
        skipped: ['"dev" has no equivalent in MCP Host'],
      },
      {
        id: 'remote',
        entry: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:gh-token}' } },
        skipped: [],
      },
      { id: 'my-server-', entry: { command: 'node', args: ['s.js'] }, skipped: [] },
    ]);
    for (const server of servers) {
      const checked = validateServerEntry({ id: server.id, scope: 'workspace', raw: server.entry });
      assert.ok(checked.ok, checked.ok ? '' : checked.error.message);
    }
  });

  it('says what is wrong with a file it cannot read', () => {
    assert.deepEqual(convertVsCodeMcpJson('{ "servers": '), {
      servers: [],
      problems: ['not valid JSON: ValueExpected at offset 13'],
    });
    assert.deepEqual(convertVsCodeMcpJson('{ "mcp": {} }').problems, ['it has no "servers" object']);
  });
});
