import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateServerEntry } from '../../../src/core/config/validateServerEntry';
import { RegistryClient, registryBaseUrl } from '../../../src/core/registry/registryClient';
import {
  answerProblem,
  installChoices,
  installFields,
  registryEntry,
  type InstallChoice,
} from '../../../src/core/registry/registryInstall';
import { parseServerResponse, type RegistryServer } from '../../../src/core/registry/registryServer';
import { answer, startRegistryFixture, type RegistryFixture } from '../../fixtures/registry/registryFixture';
import { refusedPort } from '../support/fixtures';

const server = (name: string): RegistryServer =>
  parseServerResponse(answer(`/v0/servers/${encodeURIComponent(name)}/versions/latest`).body)!;
const choice = (name: string, label: RegExp): InstallChoice => {
  const found = installChoices(server(name)).find((c) => label.test(c.label));
  assert.ok(found, `${name} has a way matching ${label}`);
  return found;
};
const valid = (id: string, raw: unknown) => {
  const result = validateServerEntry({ id, scope: 'user', raw });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
};

describe('MCP Registry: reading the published API', () => {
  let registry: RegistryFixture;
  before(async () => (registry = await startRegistryFixture({ pageSize: 5 })));
  after(() => registry.close());

  it('searches by name, one page at a time through the cursor, without deleted servers, and lists versions newest first', async () => {
    const client = new RegistryClient(`${registry.url}/`, fetch);
    const first = await client.search('SERVER');
    assert.equal(first.servers.length, 5);
    assert.ok(first.nextCursor, 'a second page');
    assert.match(registry.requests.at(-1)!, /^\/v0\/servers\?limit=30&version=latest&search=SERVER$/);
    const second = await client.search('SERVER', first.nextCursor);
    assert.equal(
      registry.requests.at(-1),
      `/v0/servers?limit=30&version=latest&search=SERVER&cursor=${encodeURIComponent(first.nextCursor!)}`,
    );
    const names = [...first.servers, ...second.servers].map((s) => s.name);
    assert.equal(new Set(names).size, names.length, 'no server twice');
    assert.ok(
      names.includes('io.github.modelcontextprotocol/server-filesystem') &&
        names.includes('io.github.example/foxtrot-server'),
    );
    let all = [...names];
    for (let cursor = second.nextCursor; cursor;) {
      const page = await client.search('server', cursor);
      all = all.concat(page.servers.map((s) => s.name));
      cursor = page.nextCursor;
    }
    assert.equal(all.includes('io.github.example/removed-server'), false, 'a deleted server is not offered');
    assert.equal(
      all.filter((n) => n === 'io.github.modelcontextprotocol/server-filesystem').length,
      1,
      'one version per server',
    );
    const versions = await client.versions('io.github.modelcontextprotocol/server-filesystem');
    assert.deepEqual(
      versions.map((v) => [v.version, v.isLatest]),
      [
        ['2026.8.31', true],
        ['2026.1.14', false],
      ],
    );
    assert.equal(registry.requests.at(-1), '/v0/servers/io.github.modelcontextprotocol%2Fserver-filesystem/versions');
    const old = (await client.search('old-notes')).servers[0];
    assert.deepEqual([old.status, old.statusMessage], ['deprecated', 'Use io.github.example/notes instead']);
    assert.equal((await client.version('io.github.example/fetch', 'latest')).version, '0.6.3');
  });

  it('says which registry failed and how: an error status, a closed port, not JSON, not a list, a bad URL setting', async () => {
    const down = await startRegistryFixture({ failWith: 503 });
    try {
      await assert.rejects(new RegistryClient(down.url, fetch).search('x'), {
        message: `The MCP registry at ${down.url} answered HTTP 503 (Service unavailable); try again later.`,
      });
    } finally {
      await down.close();
    }
    const port = await refusedPort();
    await assert.rejects(new RegistryClient(`http://127.0.0.1:${port}`, fetch).search('x'), {
      message: `The MCP registry at http://127.0.0.1:${port} could not be reached (ECONNREFUSED); check your network and "mcpHost.registry.url".`,
    });
    const page = createServer((req, res) =>
      res.end(
        req.url?.includes('servers?') && req.url.includes('search=list') ? '{"items": []}' : '<html>hello</html>',
      ),
    );
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    try {
      await assert.rejects(new RegistryClient(url, fetch).search('x'), {
        message: `The MCP registry at ${url} did not answer with JSON (is "mcpHost.registry.url" a registry?).`,
      });
      await assert.rejects(new RegistryClient(url, fetch).search('list'), {
        message: `The MCP registry at ${url} sent something other than a server list for a search; check "mcpHost.registry.url".`,
      });
    } finally {
      page.close();
    }
    await assert.rejects(new RegistryClient(registry.url, fetch).versions('io.github.example/nothing'), {
      message: `The MCP registry at ${registry.url} has no /v0/servers/io.github.example/nothing/versions (HTTP 404).`,
    });
    assert.throws(
      () => registryBaseUrl('registry.example.com'),
      /"mcpHost.registry.url" is not a URL: "registry.example.com"/,
    );
    assert.throws(() => registryBaseUrl('ftp://registry.example.com'), /must be an https:\/\/ address \(got ftp:\)/);
    assert.equal(registryBaseUrl('https://registry.example.com/v0.1/'), 'https://registry.example.com');
  });

  it('gives up on a registry that does not answer, and skips entries that are not server.json', async () => {
    const mute = createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
    try {
      await assert.rejects(new RegistryClient(url, fetch, 300).search('x'), {
        message: `The MCP registry at ${url} did not answer within 0.3 s.`,
      });
    } finally {
      mute.closeAllConnections();
      mute.close();
    }
    const odd = createServer((_req, res) =>
      res.end(
        JSON.stringify({
          servers: [{ server: { name: 'a/b' } }, answer('/v0/servers/io.github.example%2Ffetch').body, 7],
          metadata: { next_cursor: 'c' },
        }),
      ),
    );
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    try {
      const page = await new RegistryClient(`http://127.0.0.1:${(odd.address() as AddressInfo).port}`, fetch).search(
        '',
      );
      assert.deepEqual(
        [page.servers.map((s) => s.name), page.skipped, page.nextCursor],
        [['io.github.example/fetch'], 2, 'c'],
      );
    } finally {
      odd.close();
    }
  });
});

