// Opening a window with 20 servers configured, MCP Host's ways against the built-in's (see
// builtInComparison.ts, which runs it as its `open` part).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CODE_CACHE_DIR, type EditorSession } from '../test/editor/harness/editorSession';
import {
  arg,
  builtInId,
  browserCpuClock,
  legacyStdio,
  median,
  openEditor,
  pageHeapUsed,
  progress,
  row,
  usage,
  type Activation,
  type CallFigures,
  type WindowChoice,
} from './builtInSession';

const openReps = arg('openReps', 5);
const OPEN_SECONDS = 20;
const SAMPLE_MS = 250;
/** A second in which the extension host used more CPU than this is busy (idle here: about 50 ms a second). */
const BUSY_CPU_MS_PER_SECOND = 200;

/** When the last busy second ended, in ms from the first sample (0: never busy); samples are cumulative CPU ms every SAMPLE_MS. */
function settledAfter(samples: readonly number[]): number {
  const perSecond = 1000 / SAMPLE_MS;
  for (let i = samples.length - 1; i >= perSecond; i--) {
    if (samples[i] - samples[i - perSecond] > BUSY_CPU_MS_PER_SECOND) return i * SAMPLE_MS;
  }
  return 0;
}

/**
 * One tool call through `vscode.lm.invokeTool` in a window where the tool's server has not started
 * (it starts for the call), in ms; the built-in's question whether to enable global auto-approval
 * is answered when it comes.
 */
async function firstCall(editor: EditorSession, call: { name: string; input: object }): Promise<number> {
  const tools = await editor.control<string[]>('lmTools');
  if (!tools.includes(call.name))
    throw new Error(`no language-model tool ${call.name} (has ${tools.filter((t) => t.startsWith('mcp')).join(', ')})`);
  const calling = editor.control<CallFigures>('lmToolCalls', { ...call, count: 1 }, 120_000);
  const dialog = editor.workbench.page.locator('.monaco-dialog-box', { hasText: 'Enable global auto approve?' });
  const asked = await Promise.race([
    dialog.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ),
    calling.then(() => false),
  ]);
  if (asked) await dialog.getByRole('button', { name: 'Enable' }).click();
  const figures = await calling;
  if (figures.error) throw new Error(`${call.name} failed: ${figures.error}`);
  if (!figures.lastLength) throw new Error(`${call.name} answered nothing`);
  return asked ? NaN : figures.medianMs;
}

/** The figures a window does not take (see each variant in windowOpen). */
const NOT_MEASURED = {
  firstCallMs: NaN,
  runningRssMb: NaN,
  heapMb: NaN,
  hostHeapMb: NaN,
  addedRssMb: NaN,
  addedHeapMb: NaN,
  startsCpuMs: NaN,
  startsHostCpuMs: NaN,
  quietCpuMs: NaN,
};

/** How long after the last of the 19 starts has its tools the CPU they take is still counted (lists kept, views drawn). */
const AFTER_STARTS_MS = 3000;

/**
 * MCP Host's code caches as an earlier window writes them (see src/bootstrap.ts), for the windows
 * measured after it: that window starts a server, so the libraries loaded on first use have theirs.
 */
async function warmCodeCache(): Promise<Record<string, Uint8Array>> {
  const editor = await openEditor({}, { warm: legacyStdio('warm') });
  try {
    const dir = path.join(editor.codeServer.userDataDir, CODE_CACHE_DIR);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.v8cache')) : [];
      if (['main.js-', 'libraries.js-'].every((bundle) => names.some((name) => name.startsWith(bundle))))
        return Object.fromEntries(
          names.map((name) => [path.join(CODE_CACHE_DIR, name), readFileSync(path.join(dir, name))]),
        );
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`MCP Host did not write the code caches of main.js and libraries.js in ${dir} within 60 s`);
  } finally {
    await editor.stop();
  }
}

