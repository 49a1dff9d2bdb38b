import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { listenForRedirect } from '../../../src/editor/auth/loopbackRedirect';
import { freePort } from '../support/fixtures';

async function get(url: string): Promise<{ status: number; body: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url);
      return { status: response.status, body: await response.text() };
    } catch (error) {
      if (attempt > 50) throw error; // the listener may not be up yet
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('the loopback redirect listener', () => {
  it('answers the redirect once with a page that echoes nothing, hands back its query, and closes', async () => {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const answer = listenForRedirect(redirect, new AbortController().signal);
    assert.equal((await get(`http://127.0.0.1:${port}/other?code=x`)).status, 404);
    const page = await get(
      `${redirect}?code=abc&state=s1&iss=${encodeURIComponent('https://as.example')}&x=%3Cscript%3E`,
    );
    assert.equal(page.status, 200);
    assert.match(page.body, /MCP Host received the sign-in/);
    assert.ok(!page.body.includes('<script>') && !page.body.includes('abc'), 'nothing from the request is echoed');
    const params = await answer;
    assert.equal(params.get('code'), 'abc');
    assert.equal(params.get('state'), 's1');
    assert.equal(params.get('iss'), 'https://as.example');
    await assert.rejects(fetch(redirect), /fetch failed/);
  });

  it('says which port is taken and what to set when another program holds it', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await assert.rejects(
        listenForRedirect(`http://127.0.0.1:${port}/callback`, new AbortController().signal),
        new RegExp(
          `^Error: port ${port} on 127\\.0\\.0\\.1, where the browser returns after sign-in, is in use by another program; close it or set "oauth\\.redirectPort"$`,
        ),
      );
    } finally {
      blocker.close();
    }
  });

  it('stops listening when the sign-in is cancelled', async () => {
    const port = await freePort();
    const abort = new AbortController();
    const answer = listenForRedirect(`http://127.0.0.1:${port}/callback`, abort.signal);
    await get(`http://127.0.0.1:${port}/nothing`);
    abort.abort();
    await assert.rejects(answer, /sign-in was cancelled/);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/callback?code=late`), /fetch failed/);
  });
});
