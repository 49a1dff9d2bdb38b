// An HTTP server reached through the editor's proxy setting (`http.proxy`): a real proxy on
// loopback carries the session, in a real VS Code.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scenarioEditor } from '../harness/scenarioEditor';
import { startHttpFixture, waitFor, type RunningProcess } from '../../unit/support/fixtures';

describe("An HTTP server behind the editor's proxy, in a real VS Code", function () {
  this.timeout(180_000);
  const servers: Record<string, unknown> = {};
  const userSettings: Record<string, unknown> = {};
  let fixture: RunningProcess;
  let proxy: http.Server;
  const seen: string[] = [];

  before(async () => {
    fixture = await startHttpFixture();
    const { createProxy } = await import('proxy');
    proxy = createProxy(http.createServer());
    proxy.on('connect', (req: http.IncomingMessage) => seen.push(`CONNECT ${req.url}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    servers.remote = { url: `http://127.0.0.1:${fixture.port}/mcp` };
    userSettings['http.proxy'] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  const editor = scenarioEditor(servers, userSettings);
  after(async () => {
    proxy.closeAllConnections();
    proxy.close();
    await fixture?.stop();
  });

  it('connects through the proxy "http.proxy" names: the proxy carries its requests', async () => {
    assert.match(await editor().workbench.serverDescription('remote'), /^\d+ tools/);
    const result = await editor().control<{ content: { text: string }[] }>('callTool', {
      serverId: 'remote',
      name: 'echo',
      args: { text: 'through the proxy' },
    });
    assert.equal(result.content[0].text, 'through the proxy');
    const tunnels = await waitFor(
      'tunnels to the server',
      () => seen.filter((line) => line === `CONNECT 127.0.0.1:${fixture.port}`).length > 0 && seen,
    );
    assert.ok(tunnels.length > 0);
    await editor().workbench.screenshot('77-server-behind-proxy');
  });
});
