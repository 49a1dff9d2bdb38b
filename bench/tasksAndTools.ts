// Figures for tasks and many tools, in the host's core (Node, no editor):
// 1. Polling cost: this process's CPU per second while it follows 20 running 2026-07-28 tasks
//    (the fixture asks for a poll every second), against the same host idle.
// 2. @mcp request preparation: building the tool offer (catalogue in stable order, model names,
//    switches, tool search past 128) and the instructions for 10 / 100 / 1,000 tools, against
//    naming the same tools alone (what preparation cost before: names and descriptions).
//   node out/bench/tasksAndTools.js [seconds=20]
import { performance } from 'node:perf_hooks';
import type { Tool } from '@modelcontextprotocol/client';
import { ModelToolOffer, toolCatalogue } from '../src/core/chat/modelToolOffer';
import { instructionsForModel } from '../src/core/chat/serverInstructions';
import type { ServerSnapshot } from '../src/core/connection/serverSnapshot';
import { modelToolNames } from '../src/core/connection/toolNames';
import { entries, harness, modern, running } from '../test/unit/support/hostHarness';
import { waitFor } from '../test/unit/support/fixtures';

const seconds = Number(process.argv.find((a) => a.startsWith('seconds='))?.slice(8) ?? 20);

async function cpuMsPerSecond(windowMs: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, windowMs));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (windowMs / 1000);
}

async function pollingCost(): Promise<string> {
  const { host } = harness();
  await host.applySettings(
    entries({ fx: modern({ args: [...modern().args, '--task-tools', '--task-poll-ms', '1000'] }) }),
  );
  await running(host, 'fx');
  const idle = await cpuMsPerSecond(seconds * 1000);
  const controller = new AbortController();
  const calls = Array.from({ length: 20 }, () =>
    host.callTool('fx', 'task-sleep', { ms: 3_600_000 }, controller.signal).catch(() => undefined),
  );
  await waitFor(
    '20 tasks working',
    () => host.tasks.list().filter((t) => t.status === 'working').length === 20,
    20_000,
  );
  const busy = await cpuMsPerSecond(seconds * 1000);
  controller.abort();
  await Promise.all(calls);
  await host.dispose();
  return `| following 20 tasks (poll every 1 s), ${seconds} s | ${busy.toFixed(1)} ms CPU/s | idle host ${idle.toFixed(1)} ms CPU/s | +${(busy - idle).toFixed(1)} ms/s (${((busy - idle) / 20).toFixed(2)} ms/s a task) |`;
}

function snapshots(tools: number): ServerSnapshot[] {
  return Array.from({ length: 5 }, (_, s) => ({
    id: `server${s}`,
    status: 'running',
    scope: 'user',
    transport: 'stdio',
    target: 'x',
    prompts: [],
    resources: [],
    moreResources: false,
    resourceTemplates: [],
    instructions: `Use the tools of server${s} for numbered work.`,
    tools: Array.from({ length: tools / 5 }, (_, i): Tool => ({
      name: `tool-${i}`,
      description: `Generated tool ${i} of server ${s}.`,
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    })),
  }));
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function preparation(tools: number): string {
  const servers = snapshots(tools);
  const offered = () => true;
  const time = (work: () => unknown) => {
    for (let i = 0; i < 20; i++) work();
    return median(
      Array.from({ length: 200 }, () => {
        const start = performance.now();
        work();
        return performance.now() - start;
      }),
    );
  };
  const ours = time(() => {
    const offer = new ModelToolOffer(toolCatalogue(servers, offered), 128);
    offer.tools();
    instructionsForModel(servers, new Set(offer.catalogue.map((e) => e.serverId)));
  });
  const names = time(() =>
    [
      ...modelToolNames(
        servers.flatMap((s) => s.tools.map((tool) => ({ serverId: s.id, toolName: tool.name, tool }))),
      ).entries(),
    ].map(([name, { serverId, tool }]) => ({
      name,
      description: `${tool.description} (MCP server "${serverId}")`,
      inputSchema: tool.inputSchema,
    })),
  );
  return `| @mcp request preparation, ${tools} tools over 5 servers | ${(ours * 1000).toFixed(0)} µs | naming them alone ${(names * 1000).toFixed(0)} µs | ${(ours / names).toFixed(2)} |`;
}

async function main(): Promise<void> {
  console.log('| work | MCP Host | baseline | ratio / difference |');
  console.log('| --- | --- | --- | --- |');
  for (const n of [10, 100, 1000]) console.log(preparation(n));
  console.log(await pollingCost());
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
