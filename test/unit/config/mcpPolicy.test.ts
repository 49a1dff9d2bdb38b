// The editor's MCP policies (chat.mcp.access, chat.mcp.allowedServers, chat.mcp.deniedServers),
// matched as VS Code matches them, and held by MCP Host's own servers: real fixture processes.
import * as assert from 'node:assert/strict';
import { policyBlock, serverMatchers, type McpPolicy } from '../../../src/core/config/mcpPolicy';
import { RegistryOrigins, type RegistryOriginStore } from '../../../src/core/registry/registryOrigins';
import { isAlive } from '../../../src/core/process/processTree';
import { waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

const stdio = { name: 'memory', command: ['npx', '-y', '@modelcontextprotocol/server-memory'] };
const http = { name: 'remote', url: 'https://Example.com/mcp?team=a' };

describe("the editor's MCP policies", function () {
  this.timeout(30_000);
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it('blocks every server under "none" and "registry", naming the setting and who set it', () => {
    assert.equal(
      policyBlock(stdio, { access: 'none', sources: { access: 'policy' } }),
      'blocked by your organisation\'s policy: chat.mcp.access is "none"',
    );
    assert.equal(policyBlock(http, { access: 'none' }), 'blocked by your settings: chat.mcp.access is "none"');
    assert.match(
      policyBlock(stdio, { access: 'registry' }) ?? '',
      /chat\.mcp\.access is "registry", and this server was not installed from the registry \(or its entry changed since\)$/,
    );
    assert.equal(policyBlock(stdio, { access: 'all' }), undefined);
  });

  it('under "registry" runs a server Add Server installed from the registry, from the one the editor is set to when it is set', () => {
    const origins = new RegistryOrigins(new Map() as unknown as RegistryOriginStore);
    const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2026.1.1'] };
    void origins.remember('memory', entry, { registry: 'https://registry.example/', name: 'io.github.x/memory' });
    const from = origins.registryOf('memory', { args: [...entry.args], command: 'npx' });
    assert.equal(from, 'https://registry.example/', 'the same entry, keys in any order');
    assert.equal(origins.registryOf('memory', { ...entry, args: [...entry.args, '--unsafe'] }), undefined);
    assert.equal(origins.registryOf('other', entry), undefined);
    const memory = { ...stdio, registry: from };
    assert.equal(policyBlock(memory, { access: 'registry' }), undefined);
    assert.equal(policyBlock(memory, { access: 'registry', registry: 'https://REGISTRY.example' }), undefined);
    assert.match(
      policyBlock(memory, { access: 'registry', registry: 'https://other.example/' }) ?? '',
      /comes from https:\/\/registry\.example\/, not from https:\/\/other\.example\/ \(chat\.mcp\.gallery\.serviceUrl\)$/,
    );
    assert.match(
      policyBlock(memory, { access: 'registry', denied: [{ serverName: 'memory' }] }) ?? '',
      /chat\.mcp\.deniedServers/,
      'the lists still hold',
    );
  });

  it('matches names exactly, command lines item by item, and URLs by origin, path and query without case, with * as any text', () => {
    const allowedOnly = (allowed: McpPolicy['allowed']) => policyBlock(stdio, { access: 'all', allowed }) ?? 'ok';
    assert.equal(allowedOnly([{ serverName: 'memory' }]), 'ok');
    assert.match(allowedOnly([{ serverName: 'Memory' }]), /not in chat\.mcp\.allowedServers/);
    assert.equal(allowedOnly([{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-memory'] }]), 'ok');
    assert.match(allowedOnly([{ serverCommand: ['npx', '@modelcontextprotocol/server-memory'] }]), /not in/);
    const urlAllowed = (serverUrl: string) => policyBlock(http, { access: 'all', allowed: [{ serverUrl }] }) ?? 'ok';
    assert.equal(urlAllowed('https://example.com/MCP?team=a'), 'ok');
    assert.equal(urlAllowed('https://example.com/mcp?team=a#frag'), 'ok');
    assert.match(urlAllowed('https://example.com/mcp'), /not in/, 'the query counts');
    assert.equal(urlAllowed('https://*.com/*'), 'ok');
    assert.match(urlAllowed('https://example.org/*'), /not in/);
  });

  it('lets a deny win over an allow, and keeps only well-formed list entries', () => {
    assert.equal(
      policyBlock(stdio, {
        access: 'all',
        allowed: [{ serverName: 'memory' }],
        denied: [{ serverName: 'memory' }],
        sources: { denied: 'policy' },
      }),
      'blocked by your organisation\'s policy: it matches {"serverName":"memory"} in chat.mcp.deniedServers',
    );
    assert.deepEqual(
      serverMatchers([
        { serverName: 'a' },
        { serverName: '' },
        { serverName: 'a', serverUrl: 'b' },
        'x',
        { serverCommand: [] },
      ]),
      [{ serverName: 'a' }],
    );
    assert.equal(serverMatchers(null), undefined);
  });

  it('never starts a server the policies rule out, says why on its row and in every error, and stops a running one when the policy changes', async () => {
    const policy: { current: McpPolicy } = { current: { access: 'all' } };
    const { host, env } = harness({ policy });
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy() }));
    const pid = (await running(host, 'fx')).pid!;
    policy.current = { access: 'none', sources: { access: 'policy' } };
    await host.reapply();
    const blocked = await waitFor(
      'the server held back',
      () => host.server('fx')?.held === 'policy' && host.server('fx'),
    );
    assert.equal(blocked.status, 'disabled');
    assert.equal(blocked.reason, 'blocked by your organisation\'s policy: chat.mcp.access is "none"');
    await waitFor(`process ${pid} to end`, () => !isAlive(pid));
    await assert.rejects(
      host.start('fx'),
      /^Error: MCP server "fx" is blocked by your organisation's policy: chat\.mcp\.access is "none"\.$/,
    );
    await assert.rejects(host.callTool('fx', 'echo', { text: 'x' }), /chat\.mcp\.access is "none"/);
    assert.match(
      (env.hostLog as unknown as { text(): string }).text(),
      /MCP server "fx" is blocked by your organisation's policy/,
    );
    policy.current = { access: 'all', denied: [{ serverName: 'other' }] };
    await host.reapply();
    await running(host, 'fx');
  });
});
