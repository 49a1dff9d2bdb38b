// Time from choosing a registry entry to a running server: read the chosen version from the
// loopback registry, turn its npm package into an entry, apply it and wait until its tools are
// listed; against applying the same entry already written (a hand-written setting). Both start
// server-everything through `npx -y` at the same version; runs interleaved, one warm-up each.
//   node out/bench/registry.js [reps=7]
import { performance } from 'node:perf_hooks';
import { RegistryClient } from '../src/core/registry/registryClient';
import { installChoices, registryEntry } from '../src/core/registry/registryInstall';
import { startRegistryFixture } from '../test/fixtures/registry/registryFixture';
import { entries, harness, running } from '../test/unit/support/hostHarness';

const reps = Number(process.argv.find((a) => a.startsWith('reps='))?.slice(5) ?? 7);
const NAME = 'io.github.modelcontextprotocol/server-everything';

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const registry = await startRegistryFixture();
  const client = new RegistryClient(registry.url, fetch);
  const handWritten = registryEntry('everything', installChoices(await client.version(NAME, '2026.8.31'))[0], {}).entry;
  const variants: Record<string, () => Promise<Record<string, unknown>>> = {
    registry: async () =>
      registryEntry('everything', installChoices(await client.version(NAME, '2026.8.31'))[0], {}).entry,
    'hand-written': async () => handWritten,
  };
  const samples: Record<string, number[]> = { registry: [], 'hand-written': [] };
  for (let rep = 0; rep <= reps; rep++) {
    for (const [variant, entry] of Object.entries(variants)) {
      const { host } = harness();
      const start = performance.now();
      await host.applySettings(entries({ everything: await entry() }));
      await running(host, 'everything');
      const ms = performance.now() - start;
      await host.dispose();
      if (rep > 0) samples[variant].push(ms);
    }
  }
  await registry.close();
  const [fromRegistry, byHand] = [median(samples.registry), median(samples['hand-written'])];
  console.log('| measure | MCP Host | baseline | ratio |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| registry entry chosen → server-everything running (npx -y, loopback registry), median of ${reps} | ${fromRegistry.toFixed(0)} ms | same entry hand-written ${byHand.toFixed(0)} ms | ${(fromRegistry / byHand).toFixed(2)} |`,
  );
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
