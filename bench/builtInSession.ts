// What the comparisons with VS Code's built-in MCP support (builtInComparison.ts, windowOpen.ts)
// share: the editor they open with both hosts' servers, what they read of its processes, and the
// table they print.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EditorSession, OUT } from '../test/editor/harness/editorSession';

export const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`${name}=`))?.split('=')[1] ?? fallback);

const only = process.argv
  .find((a) => a.startsWith('only='))
  ?.slice(5)
  .split(',');
/** Whether a section of the comparison runs (all of them unless only= names some). */
export const runs = (section: 'starts' | 'calls' | 'first' | 'big' | 'open') => !only || only.includes(section);

export const legacyStdio = (name: string) => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--name', name],
});
export interface Activation {
  readonly pid: number;
}
export interface CallFigures {
  readonly medianMs: number;
  readonly lastLength: number;
  /** Set when a call failed: what the editor said, and after how long. */
  readonly error?: string;
  readonly afterMs?: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** utime + stime (ms) and resident memory (MB) of a process, from /proc. */
export function usage(pid: number): { cpuMs: number; rssMb: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const rssPages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
  return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, rssMb: (rssPages * 4096) / 1024 / 1024 };
}

/** The workbench page's JavaScript heap in use after a full garbage collection, in bytes. */
export async function pageHeapUsed(editor: EditorSession): Promise<number> {
  const cdp = await editor.workbench.page.context().newCDPSession(editor.workbench.page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

/**
 * The CPU of the browser that shows the workbench, all its processes (the page's renderer, the
 * browser, GPU and network processes), in ms so far: the workbench page's own work with what it
 * makes the browser do. (The page's task time would count the time its tasks wait for a core.)
 */
export async function browserCpuClock(
  editor: EditorSession,
): Promise<{ read(): Promise<number>; stop(): Promise<void> }> {
  const browser = editor.workbench.page.context().browser();
  if (!browser) throw new Error('the workbench page has no browser to ask for its processes');
  const cdp = await browser.newBrowserCDPSession();
  return {
    async read() {
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      return processInfo.reduce((sum, process) => sum + process.cpuTime * 1000, 0);
    },
    stop: () => cdp.detach(),
  };
}

/** The built-in's id for a server of the first folder's .vscode/mcp.json. */
export const builtInId = (name: string) => `mcp.config.ws0.${name}`;

export interface WindowChoice {
  /** A window with only the built-in, as its users have it (MCP Host not installed). */
  readonly withoutMcpHost?: boolean;
  /** Files for the user data folder: MCP Host's code cache, as any window after the first has it. */
  readonly userDataFiles?: Readonly<Record<string, Uint8Array>>;
  /**
   * The window measured is the same window opened again (reloaded) after its host's servers all
   * ran in it, as a user's window is on most days: what each host keeps of its servers' last runs
   * is there.
   */
  readonly reopened?: boolean;
  /** The editor's environment (the test extension's floor servers: MCPHOST_BENCH_FLOOR). */
  readonly env?: Record<string, string>;
}

export async function openEditor(
  builtIn: Record<string, unknown>,
  host: Record<string, unknown>,
  settings: Record<string, unknown> = {},
  choice: WindowChoice = {},
): Promise<EditorSession> {
  const autoApproved = Object.fromEntries(
    Object.entries(host).map(([id, s]) => [id, { ...(s as object), autoApprove: ['*'] }]),
  );
  return EditorSession.start(
    { folders: ['ws'], settings: {}, files: { 'ws/.vscode/mcp.json': JSON.stringify({ servers: builtIn }) } },
    // Neither host asks before a tool runs: MCP Host's autoApprove, the built-in's global auto-approval.
    {
      trusted: true,
      userSettings: {
        'chat.disableAIFeatures': false,
        'chat.tools.global.autoApprove': true,
        'chat.tools.global.autoApprove.optIn': true,
        'mcpHost.servers': autoApproved,
        ...settings,
      },
      ...choice,
    },
  );
}

export const rows: string[] = [];
const digits = (value: number, unit: string) => (Math.abs(value) >= 20 ? 0 : unit === 'ms' ? 2 : 1);
export const row = (measure: string, ours: number, theirs: number, unit = 'ms') =>
  progress(
    rows[
      rows.push(
        `| ${measure} | ${ours.toFixed(digits(ours, unit))} ${unit} | ${theirs.toFixed(digits(theirs, unit))} ${unit} | ${theirs <= 0 ? '—' : (ours / theirs).toFixed(2)} |`,
      ) - 1
    ],
  );
export const progress = (line: string) => process.stderr.write(`${line}\n`);
