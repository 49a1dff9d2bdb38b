import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactSecrets } from '../../../src/core/connection/secretRedaction';
import { MAX_SHOWN_CHARS, shownText } from '../../../src/core/shownText';
import { startHttpFixture, waitFor, type RecordingLog, type RunningProcess } from '../support/fixtures';
import { startFrontProxy, type FrontProxy } from '../support/frontProxy';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

describe('secrets a definition resolves stay out of logs and errors', function () {
  this.timeout(30_000);
  let echo: Server;
  let port: number;
  before(async () => {
    // A server that answers 404 with the URL it was asked for, as some error pages do.
    echo = createServer((req, res) =>
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such page: ${req.url}`),
    );
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    port = (echo.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => echo.close(() => resolve())));
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it('puts the placeholder back for a value and its URL-encoded form, and leaves short values alone', () => {
    const secrets = [
      { value: 'p@ss word', placeholder: '${input:pw}' },
      { value: 'ab', placeholder: '${input:short}' },
    ];
    assert.equal(
      redactSecrets('GET /x?pw=p%40ss%20word and p@ss word, abc', secrets),
      'GET /x?pw=${input:pw} and ${input:pw}, abc',
    );
  });

  it('shows ${input:} placeholders, never the values, in a start error about cwd and in the log', async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(entries({ hidden: legacy({ cwd: '/nonexistent/${input:tok}' }) }));
    const snap = await waitFor('the failure', () => host.server('hidden')?.status === 'error' && host.server('hidden'));
    assert.match(snap.reason ?? '', /the working directory "\/nonexistent\/\$\{input:tok\}" does not exist/);
    const log = (env.logFor('hidden') as RecordingLog).text();
    assert.doesNotMatch(`${snap.reason}\n${log}`, /secret-tok/);
  });

  it("shows the placeholder in a failed server's cause line when its output repeats a secret", async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({
        leaky: {
          command: process.execPath,
          args: ['-e', 'console.error("Error: token " + process.env.TOKEN + " was refused"); process.exit(1)'],
          env: { TOKEN: '${input:tok}' },
          restart: { enabled: false },
        },
      }),
    );
    const snap = await waitFor('the failure', () => host.server('leaky')?.status === 'error' && host.server('leaky'));
    assert.equal(snap.cause, 'token ${input:tok} was refused');
    assert.doesNotMatch(`${snap.reason}`, /secret-tok/);
  });

  it('keeps a secret in the URL out of the log when the server echoes the URL in an error body', async () => {
    const { host, env } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ echoing: { url: `http://127.0.0.1:${port}/mcp?key=\${input:key}`, restart: { enabled: false } } }),
    );
    const snap = await waitFor(
      'the failure',
      () => host.server('echoing')?.status === 'error' && host.server('echoing'),
    );
    const log = (env.logFor('echoing') as RecordingLog).text();
    assert.match(log, /no such page: \/mcp\?key=\$\{input:key\}/, 'the echoed body is logged, with the placeholder');
    assert.doesNotMatch(`${snap.reason}\n${log}`, /secret-key/);
  });

  it('shows a text with its secrets as placeholders, control characters visible, and cut at its bound with how much', () => {
    const secrets = [{ value: 'hunter22', placeholder: '${input:pw}' }];
    assert.equal(
      shownText('a\u001b[31mred\u0007 hunter22\n\tnext', secrets),
      'a\\u001b[31mred\\u0007 ${input:pw}\n\tnext',
    );
    const page = `${'x'.repeat(MAX_SHOWN_CHARS - 4)}hunter22${'y'.repeat(10_000)}`;
    const shown = shownText(page, secrets);
    assert.ok(!shown.includes('hunter'), 'a secret across the cut leaves no part of itself');
    assert.equal(shown, `${'x'.repeat(MAX_SHOWN_CHARS - 4)}\${in… (10,007 more characters cut)`);
  });

  describe('a list that fails mid-session with an error page', () => {
    let backend: RunningProcess;
    let front: FrontProxy;
    let frontPort: number;
    /** What tools/list answers with while set: an error page (the request's URL echoed), or a 1 MiB one. */
    let failWith: 'echo' | 'huge' | undefined;
    before(async () => {
      backend = await startHttpFixture();
      front = await startFrontProxy(backend.port, '/legacy', (body, req) =>
        failWith && body.includes('"tools/list"')
          ? {
              status: 500,
              body: failWith === 'echo' ? `<h1>500</h1> while serving ${req.url}` : 'E'.repeat(1024 * 1024),
            }
          : undefined,
      );
      frontPort = front.port;
    });
    after(async () => {
      await front.close();
      await backend.stop();
    });
    afterEach(() => (failWith = undefined));

    for (const mode of ['echo', 'huge'] as const)
      it(
        mode === 'echo'
          ? 'keeps the secret the page echoes out of the row, its tooltip and the log'
          : 'cuts a 1 MiB page to the bound in the row and says how much it cut',
        async () => {
          const { host, env } = harness();
          hosts.push(host);
          const settings = entries({ paged: { url: `http://127.0.0.1:${frontPort}/legacy?key=\${input:key}` } });
          await host.applySettings(settings);
          await running(host, 'paged');
          failWith = mode;
          await host.refresh(settings);
          const snap = await waitFor('the list problem', () => {
            const server = host.server('paged');
            return server?.listProblems?.['tools/list'] ? server : undefined;
          });
          const problem = snap.listProblems!['tools/list'];
          const log = (env.logFor('paged') as RecordingLog).text();
          assert.doesNotMatch(`${problem}\n${snap.reason ?? ''}\n${log}`, /secret-key/);
          assert.ok(problem.length <= MAX_SHOWN_CHARS + 60, `the problem is ${problem.length} characters`);
          if (mode === 'echo') assert.match(problem, /while serving \/legacy\?key=\$\{input:key\}/);
          else assert.match(problem, /… \([\d,]+ more characters cut\)$/);
        },
      );
  });
});