/** Window open with 20 servers configured in one host (none in the other): extension-host CPU and memory, interleaved, medians. */
export async function windowOpen(): Promise<void> {
  const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, legacyStdio(`s${i}`)]));
  const measure = async (
    builtIn: Record<string, unknown>,
    host: Record<string, unknown>,
    settings: Record<string, unknown> = {},
    choice: WindowChoice = {},
  ) => {
    const editor = await openEditor(builtIn, host, settings, choice);
    try {
      if (choice.reopened) {
        const ids = Object.keys(Object.keys(builtIn).length ? builtIn : host);
        if (Object.keys(builtIn).length) await editor.control('builtInStart', { ids: ids.map(builtInId) });
        else await editor.control('hostStart', { ids });
        // A user's servers run a while before the window goes; MCP Host writes what it keeps of
        // their runs within half a second of the last start, and a remote window cannot write
        // once it is going (src/editor/mementoStores.ts, StateWrites).
        await new Promise((r) => setTimeout(r, 3_000));
        await editor.reloadWindow();
      }
      const { pid } = await editor.control<Activation>('activation');
      const start = usage(pid);
      // The extension host's CPU every quarter second: the host has settled after its last busy second.
      const samples: number[] = [start.cpuMs];
      while (samples.length <= (OPEN_SECONDS * 1000) / SAMPLE_MS) {
        await new Promise((r) => setTimeout(r, SAMPLE_MS));
        samples.push(usage(pid).cpuMs);
      }
      const open = samples[samples.length - 1] - start.cpuMs;
      // Each host's clients live where it runs them: MCP Host's in the extension host, the
      // built-in's partly in the workbench page; the heaps of both, after a collection, count both.
      const memory = async () => {
        const hostHeapMb = (await editor.control<number>('heapUsed')) / 1024 / 1024;
        const heapMb = hostHeapMb + (await pageHeapUsed(editor)) / 1024 / 1024;
        return { heapMb, hostHeapMb, rssMb: usage(pid).rssMb };
      };
      const figures = { openCpuMs: open, settledMs: settledAfter(samples) };
      // A window opened again: its opening, then the first call of a server that has not started in it.
      if (choice.reopened) {
        const ours = Object.keys(builtIn).length === 0;
        const [first, second] = Object.keys(ours ? host : builtIn);
        const call = ours
          ? (id: string) => ({
              name: 'mcpHost_callTool',
              input: { server: id, tool: 'echo', arguments: { text: 'hi' } },
            })
          : (id: string) => ({ name: `mcp_${id}_echo`, input: { text: 'hi' } });
        // A first call in a window may ask to enable auto-approval (the built-in): not the call measured.
        await firstCall(editor, call(second));
        const firstCallMs = await firstCall(editor, call(first));
        return { ...figures, ...NOT_MEASURED, firstCallMs };
      }
      const startedWithWindow = Object.keys(host).length > 0 && settings['mcpHost.autoStart'] === 'startup';
      if (startedWithWindow) {
        // MCP Host's default: the 20 run since the window opened.
        const servers = await editor.control<{ id: string; status: string }[]>('listServers');
        const notRunning = servers
          .filter((server) => server.status !== 'running')
          .map((server) => `${server.id} (${server.status})`);
        if (servers.length !== 20 || notRunning.length)
          throw new Error(
            `20 servers should run ${OPEN_SECONDS} s after the window opened; not running: ${notRunning.join(', ') || `${20 - servers.length} missing`}`,
          );
        const running = await memory();
        return {
          ...figures,
          ...NOT_MEASURED,
          runningRssMb: running.rssMb,
          heapMb: running.heapMb,
          hostHeapMb: running.hostHeapMb,
        };
      }
      // MCP Host's default in a first window: it learns its servers' lists once the window is idle.
      if (Object.keys(host).length > 0 && settings['mcpHost.learnInBackground'] !== false)
        return { ...figures, ...NOT_MEASURED };
      // Then all 20 running in that host, for its memory: one first, so that what a first start
      // loads and compiles once in a window (code, regular expressions) is not counted as what
      // each server adds, then the other 19.
      const [first, ...others] = Object.keys(Object.keys(builtIn).length ? builtIn : host);
      const startServers = (ids: string[]) =>
        Object.keys(builtIn).length
          ? editor.control('builtInStart', { ids: ids.map(builtInId) })
          : editor.control('hostStart', { ids });
      await startServers([first]);
      const withOne = await memory();
      // The CPU the 19 starts take: the built-in's clients run in the workbench page (the
      // browser's), MCP Host's views are drawn there; both hosts spawn and pipe in the extension host. Counted until
      // a while after the last has its tools, for what follows a start (lists kept, views drawn).
      const browser = await browserCpuClock(editor);
      const cpuNow = async () => ({ host: usage(pid).cpuMs, browser: await browser.read() });
      const spent = (from: { host: number; browser: number }, to: { host: number; browser: number }) => ({
        host: to.host - from.host,
        all: to.host - from.host + to.browser - from.browser,
      });
      // For reference: what the window takes in as many seconds when nothing starts.
      const quietFrom = await cpuNow();
      await new Promise((r) => setTimeout(r, AFTER_STARTS_MS));
      const quiet = spent(quietFrom, await cpuNow());
      const startsFrom = await cpuNow();
      await startServers(others);
      await new Promise((r) => setTimeout(r, AFTER_STARTS_MS));
      const starts = spent(startsFrom, await cpuNow());
      await browser.stop();
      const running = await memory();
      return {
        ...figures,
        runningRssMb: running.rssMb,
        heapMb: running.heapMb,
        hostHeapMb: running.hostHeapMb,
        addedRssMb: running.rssMb - withOne.rssMb,
        addedHeapMb: running.heapMb - withOne.heapMb,
        startsCpuMs: starts.all,
        startsHostCpuMs: starts.host,
        quietCpuMs: quiet.all,
        firstCallMs: NaN,
      };
    } finally {
      await editor.stop();
    }
  };
  type Figures = Awaited<ReturnType<typeof measure>>;
  const ours: Figures[] = [];
  const oursOnDemand: Figures[] = [];
  const oursDefaultFirst: Figures[] = [];
  const oursDefaultAgain: Figures[] = [];
  const theirs: Figures[] = [];
  const theirsAgain: Figures[] = [];
  const theirsBesideUs: Figures[] = [];
  // MCP Host's default (servers start at their first use, those not run yet learn their lists
  // when the window is idle), not the "startup" the editor tests' profile sets.
  const byDefault = { 'mcpHost.autoStart': undefined };
  // MCP Host's windows open as every window after its first does, with its code cache; the
  // built-in's without MCP Host, as its users have it.
  const userDataFiles = await warmCodeCache();
  const variants = [
    async () => ours.push(await measure({}, twenty, { 'mcpHost.autoStart': 'startup' }, { userDataFiles })),
    async () =>
      oursOnDemand.push(
        await measure(
          {},
          twenty,
          { 'mcpHost.autoStart': 'onDemand', 'mcpHost.learnInBackground': false },
          { userDataFiles },
        ),
      ),
    async () => oursDefaultFirst.push(await measure({}, twenty, byDefault, { userDataFiles })),
    async () => oursDefaultAgain.push(await measure({}, twenty, byDefault, { userDataFiles, reopened: true })),
    async () => theirs.push(await measure(twenty, {}, {}, { withoutMcpHost: true })),
    async () => theirsAgain.push(await measure(twenty, {}, {}, { withoutMcpHost: true, reopened: true })),
    // For reference: the built-in's window with MCP Host installed, without servers of its own.
    async () => theirsBesideUs.push(await measure(twenty, {}, {}, { userDataFiles })),
  ];
  for (let rep = 0; rep < openReps; rep++) {
    // Each round starts with another variant, so a drift on the machine does not favour one.
    for (let i = 0; i < variants.length; i++) await variants[(rep + i) % variants.length]();
    const figures = (key: 'openCpuMs' | 'settledMs') =>
      `${ours[rep][key]} (startup) / ${oursOnDemand[rep][key]} (onDemand, not learning) / ${oursDefaultFirst[rep][key]} (default, first window) / ${oursDefaultAgain[rep][key]} (default, opened again) / ${theirs[rep][key]} (built-in) / ${theirsAgain[rep][key]} (built-in, opened again) / ${theirsBesideUs[rep][key]} ms (built-in, MCP Host installed)`;
    progress(
      `window open, round ${rep + 1} of ${openReps}: CPU ${figures('openCpuMs')}; idle after ${figures('settledMs')}`,
    );
    const starts = (f: Figures) =>
      `${f.startsCpuMs.toFixed(0)} (${f.startsHostCpuMs} in the extension host; ${f.quietCpuMs.toFixed(0)} in ${AFTER_STARTS_MS / 1000} s without starts)`;
    progress(
      `  19 starts in the open window: CPU ${starts(oursOnDemand[rep])} (onDemand) / ${starts(theirs[rep])} (built-in) / ${starts(theirsBesideUs[rep])} ms (built-in, MCP Host installed)`,
    );
  }
  const of = (figures: Figures[], key: keyof Figures) => median(figures.map((f) => f[key]));
  const times = `median of ${openReps}`;
  row(
    `window opened again after its 20 servers ran (MCP Host's default: they start at their first use, their lists known from that run): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursDefaultAgain, 'openCpuMs'),
    of(theirsAgain, 'openCpuMs'),
  );
  row(
    `first tool call of a server that has not started in a window opened again (it starts for the call; MCP Host's call tool against the built-in's own tool, vscode.lm.invokeTool), ${times}`,
    of(oursDefaultAgain, 'firstCallMs'),
    of(theirsAgain, 'firstCallMs'),
  );
  row(
    `first window with 20 servers that never ran (MCP Host's default: they learn their lists one at a time once the window is idle): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursDefaultFirst, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `window open, 20 servers configured, "mcpHost.autoStart": "startup" (MCP Host starts them with the window): extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(ours, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `window open, 20 servers configured, "mcpHost.autoStart": "onDemand" without learning in the background: extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(oursOnDemand, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `(reference) the built-in's window of the row above with MCP Host installed, without servers of its own: extension-host CPU in the first ${OPEN_SECONDS} s, ${times}`,
    of(theirsBesideUs, 'openCpuMs'),
    of(theirs, 'openCpuMs'),
  );
  row(
    `20 servers running (MCP Host started them with the window, the built-in's started in the open window): extension-host memory (RSS), ${times}`,
    of(ours, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `20 servers running (MCP Host started them with the window, the built-in's started in the open window): JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(ours, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `20 servers running, started in an open window ("onDemand" for MCP Host): extension-host memory (RSS), ${times}`,
    of(oursOnDemand, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `(reference) the built-in's 20 running with MCP Host installed, without servers of its own: extension-host memory (RSS), ${times}`,
    of(theirsBesideUs, 'runningRssMb'),
    of(theirs, 'runningRssMb'),
    'MB',
  );
  row(
    `20 servers running, started in an open window ("onDemand" for MCP Host): JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(oursOnDemand, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `  the same: the extension host's heap alone, ${times}`,
    of(oursOnDemand, 'hostHeapMb'),
    of(theirs, 'hostHeapMb'),
    'MB',
  );
  row(
    `(reference) the built-in's 20 running with MCP Host installed, without servers of its own: JavaScript heap in use after a collection, extension host + workbench page, ${times}`,
    of(theirsBesideUs, 'heapMb'),
    of(theirs, 'heapMb'),
    'MB',
  );
  row(
    `  the same: the extension host's heap alone, ${times}`,
    of(theirsBesideUs, 'hostHeapMb'),
    of(theirs, 'hostHeapMb'),
    'MB',
  );
  // MCP Host's onDemand window opens as the built-in's does, with nothing started: the same start, added to the same kind of window.
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): CPU of the starts, extension host + the browser showing the workbench, until ${AFTER_STARTS_MS / 1000} s after the last has its tools, ${times}`,
    of(oursOnDemand, 'startsCpuMs'),
    of(theirs, 'startsCpuMs'),
  );
  row(
    `  the same starts: extension host's CPU alone, ${times}`,
    of(oursOnDemand, 'startsHostCpuMs'),
    of(theirs, 'startsHostCpuMs'),
  );
  row(
    `  (reference) the same window before the starts, ${AFTER_STARTS_MS / 1000} s without any: extension host + the browser, ${times}`,
    of(oursOnDemand, 'quietCpuMs'),
    of(theirs, 'quietCpuMs'),
  );
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): extension-host RSS they add, after a collection, ${times}`,
    of(oursOnDemand, 'addedRssMb'),
    of(theirs, 'addedRssMb'),
    'MB',
  );
  row(
    `19 servers started in an open window after a first one ("onDemand" for MCP Host): JavaScript heap they add, extension host + workbench page, after a collection, ${times}`,
    of(oursOnDemand, 'addedHeapMb'),
    of(theirs, 'addedHeapMb'),
    'MB',
  );
}
