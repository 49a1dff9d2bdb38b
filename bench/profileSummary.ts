// Where an extension host's CPU went, from a V8 CPU profile (the bench's `profile=1`): self time
// per script, the heaviest functions, and the share of MCP Host's own bundle.
//   node out/bench/profileSummary.js test-results/profiles/*.cpuprofile [top=15]
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

const files = process.argv.slice(2).filter((a) => !a.includes('='));
const top = Number(process.argv.find((a) => a.startsWith('top='))?.slice(4) ?? 15);

/** A script's short name: its bundle or module, without the machine's folders. */
function scriptOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const file = url.replace(/^file:\/\//, '');
  if (file.includes('/mcp-host.mcp-host') || file.includes('/mcp-host/dist/')) return `MCP Host ${path.basename(file)}`;
  if (file.includes('mcp-host-test-host')) return 'test extension';
  if (file.startsWith('node:')) return file;
  const vscode = file.indexOf('/out/vs/');
  if (vscode >= 0) return `VS Code ${file.slice(vscode + 5)}`;
  return path.basename(file);
}

function summarize(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const scripts = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!node) continue;
    total += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const script = scriptOf(url, functionName);
    scripts.set(script, (scripts.get(script) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${script}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const busy = total - (scripts.get('(idle)') ?? 0) - (scripts.get('(program)') ?? 0);
  const line = ([name, ms]: [string, number]) =>
    `  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}`;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(
    `${path.basename(file)}: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms running JavaScript or GC\n` +
      `by script:\n${sorted(scripts).map(line).join('\n')}\nby function (self):\n${sorted(functions).map(line).join('\n')}\n\n`,
  );
}

for (const file of files) summarize(file);