describe('MCP Registry: from a server.json to an entry', () => {
  it('runs an npm package with npx -y at its version, a repeated positional argument from the user', () => {
    const fs = choice('io.github.modelcontextprotocol/server-filesystem', /^npm /);
    assert.equal(fs.unsupported, undefined);
    const [directory] = installFields(fs);
    assert.deepEqual(
      [directory.label, directory.required, directory.repeated, directory.format, directory.secret],
      ['directory', true, true, 'filepath', false],
    );
    assert.throws(() => registryEntry('fs', fs, {}), /directory is required\./);
    const { entry, secrets } = registryEntry('fs', fs, { [directory.key]: '${workspaceFolder} "/srv/My Data"' });
    assert.deepEqual(entry, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '${workspaceFolder}', '/srv/My Data'],
    });
    assert.deepEqual(secrets, {});
    valid('fs', entry);
    // A fixed positional value needs nothing from the user.
    const everything = choice('io.github.modelcontextprotocol/server-everything', /^npm /);
    assert.deepEqual(installFields(everything), []);
    assert.deepEqual(registryEntry('everything', everything, {}).entry, {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
    });
  });

  it('asks for every argument and variable without a fixed value: secrets to the secret storage, defaults, choices, booleans, optional ones left out', () => {
    const weather = choice('io.github.example/weather', /^npm /);
    const fields = installFields(weather);
    assert.deepEqual(
      fields.map((f) => [
        f.label,
        f.where,
        f.required,
        f.secret,
        f.default ?? null,
        f.choices?.join('|') ?? null,
        f.format,
      ]),
      [
        ['heap', 'argument', false, false, '256', null, 'number'],
        ['--units', 'argument', false, false, 'metric', 'metric|imperial', 'string'],
        ['--verbose', 'argument', false, false, null, null, 'boolean'],
        ['WEATHER_API_KEY', 'environment variable', true, true, null, null, 'string'],
        ['WEATHER_CACHE_DIR', 'environment variable', false, false, null, null, 'filepath'],
      ],
    );
    const key = (label: string) => fields.find((f) => f.label === label)!.key;
    assert.equal(answerProblem(fields[1], 'kelvin'), '--units is one of: metric, imperial.');
    assert.equal(answerProblem(fields[0], 'lots'), 'heap is a number.');
    assert.equal(answerProblem(fields[2], 'yes'), '--verbose is true or false.');
    assert.match(answerProblem(fields[4], '${nope}')!, /^WEATHER_CACHE_DIR uses the unknown variable \$\{nope\}/);
    assert.equal(answerProblem(fields[3], '${not a variable'), undefined, 'a secret is taken as it is');
    assert.throws(() => registryEntry('weather', weather, {}), /WEATHER_API_KEY is required\./);
    const { entry, secrets } = registryEntry('weather', weather, {
      [key('WEATHER_API_KEY')]: 'sk-123',
      [key('--verbose')]: 'true',
      [key('--units')]: 'imperial',
    });
    assert.deepEqual(entry, {
      command: 'npx',
      args: [
        '-y',
        '--node-options',
        '--max-old-space-size=256',
        '@example/weather-mcp@1.4.0',
        '--units',
        'imperial',
        '--verbose',
      ],
      env: { WEATHER_API_KEY: '${input:weather.WEATHER_API_KEY}' },
    });
    assert.deepEqual(secrets, { 'weather.WEATHER_API_KEY': 'sk-123' });
    valid('weather', entry);
    assert.equal(JSON.stringify(entry).includes('sk-123'), false, 'the secret is not in the entry');
  });

  it('runs images with docker run -i --rm (tag from the version or the identifier), Python packages with uvx, and says why others cannot run', () => {
    const oci = registryEntry('weather', choice('io.github.example/weather', /^oci /), { 'env.WEATHER_API_KEY': 'k' });
    assert.deepEqual(oci.entry, {
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'WEATHER_API_KEY', 'example/weather-mcp:1.4.0'],
      env: { WEATHER_API_KEY: '${input:weather.WEATHER_API_KEY}' },
    });
    assert.deepEqual(registryEntry('fetch', choice('io.github.example/fetch', /^oci /), {}).entry, {
      command: 'docker',
      args: ['run', '-i', '--rm', 'docker.io/mcp/fetch:0.6.3'],
    });
    assert.deepEqual(
      registryEntry('fetch', choice('io.github.example/fetch', /^pypi /), { 'package.0': 'MyAgent/1.0' }).entry,
      { command: 'uvx', args: ['mcp-server-fetch==0.6.3', '--user-agent', 'MyAgent/1.0'] },
    );
    assert.equal(
      choice('io.github.example/fetch', /^nuget /).unsupported,
      'MCP Host cannot run nuget packages yet; add its command with "Command"',
    );
    const mcpb = choice('io.github.example/weather', /^mcpb /);
    assert.equal(mcpb.unsupported, 'MCP Host cannot run mcpb packages yet; add its command with "Command"');
    assert.throws(() => registryEntry('w', mcpb, {}), /cannot be added: MCP Host cannot run mcpb packages yet/);
  });

  it('connects to a remote with its URL variables and header secrets filled in; a fixed value that settings would read as a variable is refused', () => {
    const remote = choice('io.github.example/weather', /^Streamable HTTP /);
    const fields = installFields(remote);
    assert.deepEqual(
      fields.map((f) => [f.key, f.label, f.where, f.required, f.secret, f.default ?? null]),
      [
        ['url{region}', 'region', 'URL variable', true, false, 'eu'],
        ['header.Authorization{token}', 'token', 'header', true, true, null],
      ],
    );
    const { entry, secrets } = registryEntry('weather', remote, {
      'url{region}': 'us',
      'header.Authorization{token}': 'tok',
    });
    assert.deepEqual(entry, {
      url: 'https://us.weather.example.com/mcp',
      headers: { Authorization: 'Bearer ${input:weather.token}' },
    });
    assert.deepEqual(secrets, { 'weather.token': 'tok' });
    valid('weather', entry);
    assert.deepEqual(registryEntry('weather-sse', choice('io.github.example/weather', /^HTTP\+SSE /), {}).entry, {
      url: 'https://weather.example.com/sse',
      type: 'sse',
    });
    const evil = choice('io.github.example/exfiltrate', /Streamable HTTP/);
    assert.equal(
      evil.unsupported,
      'its fixed value "${env:AWS_SECRET_ACCESS_KEY}" has a "${", which settings would read as a variable; add it by hand',
    );
    assert.throws(() => registryEntry('evil', evil, {}), /cannot be added/);
  });
});
