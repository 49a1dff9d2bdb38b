// Figures for MCP Apps:
// 1. Bridge round trip: an app's tools/call (ext-apps App → AppSession → host → a real fixture
//    server over stdio and back) against the same call made by the host directly, interleaved,
//    medians of repeated calls. The editor adds the webview's postMessage hops on top.
// 2. First paint in a real VS Code: from the tool call's return (the public API, confirmation
//    allowed in settings) to the app in its sandbox showing the result, medians of repeated runs.
//   node out/bench/apps.js [calls=300] [runs=7] [editor=false]
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { appSandboxPolicy } from '../src/core/apps/appCsp';
import { AppSession, type AppHostPorts } from '../src/core/apps/appSession';
import { EditorSession, OUT } from '../test/editor/harness/editorSession';
import { entries, harness, legacy, running } from '../test/unit/support/hostHarness';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1) ?? fallback;
const calls = Number(arg('calls', '300'));
const runs = Number(arg('runs', '7'));

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function bridgeRoundTrip(): Promise<string> {
  const { host } = harness({ apps: true });
  await host.applySettings(entries({ fx: legacy({ args: [...legacy().args, '--app-tools'] }) }));
  await running(host, 'fx');
  const [hostSide, appSide] = InMemoryTransport.createLinkedPair();
  const ports = {
    callTool: (name: string, args: Record<string, unknown>, signal: AbortSignal) =>
      host.callTool('fx', name, args, signal),
    log: () => undefined,
    failed: () => undefined,
    initialized: () => undefined,
  } as unknown as AppHostPorts;
  const session = new AppSession(hostSide, ports, {
    hostInfo: { name: 'bench', version: '0' },
    hostContext: {},
    resource: { uri: 'ui://b', html: '', policy: appSandboxPolicy(undefined, undefined) },
  });
  await session.start();
  const app = new App({ name: 'bench-app', version: '1' }, {}, { autoResize: false });
  await app.connect(appSide);
  const direct: number[] = [];
  const bridged: number[] = [];
  for (let i = 0; i < calls + 20; i++) {
    let start = performance.now();
    await host.callTool('fx', 'echo', { text: 'x' });
    const d = performance.now() - start;
    start = performance.now();
    await app.callServerTool({ name: 'echo', arguments: { text: 'x' } });
    const b = performance.now() - start;
    if (i >= 20) {
      direct.push(d);
      bridged.push(b);
    }
  }
  await session.close('bench done');
  await host.dispose();
  const [d, b] = [median(direct), median(bridged)];
  return `| app tools/call through the bridge vs the host's own call (echo, stdio fixture, ${calls} interleaved) | ${(b * 1000).toFixed(0)} µs | ${(d * 1000).toFixed(0)} µs | ${(b / d).toFixed(2)} |`;
}

async function firstPaint(): Promise<string> {
  const servers = {
    board: {
      command: process.execPath,
      args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--app-tools'],
      autoApprove: ['show-board'],
    },
  };
  const editor = await EditorSession.start(
    { folders: ['ws'], settings: {} },
    { trusted: true, userSettings: { 'mcpHost.servers': servers } },
  );
  try {
    await editor.workbench.openMcpView();
    await editor.workbench.waitForServerDescription('board', /^\d+ tools?\b/, 90_000);
    const painted: number[] = [];
    const calls: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const started = performance.now();
      await editor.control('invokeTool', { serverId: 'board', name: 'show-board', args: { title: `run ${i}` } });
      const returned = performance.now();
      // Polled every few ms in every frame: the app's own text says it has the result.
      const shown = `Board: run ${i}|Got the result.`;
      for (;;) {
        const texts = await Promise.all(
          editor.workbench.page
            .frames()
            .map((f) =>
              f
                .evaluate<string>(
                  "`${document.getElementById('title')?.textContent}|${document.getElementById('status')?.textContent}`",
                )
                .catch(() => ''),
            ),
        );
        if (texts.includes(shown)) break;
        if (performance.now() - returned > 60_000) throw new Error('the app never showed the result');
        await new Promise((r) => setTimeout(r, 5));
      }
      if (i > 0) {
        painted.push(performance.now() - returned);
        calls.push(returned - started);
      }
      await editor.control('executeCommand', { command: 'workbench.action.closeAllEditors' });
    }
    return `| tool result → its app shows it (board fixture, real VS Code, ${runs} runs) | ${median(painted).toFixed(0)} ms | tool call itself ${median(calls).toFixed(0)} ms | ${(median(painted) / median(calls)).toFixed(2)} |`;
  } finally {
    await editor.stop();
  }
}

async function main(): Promise<void> {
  const rows = ['| MCP Apps | MCP Host | baseline | ratio |', '| --- | --- | --- | --- |', await bridgeRoundTrip()];
  if (arg('editor', 'false') === 'true') rows.push(await firstPaint());
  console.log(rows.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
