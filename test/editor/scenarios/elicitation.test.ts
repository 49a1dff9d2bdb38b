// Elicitation in a real VS Code (code-server) driven through Chromium: forms in a webview, consent
// before a URL opens (in the browser, as a new tab the test reads instead of a real browser), and
// the -32042 retry.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { OUT, REPO } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

const fixture = (script: string) => ({
  command: process.execPath,
  args: [path.join(OUT, `test/fixtures/servers/${script}.js`), '--elicitation-tools'],
});
const everything = {
  command: process.execPath,
  args: [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};
const servers = { everything, fixture: fixture('legacyStdio'), modern: fixture('modernStdio') };

interface ToolResult {
  content: { type: string; text?: string }[];
}

describe('Elicitation in a real VS Code', function () {
  this.timeout(180_000);
  const editor = scenarioEditor(servers);

  const call = (serverId: string, name: string, args: Record<string, unknown>) =>
    editor().control<ToolResult>('callTool', { serverId, name, args }, 120_000);
  const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
  const field = (id: string) => `#field_${id}`;
  const tabs = (title: string) => editor().workbench.page.locator('.tab', { hasText: title });

  /**
   * After our consent, VS Code's own link protection asks once more for domains the user has not
   * trusted; a user presses Open there too. Resolves with the browser tab that opened.
   */
  async function openThroughEditor(
    consent: import('playwright-core').Locator,
  ): Promise<import('playwright-core').Page> {
    // No internet here: the browser tab gets a stand-in page, so its address is what was opened.
    const context = editor().workbench.page.context();
    await context.route(/^https:\/\/(login\.)?example\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>stand-in</title>' }),
    );
    const popup = context.waitForEvent('page', { timeout: 30_000 });
    await consent.getByRole('button', { name: 'Open in Browser', exact: true }).click();
    const protection = editor().workbench.page.locator('.monaco-dialog-box', { hasText: 'open the external website' });
    await protection.waitFor();
    await protection.getByRole('button', { name: 'Open', exact: true }).click();
    const opened = await popup;
    await waitFor('the new tab to get its URL', async () => opened.url() !== 'about:blank' && opened.url());
    return opened;
  }

  it("shows server-everything's form with every field, pre-fills defaults, and returns what the user submitted", async () => {
    const result = call('everything', 'trigger-elicitation-request', {});
    const form = await editor().workbench.webview('#decline');
    const page = (await form.locator('#app').textContent()) ?? '';
    assert.match(page, /MCP server "everything" asks for input/);
    assert.match(page, /Please provide inputs for the following fields:/);
    assert.equal(
      await form.locator(field('check')).evaluate((e) => (e as unknown as { label: string }).label),
      'Boolean',
      'the boolean is a labelled checkbox',
    );
    for (const label of [
      'String',
      'String with default',
      'String with email format',
      'String with uri format',
      'String with date format',
      'Integer',
      'Number in range 1-1000',
      'Untitled Single Select Enum',
      'Untitled Multiple Select Enum',
      'Titled Single Select Enum',
      'Titled Multiple Select Enum',
      'Legacy Titled Single Select Enum',
    ]) {
      assert.ok(page.includes(label), `the form shows "${label}"`);
    }
    assert.equal(
      await form.locator(`${field('firstLine')} input`).inputValue(),
      'It was a dark and stormy night.',
      'defaults are pre-filled',
    );
    assert.equal(await form.locator(`${field('integer')} input`).inputValue(), '42');
    assert.equal(await form.locator(`${field('email')} input`).getAttribute('type'), 'email');
    await form.locator('#submit').click();
    await form.locator('[data-problem-for="/name"]', { hasText: 'Required.' }).waitFor();
    await editor().workbench.screenshot('40-elicitation-form');
    await form.locator(`${field('name')} input`).fill('Ada Lovelace');
    await form.locator('#submit').click();
    const text = textOf(await result);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /"firstLine": "It was a dark and stormy night\."/, 'a default is accepted as is');
    assert.match(text, /"integer": 42/);
  });

  it('keeps the form clear of the "Running …" notification of the call that asked for it', async () => {
    const { workbench } = editor();
    await workbench.runCommand('MCP Host: Run Tool…');
    await workbench.page.locator('.quick-input-widget input').fill('trigger-elicitation-request');
    await workbench.pick('trigger-elicitation-request', 'everything');
    // A tool without arguments may show its (empty) form first; the call is confirmed; then the server asks.
    await waitFor(
      'the server to ask through its form',
      async () => {
        const dialog = workbench.page.locator('.monaco-dialog-box');
        if (await dialog.count()) await dialog.getByRole('button', { name: 'Run Once', exact: true }).click();
        for (const frame of workbench.page.frames()) {
          if (
            await frame
              .locator('#decline')
              .count()
              .catch(() => 0)
          )
            return true;
          if (
            await frame
              .locator('#submit')
              .count()
              .catch(() => 0)
          )
            await frame.locator('#submit').click();
        }
        return undefined;
      },
      60_000,
    );
    const form = await workbench.webview('#decline');
    const toast = workbench.page.locator('.notification-toast', { hasText: 'Running' });
    await toast.waitFor({ timeout: 30_000 });
    // Scrolled to its end, as a user does to reach the buttons: nothing of it is under the notification.
    await form.locator('html').evaluate((root) => ((root as unknown as { scrollTop: number }).scrollTop = 1e9));
    const covered = await toast.boundingBox();
    assert.ok(covered, 'the notification is shown');
    for (const part of ['#submit', '#decline', '.field']) {
      const box = (await form.locator(part).last().boundingBox())!;
      const overlaps =
        box.x < covered.x + covered.width &&
        covered.x < box.x + box.width &&
        box.y < covered.y + covered.height &&
        covered.y < box.y + box.height;
      assert.ok(!overlaps, `${part} is under the notification: ${JSON.stringify({ box, covered })}`);
    }
    await workbench.screenshot('42-elicitation-form-beside-progress');
    await form.locator(`${field('name')} input`).fill('Ada Lovelace');
    await form.locator('#submit').click();
    await toast.waitFor({ state: 'detached', timeout: 30_000 });
  });

  it('answers decline for Decline and cancel for closing the panel', async () => {
    const declined = call('everything', 'trigger-elicitation-request', {});
    await (await editor().workbench.webview('#decline')).locator('#decline').click();
    assert.match(textOf(await declined), /"action": "decline"/);
    await waitFor('the form to close', async () => (await tabs('Input for everything').count()) === 0);
    const closed = call('everything', 'trigger-elicitation-request', {});
    await editor().workbench.webview('#decline');
    await tabs('Input for everything').locator('.tab-actions .action-label').click();
    assert.match(textOf(await closed), /"action": "cancel"/);
  });

  it('closes the form when the server gives up on its request (notifications/cancelled)', async () => {
    // Long enough for the form to show on a loaded machine; the server gives up after that.
    const result = call('fixture', 'ask', { cancelAfterMs: 10_000 });
    await editor().workbench.webview('#decline');
    assert.match(textOf(await result), /elicitation failed: .*timed out/i);
    await waitFor('the form to close', async () => (await tabs('Input for fixture').count()) === 0);
    await waitFor(
      'nothing counted as waiting',
      async () => (await editor().workbench.page.locator('.statusbar-item', { hasText: 'MCP request' }).count()) === 0,
    );
  });

  it('asks consent before opening a URL, shows its host, and opens it outside the editor', async () => {
    const result = call('everything', 'trigger-url-elicitation', {
      url: 'https://example.com/authorize?state=42',
      message: 'Please authorize the demo.',
    });
    const dialog = await editor().workbench.dialog();
    const shown = (await dialog.textContent()) ?? '';
    assert.match(shown, /MCP server "everything" asks you to open a web page/);
    assert.match(shown, /Please authorize the demo\./);
    assert.match(shown, /HOST: example\.com/);
    assert.match(shown, /Full URL: https:\/\/example\.com\/authorize\?state=42/);
    await editor().workbench.screenshot('41-elicitation-url-consent');
    const opened = await openThroughEditor(dialog);
    assert.equal(opened.url(), 'https://example.com/authorize?state=42');
    await opened.close();
    assert.match(textOf(await result), /"action": "accept"/);
  });

  it('on -32042 asks consent for the listed URL and retries the call when the server reports it complete', async () => {
    const result = call('fixture', 'needs-login', { manual: true });
    const dialog = await editor().workbench.dialog();
    assert.match((await dialog.textContent()) ?? '', /HOST: login\.example\.com/);
    const opened = await openThroughEditor(dialog);
    assert.equal(opened.url(), 'https://login.example.com/start?session=fixture');
    await opened.close();
    await editor()
      .workbench.page.locator('.notification-toast', {
        hasText: 'Finish in your browser what MCP server "fixture" asked for',
      })
      .waitFor();
    await editor().workbench.screenshot('42-elicitation-waiting-for-browser');
    assert.equal(
      textOf(await call('fixture', 'finish-login', {})),
      'finished',
      'the server reports the sign-in complete',
    );
    assert.equal(textOf(await result), 'signed in, hello');
  });

  it('answers a 2026-07-28 server that asks for a form through input_required', async () => {
    const result = call('modern', 'ask', {});
    const form = await editor().workbench.webview('#decline');
    assert.match(
      (await form.locator('.description').textContent()) ?? '',
      /^Tell us about you\. See https:\/\/example\.com\/why \(not a link\)\.$/,
    );
    assert.equal(await form.locator('.description a').count(), 0, "no link in the server's message is clickable");
    await form.locator(`${field('name')} input`).fill('Grace');
    await form.locator('#submit').click();
    assert.deepEqual(JSON.parse(textOf(await result)), {
      action: 'accept',
      content: { name: 'Grace', color: 'green', subscribe: true },
    });
  });
});
