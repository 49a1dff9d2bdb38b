// Footprint inside a real VS Code (code-server): MCP Host's activation time against a minimal
// extension activated in the same window, the extension host's CPU time while idle, and its CPU
// for showing a long list of resources.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EditorSession, OUT, REPO } from '../test/editor/harness/editorSession';
import type { McpServerInfo } from '../src/editor/publicApi';

const IDLE_SECONDS = 30;

const servers = {
  legacy: { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')] },
  modern: { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/modernStdio.js')] },
  everything: {
    command: process.execPath,
    args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  },
};

interface Activation {
  readonly mcpHostMs: number;
  readonly minimalMs: number;
  readonly pid: number;
}

/** utime + stime of a process, in ms (Linux /proc; clock ticks are 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function session(withServers: boolean): Promise<EditorSession> {
  return EditorSession.start(
    { folders: ['ws'], settings: {} },
    { trusted: true, userSettings: { 'mcpHost.servers': withServers ? servers : {} } },
  );
}

async function allRunning(editor: EditorSession): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const list = await editor.control<McpServerInfo[]>('listServers');
    if (list.length === 3 && list.every((s) => s.status === 'running')) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the footprint servers did not all start');
}

export async function measureEditorFootprint(
  loads: number,
): Promise<{ activations: Activation[]; idle: { withServersMs: number; withoutServersMs: number } }> {
  const activations: Activation[] = [];
  let withServersMs = 0;
  for (let i = 0; i < loads; i++) {
    const editor = await session(true);
    try {
      await allRunning(editor);
      const activation = await editor.control<Activation>('activation');
      activations.push(activation);
      if (i === loads - 1) {
        const before = cpuMs(activation.pid);
        await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
        withServersMs = cpuMs(activation.pid) - before;
      }
    } finally {
      await editor.stop();
    }
  }
  const bare = await session(false);
  let withoutServersMs = 0;
  try {
    const { pid } = await bare.control<Activation>('activation');
    await new Promise((r) => setTimeout(r, 3000)); // let start-up work settle, as above
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    withoutServersMs = cpuMs(pid) - before;
  } finally {
    await bare.stop();
  }
  return { activations, idle: { withServersMs, withoutServersMs } };
}

/**
 * The extension host's CPU from a click that expands a server with `count` resources (one page)
 * in the Resources view until its rows show, and the time until they do; one window per sample.
 */
export async function measureResourcesExpand(
  count: number,
  samples: number,
): Promise<{ cpuMs: number; shownMs: number }[]> {
  const kit = {
    command: process.execPath,
    args: [
      path.join(OUT, 'test/fixtures/servers/legacyStdio.js'),
      '--extra-resources',
      String(count),
      '--resource-page-size',
      String(count),
    ],
  };
  const figures: { cpuMs: number; shownMs: number }[] = [];
  for (let i = 0; i < samples; i++) {
    const editor = await EditorSession.start(
      { folders: ['ws'], settings: {} },
      { trusted: true, userSettings: { 'mcpHost.servers': { kit } } },
    );
    try {
      const { pid } = await editor.control<Activation>('activation');
      await editor.workbench.openMcpView();
      await editor.workbench.waitForServerDescription('kit', /^\d+ tools?\b/, 60_000);
      await editor.control('executeCommand', { command: 'mcpHost.resources.focus' });
      const page = editor.workbench.page;
      const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'MCP Resources' }) });
      const row = view.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^kit$/ }) });
      await row.waitFor();
      await new Promise((r) => setTimeout(r, 2000)); // let the start's work settle
      const before = cpuMs(pid);
      const started = Date.now();
      await row.click();
      await view.locator('.monaco-list-row', { hasText: 'item-1' }).first().waitFor({ timeout: 60_000 });
      const shownMs = Date.now() - started;
      // What follows the rows (the rest of the reply to the window) counts too.
      await new Promise((r) => setTimeout(r, 2000));
      figures.push({ cpuMs: cpuMs(pid) - before, shownMs });
    } finally {
      await editor.stop();
    }
  }
  return figures;
}
