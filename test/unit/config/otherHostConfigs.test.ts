import * as assert from 'node:assert/strict';
import { convertHostConfig, sameServer } from '../../../src/core/config/otherHostConfigs';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';

const valid = (id: string, raw: unknown) => {
  const result = validateServerEntry({ id, scope: 'user', raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
};

describe("importing other hosts' MCP configurations", () => {
  it('Claude Desktop: keeps commands and Windows paths, moves literal secrets to secret storage, leaves out what MCP Host would read as a variable', () => {
    const text = JSON.stringify({
      mcpServers: {
        filesystem: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'],
        },
        github: {
          command: 'docker',
          args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret123', LOG_LEVEL: 'debug' },
        },
        'my server': { command: 'node', args: ['${HOME}/server.js'] },
      },
      globalShortcut: 'Ctrl+Space',
    });
    const { servers, problems } = convertHostConfig('claude-desktop', text);
    assert.deepEqual(problems, []);
    const [filesystem, github, mine] = servers;
    assert.deepEqual(filesystem, {
      id: 'filesystem',
      entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me\\Desktop'] },
      skipped: [],
      secrets: {},
    });
    assert.deepEqual(github.entry.env, {
      GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.GITHUB_PERSONAL_ACCESS_TOKEN}',
      LOG_LEVEL: 'debug',
    });
    assert.deepEqual(github.secrets, { 'github.GITHUB_PERSONAL_ACCESS_TOKEN': 'ghp_secret123' });
    assert.ok(!JSON.stringify(github.entry).includes('ghp_secret123'), 'the secret never reaches the settings entry');
    assert.equal(mine.id, 'my-server');
    assert.deepEqual(mine.entry, {});
    assert.deepEqual(mine.skipped, [
      '"args[0]" holds ${HOME}, which MCP Host would read as a variable; the server was not imported',
    ]);
    valid(filesystem.id, filesystem.entry);
    valid(github.id, github.entry);
  });

  it("Cursor: its variables are MCP Host's, remote servers keep their headers, a disabled server stays off", () => {
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
    assert.deepEqual(remote.entry, {
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${env:EXAMPLE_TOKEN}' },
    });
    assert.deepEqual(remote.secrets, {}, 'a variable is not a literal secret');
    assert.deepEqual(local.entry, {
      command: 'python',
      args: ['${workspaceFolder}/tools/server.py'],
      env: { API_KEY: '${env:API_KEY}' },
      envFile: '${workspaceFolder}/.env',
      enabled: false,
    });
    assert.match(odd.skipped[0], /uses \$\{cursorRoot\}, which MCP Host does not have; the server was not imported/);
    valid(remote.id, remote.entry);
    valid(local.id, local.entry);
  });

  it('Claude Code: ${VAR} becomes ${env:VAR}, a default value cannot be carried, transports map', () => {
    const text = JSON.stringify({
      mcpServers: {
        api: {
          type: 'http',
          url: '${API_BASE_URL:-https://api.example.com}/mcp',
          headers: { Authorization: 'Bearer ${API_KEY}' },
        },
        events: { type: 'sse', url: 'https://events.example.com/sse', headers: { 'X-Api-Key': 'literal-key' } },
        local: { type: 'stdio', command: '${HOME}/bin/server', args: ['--verbose'], env: { DEBUG: '1' } },
        weird: { type: 'websocket', url: 'wss://x' },
      },
    });
    const { servers } = convertHostConfig('claude-code', text);
    const [api, events, local, weird] = servers;
    assert.deepEqual(api.entry, {});
    assert.deepEqual(api.skipped, [
      '"url" uses ${API_BASE_URL:-https://api.example.com}: MCP Host has no default values for variables; the server was not imported',
    ]);
    assert.deepEqual(events.entry, {
      url: 'https://events.example.com/sse',
      headers: { 'X-Api-Key': '${input:events.X-Api-Key}' },
      type: 'sse',
    });
    assert.deepEqual(events.secrets, { 'events.X-Api-Key': 'literal-key' });
    assert.deepEqual(local.entry, { command: '${env:HOME}/bin/server', args: ['--verbose'], env: { DEBUG: '1' } });
    assert.deepEqual(
      [weird.entry, weird.skipped],
      [{}, ['"type": "websocket" is not a transport MCP Host knows; the server was not imported']],
    );
    valid(events.id, events.entry);
    valid(local.id, local.entry);
  });

  it('VS Code: the servers of mcp.json with their ${input:} ids; broken files say why', () => {
    const vscode = convertHostConfig(
      'vscode',
      '{ "inputs": [{ "id": "token", "type": "promptString", "password": true }], "servers": { "gh": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer ${input:token}" } } } }',
    );
    assert.deepEqual(vscode.servers[0].entry, {
      type: 'http',
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: 'Bearer ${input:token}' },
    });
    assert.match(convertHostConfig('claude-desktop', '{ "mcpServers": ').problems[0], /^not valid JSON/);
    assert.deepEqual(convertHostConfig('cursor', '{ "servers": {} }').problems, ['it has no "mcpServers" object']);
  });
});

