// Skills (SEP-2640) in a real VS Code: the fixture server offers two skills through the server
// library's SkillsExtension, one of them served with bytes that do not match its digest.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';
import { waitFor } from '../../unit/support/fixtures';

describe('Skills of MCP servers in a real VS Code', function () {
  this.timeout(240_000);
  const editor = scenarioEditor(
    {
      skilled: {
        command: process.execPath,
        args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js'), '--skills'],
      },
    },
    { 'chat.disableAIFeatures': false },
  );
  const page = () => editor().workbench.page;
  const pane = () => editor().workbench.serversPane();
  const row = (label: string) =>
    pane()
      .locator('.monaco-list-row')
      .filter({ has: page().locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });

  it("lists a server's skills in the Servers view, opens one read-only, and refuses the one whose digest does not match", async () => {
    assert.match(await editor().workbench.serverDescription('skilled'), / · 2 skills\b/);
    await editor().workbench.expandServerTools('skilled', /^Skills \(2\)/);
    const notes = row('release-notes');
    await notes.waitFor({ timeout: 10_000 });
    assert.match(
      (await notes.locator('.label-description').textContent()) ?? '',
      /^Writes release notes in the house style · \d+ B$/,
    );
    await notes.click();
    const text = page().locator('.editor-instance .view-lines');
    await waitFor(
      'the skill in an editor',
      async () =>
        /Read references\/STYLE\.md, then write the notes\./.test(
          ((await text.textContent()) ?? '').replace(/\u00a0/g, ' '),
        ),
      30_000,
    );
    assert.match((await page().locator('.tab.active').textContent()) ?? '', /release-notes \(skilled\)/);
    await editor().workbench.screenshot('119-skill-opened');
    await row('tampered').click();
    await waitFor(
      'the refusal',
      async () =>
        (await editor().workbench.notifications()).some((n) =>
          /The skill skill:\/\/tampered\/SKILL\.md was refused: SKILL\.md failed verification \(digest/.test(n),
        ),
      30_000,
    );
    await waitFor(
      'the row to say so',
      async () =>
        /^refused: SKILL\.md failed verification \(digest/.test(
          (await row('tampered').locator('.label-description').textContent()) ?? '',
        ),
      30_000,
    );
    await editor().workbench.screenshot('120-skill-refused');
  });

  it("lets @mcp's model load a skill when it decides to, verified, and never offers the refused one", async () => {
    await waitFor(
      'the fixture chat model',
      async () => (await editor().control<string[]>('chatModels')).includes('fixture-model'),
      30_000,
    );
    await editor().workbench.openChat();
    await editor().workbench.sendChat('@mcp use mcp_load_skill {"skill":"skilled/release-notes"}');
    const answer = await editor().workbench.lastChatResponse(/Tool results: Skill release-notes:/);
    assert.match(answer, /Loaded skill skilled\/release-notes\./);
    assert.match(answer, /Read references\/STYLE\.md, then write the notes\./);
    const requests = await editor().control<{ texts: string[]; tools: string[] }[]>('modelRequests');
    const first = requests.find((r) => r.tools.includes('mcp_load_skill'))!;
    const introduction = first.texts.find((t) => t.startsWith('MCP servers offer these skills')) ?? '';
    assert.match(introduction, /- skilled\/release-notes: Writes release notes in the house style/);
    assert.doesNotMatch(introduction, /tampered/, 'the refused skill is not offered to the model');
  });
});
