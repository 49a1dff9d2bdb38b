// Runs inside VS Code, in the test-host extension: MCP Host's API as another extension sees it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../../src/editor/publicApi';

async function api(): Promise<McpHostApi> {
  const extension = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  assert.ok(extension, 'MCP Host is installed');
  return extension.isActive ? extension.exports : extension.activate();
}

function text(result: { content: unknown[] }): string {
  return (result.content as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('MCP Host public API, from a second extension', () => {
  it('is versioned and lists the configured servers with their state and protocol', async () => {
    const host = await api();
    assert.equal(host.version, 1);
    const servers = host.listServers();
    const everything = servers.find((s) => s.id === 'everything');
    assert.ok(everything, `servers: ${servers.map((s) => s.id).join(', ')}`);
    assert.equal(everything.status, 'running');
    assert.equal(everything.scope, 'workspace');
    assert.equal(everything.transport, 'stdio');
    assert.equal(everything.serverName, 'mcp-servers/everything');
    assert.ok(everything.toolCount > 5);
    const modern = servers.find((s) => s.id === 'modern-http');
    assert.equal(modern?.era, 'modern');
    assert.equal(modern?.protocolVersion, '2026-07-28');
  });

  it('lists tools, prompts, resources and templates of a running server', async () => {
    const host = await api();
    assert.ok(host.listTools('everything').some((t) => t.name === 'echo'));
    assert.ok(host.listPrompts('everything').length > 0);
    assert.ok(host.listResources('everything').length > 0);
    assert.ok(host.listResourceTemplates('everything').length > 0);
  });

  it('calls a tool, gets a prompt and reads a resource', async () => {
    const host = await api();
    assert.equal(text(await host.callTool('everything', 'echo', { message: 'from the API' })), 'Echo: from the API');
    const prompt = await host.getPrompt('fixture', 'greet', { who: 'Ada' });
    assert.deepEqual(prompt.messages[0].content, { type: 'text', text: 'Say hello to Ada.' });
    const resource = await host.readResource('fixture', 'fixture://readme');
    assert.equal((resource.contents[0] as { text: string }).text, 'README of fixture-legacy');
    assert.equal(text(await host.callTool('modern-http', 'add', { a: 20, b: 22 })), '42');
  });

  it('offers completion/complete suggestions for prompt arguments, using earlier arguments as context', async () => {
    const host = await api();
    assert.deepEqual(await host.completePromptArgument('everything', 'completable-prompt', 'department', 'S'), [
      'Sales',
      'Support',
    ]);
    assert.deepEqual(
      await host.completePromptArgument('everything', 'completable-prompt', 'name', '', { department: 'Marketing' }),
      ['Grace', 'Henry', 'Iris'],
    );
    assert.deepEqual(
      await host.completePromptArgument('fixture', 'greet', 'who', 'A'),
      [],
      'a server without completions offers none',
    );
  });

  it('cancels a call when the caller cancels its token', async () => {
    const host = await api();
    const source = new vscode.CancellationTokenSource();
    setTimeout(() => source.cancel(), 300);
    await assert.rejects(
      host.callTool('fixture', 'hang', {}, source.token),
      /tools\/call "hang" on MCP server "fixture" was cancelled/,
    );
  });

  it('fires onDidChangeServers as a server stops and starts again', async () => {
    const host = await api();
    const states: string[] = [];
    const listener = host.onDidChangeServers(() =>
      states.push(host.listServers().find((s) => s.id === 'fixture')!.status),
    );
    try {
      await host.stopServer('fixture');
      assert.equal(host.listServers().find((s) => s.id === 'fixture')?.status, 'stopped');
      await host.startServer('fixture');
      await until('fixture running', () => host.listServers().find((s) => s.id === 'fixture')?.status === 'running');
      assert.ok(
        states.includes('stopping') &&
          states.includes('stopped') &&
          states.includes('starting') &&
          states.includes('running'),
        states.join(','),
      );
    } finally {
      listener.dispose();
    }
  });

  it('rejects calls to unknown servers and unknown tools with errors that name them', async () => {
    const host = await api();
    await assert.rejects(host.callTool('nope', 'echo', {}), /There is no MCP server "nope" in settings\./);
    await assert.rejects(
      host.callTool('fixture', 'no-such-tool', {}),
      /MCP server "fixture": tools\/call "no-such-tool" failed/,
    );
  });
});
