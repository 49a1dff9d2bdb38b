// The first @mcp request in a window that has just opened, as a newcomer sends it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { OUT } from '../harness/editorSession';
import { scenarioEditor } from '../harness/scenarioEditor';

describe('The first chat request in a new window', function () {
  this.timeout(240_000);
  const editor = scenarioEditor(
    { fixture: { command: process.execPath, args: [path.join(OUT, 'test/fixtures/servers/legacyStdio.js')] } },
    { 'chat.disableAIFeatures': false },
  );

  it('is answered by @mcp, not refused with "Language model unavailable"', async () => {
    await editor().workbench.openChat();
    await editor().workbench.sendChat('@mcp hello there');
    const response = await editor().workbench.lastChatResponse(
      /Model saw:|Language model unavailable|unavailable/i,
      90_000,
    );
    await editor().workbench.screenshot('118-first-chat-request');
    assert.doesNotMatch(response, /unavailable/i);
    assert.match(response, /Model saw:[\s\S]*hello there/);
  });
});