describe("the newer hosts' files, each as its host writes it", () => {
  it("VS Code 1.140's workspace .mcp.json in VS Code's own shape reads as VS Code's, where Claude Code's has \"mcpServers\"", () => {
    const { servers, problems } = convertHostConfig(
      'claude-code',
      '{ "servers": { "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } }, "inputs": [] }',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((s) => [s.id, s.entry]),
      [['memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }]],
    );
  });

  it('Copilot CLI (~/.copilot/mcp-config.json): "local" is stdio, "tools": ["*"] is every tool, its ${VAR} is an environment variable', () => {
    const text = JSON.stringify({
      mcpServers: {
        playwright: { type: 'local', command: 'npx', args: ['@playwright/mcp@latest'], env: {}, tools: ['*'] },
        github: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
          tools: ['*'],
        },
        picky: { type: 'local', command: 'node', args: ['server.js'], tools: ['search'] },
      },
    });
    const [playwright, github, picky] = convertHostConfig('copilot-cli', text).servers;
    assert.deepEqual(
      [playwright.entry, playwright.skipped],
      [{ command: 'npx', args: ['@playwright/mcp@latest'], env: {} }, []],
    );
    assert.deepEqual(github.entry, {
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' },
      type: 'http',
    });
    assert.deepEqual(picky.skipped, ['"tools" has no equivalent in MCP Host']);
    for (const server of [playwright, github, picky]) valid(server.id, server.entry);
  });

  it('Gemini CLI (settings.json): httpUrl is Streamable HTTP, url is SSE, $VAR and ${VAR} are environment variables, its other settings are named', () => {
    const text = `{
      "theme": "GitHub",
      "mcpServers": {
        "pythonTools": { "command": "python", "args": ["-m", "my_mcp_server", "--port", "8080"], "cwd": "./mcp-servers/python", "env": { "DATABASE_URL": "$DB_CONNECTION_STRING", "API_KEY": "\${EXTERNAL_API_KEY}" }, "timeout": 15000 },
        "httpServer": { "httpUrl": "http://localhost:3000/mcp", "headers": { "X-Team": "core" } },
        "sseServer": { "url": "http://localhost:8080/sse", "trust": true }
      }
    }`;
    const [python, http, sse] = convertHostConfig('gemini-cli', text).servers;
    assert.deepEqual(python.entry, {
      command: 'python',
      args: ['-m', 'my_mcp_server', '--port', '8080'],
      env: { DATABASE_URL: '${env:DB_CONNECTION_STRING}', API_KEY: '${env:EXTERNAL_API_KEY}' },
      cwd: './mcp-servers/python',
    });
    assert.deepEqual(python.skipped, ['"timeout" has no equivalent in MCP Host']);
    assert.deepEqual(http.entry, { url: 'http://localhost:3000/mcp', headers: { 'X-Team': 'core' }, type: 'http' });
    assert.deepEqual(
      [sse.entry, sse.skipped],
      [{ url: 'http://localhost:8080/sse', type: 'sse' }, ['"trust" has no equivalent in MCP Host']],
    );
    for (const server of [python, http, sse]) valid(server.id, server.entry);
    assert.deepEqual(
      convertHostConfig('gemini-cli', '{ "theme": "GitHub" }'),
      { servers: [], problems: [] },
      'a settings file without servers is no problem',
    );
  });

  it('Windsurf (mcp_config.json): serverUrl is the URL, ${env:VAR} carries over, other variables do not', () => {
    const text = JSON.stringify({
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_TOKEN}' },
        },
        figma: { serverUrl: 'https://mcp.figma.com/mcp' },
        odd: { command: 'node', args: ['${file:/tmp/x}'] },
      },
    });
    const [github, figma, odd] = convertHostConfig('windsurf', text).servers;
    assert.deepEqual(github.entry.env, { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_TOKEN}' });
    assert.deepEqual(figma.entry, { url: 'https://mcp.figma.com/mcp' });
    assert.deepEqual(odd.skipped, [
      '"args[0]" uses ${file:/tmp/x}, which MCP Host does not have; the server was not imported',
    ]);
    valid(github.id, github.entry);
    valid(figma.id, figma.entry);
  });

  it('Cline (cline_mcp_settings.json): literal text, a disabled server stays off, its approvals are not carried', () => {
    const text = JSON.stringify({
      mcpServers: {
        weather: {
          command: 'node',
          args: ['/home/me/weather/build/index.js'],
          env: { OPENWEATHER_API_KEY: 'abc123' },
          disabled: true,
          autoApprove: ['get_forecast'],
        },
        remote: { type: 'streamableHttp', url: 'https://example.com/mcp', disabled: false, timeout: 60 },
      },
    });
    const [weather, remote] = convertHostConfig('cline', text).servers;
    assert.deepEqual(weather.entry, {
      command: 'node',
      args: ['/home/me/weather/build/index.js'],
      env: { OPENWEATHER_API_KEY: '${input:weather.OPENWEATHER_API_KEY}' },
      enabled: false,
    });
    assert.deepEqual(weather.secrets, { 'weather.OPENWEATHER_API_KEY': 'abc123' });
    assert.deepEqual(weather.skipped, ['"autoApprove" has no equivalent in MCP Host']);
    assert.deepEqual(
      [remote.entry, remote.skipped],
      [{ url: 'https://example.com/mcp', type: 'http' }, ['"timeout" has no equivalent in MCP Host']],
    );
    valid(weather.id, weather.entry);
    valid(remote.id, remote.entry);
  });

  it('Codex (config.toml): [mcp_servers.NAME] tables, bearer_token_env_var as an Authorization header, its timeouts named', () => {
    const text = [
      'model = "gpt-5"',
      '',
      '[mcp_servers.context7]',
      'command = "npx"',
      'args = ["-y", "@upstash/context7-mcp"]',
      'env = { "LOG_LEVEL" = "info" }',
      'startup_timeout_sec = 20',
      '',
      '[mcp_servers.figma]',
      'url = "https://mcp.figma.com/mcp"',
      'bearer_token_env_var = "FIGMA_OAUTH_TOKEN"',
      'http_headers = { "X-Figma-Region" = "us-east-1" }',
    ].join('\n');
    const { servers, problems } = convertHostConfig('codex', text);
    assert.deepEqual(problems, []);
    const [context7, figma] = servers;
    assert.deepEqual(
      [context7.entry, context7.skipped],
      [
        { command: 'npx', args: ['-y', '@upstash/context7-mcp'], env: { LOG_LEVEL: 'info' } },
        ['"startup_timeout_sec" has no equivalent in MCP Host'],
      ],
    );
    assert.deepEqual(figma.entry, {
      url: 'https://mcp.figma.com/mcp',
      headers: { 'X-Figma-Region': 'us-east-1', Authorization: 'Bearer ${env:FIGMA_OAUTH_TOKEN}' },
    });
    valid(context7.id, context7.entry);
    valid(figma.id, figma.entry);
    assert.match(convertHostConfig('codex', '[mcp_servers.x\ncommand = 1').problems[0], /^not valid TOML/);
    assert.deepEqual(
      convertHostConfig('codex', 'model = "gpt-5"').problems,
      [],
      'a config without servers is no problem',
    );
  });

  it('Zed (settings.json): context_servers with a command object or flat fields', () => {
    const text = `{
      // Zed settings
      "theme": "One Dark",
      "context_servers": {
        "postgres": { "source": "custom", "command": { "path": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/db"], "env": {} } },
        "flat": { "source": "custom", "command": "uvx", "args": ["mcp-server-time"], "env": { "TZ": "UTC" } },
        "from-extension": { "source": "extension", "settings": {} }
      }
    }`;
    const [postgres, flat, fromExtension] = convertHostConfig('zed', text).servers;
    assert.deepEqual(
      [postgres.entry, postgres.skipped],
      [
        { command: 'npx', args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/db'], env: {} },
        [],
      ],
    );
    assert.deepEqual(flat.entry, { command: 'uvx', args: ['mcp-server-time'], env: { TZ: 'UTC' } });
    assert.deepEqual(fromExtension.entry, {});
    assert.ok(fromExtension.skipped.includes('it has neither "command" nor "url"'), fromExtension.skipped.join('; '));
    valid(postgres.id, postgres.entry);
    valid(flat.id, flat.entry);
  });
});

describe('the same server in two configurations', () => {
  it('is the same URL, or the same program by its file name with the same arguments', () => {
    assert.ok(sameServer({ url: 'https://Example.com/mcp/' }, { url: 'https://example.com/mcp' }));
    assert.ok(!sameServer({ url: 'https://example.com/mcp' }, { url: 'https://example.com/other' }));
    assert.ok(sameServer({ command: '/usr/bin/npx', args: ['-y', 'pkg'] }, { command: 'npx', args: ['-y', 'pkg'] }));
    assert.ok(
      sameServer(
        { command: 'C:\\Program Files\\nodejs\\npx.cmd', args: ['-y', 'pkg'] },
        { command: 'npx', args: ['-y', 'pkg'] },
      ),
    );
    assert.ok(!sameServer({ command: 'npx', args: ['-y', 'pkg'] }, { command: 'npx', args: ['-y', 'pkg', '--flag'] }));
    assert.ok(!sameServer({ command: 'npx', args: ['-y', 'pkg'] }, { url: 'https://example.com/mcp' }));
    assert.ok(!sameServer({}, {}));
  });
});
