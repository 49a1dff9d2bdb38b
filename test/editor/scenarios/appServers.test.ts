// The App servers of the ext-apps family on npm that work offline, each run as its package ships
// it, beside MCP Host's own fixtures: every app must start under MCP Host's sandbox, finish its
// handshake, draw what its tool returned, and leave the panel without an error.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { REPO } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

interface AppServer {
  /** The tool that opens the app (every one needs no arguments) and its title in the confirmation. */
  readonly tool: string;
  readonly title: string;
  /** What the tool is called with (an app may draw its input, not its result). */
  readonly args?: Record<string, unknown>;
  /** A selector in the app's document once it drew what the tool returned. */
  readonly drawn: string;
  /** What the drawn element shows, when it shows text. */
  readonly text?: RegExp;
  /** A selector whose text the app's own calls change (a poll): it must change without a dialog. */
  readonly changes?: string;
}

const APPS: Record<string, AppServer> = {
  // Polls an app-only tool every few seconds: that must ask the user nothing.
  'system-monitor': {
    tool: 'get-system-info',
    title: 'Get System Info',
    drawn: '#memory-percent',
    text: /\d+(\.\d+)?%/,
    changes: '#status-text',
  },
  'budget-allocator': { tool: 'get-budget-data', title: 'Get Budget Data', drawn: '#sliders-container input' },
  'cohort-heatmap': {
    tool: 'get-cohort-data',
    title: 'Get Cohort Retention Data',
    drawn: '#root',
    text: /Cohort Retention Analysis[\s\S]*M0[\s\S]*100/,
  },
  'scenario-modeler': {
    tool: 'get-scenario-data',
    title: 'Get Scenario Data',
    drawn: '#root svg, #root canvas, #root table',
  },
  // Its app calls the tool that opened it again, for its data: that asks nothing either.
  'customer-segmentation': { tool: 'get-customer-data', title: 'Get Customer Data', drawn: '#legend .legend-item' },
  'basic-react': { tool: 'get-time', title: 'Get Time', drawn: '#root', text: /\d{4}-\d\d-\d\dT\d\d:\d\d/ },
  'sheet-music': {
    tool: 'play-sheet-music',
    title: 'Play Sheet Music',
    args: { abcNotation: 'X:1\nT:Scale\nM:4/4\nL:1/4\nK:C\nC D E F | G A B c |' },
    drawn: '#sheet-music svg',
  },
};

/**
 * server-threejs runs the scene's code, which the model writes, with `new Function`: that needs
 * `'unsafe-eval'`, which the specification's policy does not grant and MCP Host does not add
 * (nor does VS Code's built-in host). The app says so itself.
 */
const EVAL_APP = { name: 'threejs', tool: 'show_threejs_scene', title: 'Show Three.js Scene' };

const servers = Object.fromEntries(
  [...Object.keys(APPS), EVAL_APP.name].map((name) => [
    name,
    {
      command: process.execPath,
      args: [path.join(REPO, `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`), '--stdio'],
    },
  ]),
);

describe('The App servers of the ext-apps family, from npm', function () {
  this.timeout(240_000);
  const editor = scenarioEditor(servers, { 'chat.disableAIFeatures': false });
  const page = () => editor().workbench.page;

  /** Runs the tool as a user who confirms it, and returns the app's document once `selector` is in it. */
  async function open(
    serverId: string,
    tool: string,
    title: string,
    args: Record<string, unknown>,
    selector: string,
  ): Promise<Frame> {
    void editor()
      .control('invokeTool', { serverId, name: tool, args })
      .catch(() => undefined);
    const dialog = await editor().workbench.dialog();
    assert.match(
      (await dialog.textContent()) ?? '',
      new RegExp(`MCP server "${serverId}": run tool "${title.replace(/[.]/g, '\\.')}"\\?`),
    );
    await dialog.getByRole('button', { name: 'Run Once', exact: true }).click();
    return editor().workbench.webview(selector, 60_000);
  }
  const textOf = async (frame: Frame, selector: string) => (await frame.locator(selector).first().textContent()) ?? '';

  for (const [name, app] of Object.entries(APPS)) {
    it(`${name}: ${app.tool} opens its app, which draws the result under MCP Host's sandbox`, async () => {
      const frame = await open(name, app.tool, app.title, app.args ?? {}, app.drawn);
      if (app.text)
        await waitFor(
          `${app.drawn} to show ${app.text}`,
          async () => app.text!.test(await textOf(frame, app.drawn)),
          30_000,
        );
      if (app.changes) {
        const first = await textOf(frame, app.changes);
        await waitFor(
          `${app.changes} to change from "${first}"`,
          async () => (await textOf(frame, app.changes!)) !== first,
          30_000,
        );
      }
      const host = await editor().workbench.webview('#app-frame', 10_000);
      assert.equal(
        await host.locator('#app-status').getAttribute('class'),
        'app-status',
        `the panel says: ${await host.locator('#app-status').textContent()}`,
      );
      await editor().workbench.screenshot(`117-app-server-${name}`);
      // The app's own calls (a poll, a chunk) asked nothing.
      assert.equal(await page().locator('.monaco-dialog-box').count(), 0);
    });
  }

  it('threejs: its app is refused the eval it runs the scene with, and says so', async () => {
    const frame = await open(EVAL_APP.name, EVAL_APP.tool, EVAL_APP.title, {}, '#root');
    await waitFor(
      'the app to show why',
      async () => /'unsafe-eval' is not an allowed source of script/.test(await textOf(frame, '#root')),
      30_000,
    );
  });
});
