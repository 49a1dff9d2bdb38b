// One sign-in in a fresh process, against oidc-provider on loopback through its own login and
// consent pages in headless Chromium (launched before the clock starts). Prints one JSON line.
//   node signInProbe.js <host|raw>
// host: "needs sign-in" → McpHost.signIn → the server runs with its lists loaded.
// raw:  the client library alone: 401 → the same browser step → finishAuth → connect → lists.
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { HostAuthorization } from '../src/core/auth/hostAuthorization';
import { MemoryCredentialStore } from '../src/core/auth/signInRecords';
import { InMemoryEraPinStore } from '../src/core/connection/eraPins';
import { ExecutableResolver } from '../src/core/process/executableResolver';
import { McpHost } from '../src/core/host/mcpHost';
import { headlessEnvironment } from '../src/headless/headlessPorts';
import { InMemoryProvider, REDIRECT } from '../test/conformance/inMemoryOAuthProvider';
import { waitFor } from '../test/unit/support/fixtures';
import { LoginBrowser, startOAuthFixture } from '../test/unit/support/oauthFixture';

async function host(url: string, browser: LoginBrowser): Promise<number> {
  const mcp = new McpHost({
    clientInfo: { name: 'bench', version: '0' },
    resolver: new ExecutableResolver(),
    eraPins: new InMemoryEraPinStore(),
    env: headlessEnvironment('error'),
    authorization: new HostAuthorization({ store: new MemoryCredentialStore(), browser, clientName: 'bench' }),
  });
  try {
    await mcp.applySettings([{ id: 'remote', scope: 'user', raw: { type: 'http', url } }]);
    await waitFor('needs sign-in', () => mcp.server('remote')?.status === 'needs-sign-in', 20_000);
    const start = performance.now();
    await mcp.signIn('remote', AbortSignal.timeout(60_000));
    await waitFor('running', () => mcp.server('remote')?.status === 'running', 20_000);
    return performance.now() - start;
  } finally {
    await mcp.dispose();
  }
}

async function raw(url: string, browser: LoginBrowser): Promise<number> {
  const provider = new InMemoryProvider();
  const connect = async () => {
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    return client;
  };
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await new Client({ name: 'bench', version: '0' }).connect(first).then(
    () => Promise.reject(new Error('the server did not ask for authorization')),
    (error: unknown) => (error instanceof UnauthorizedError ? undefined : Promise.reject(error)),
  );
  const start = performance.now();
  await first.finishAuth(
    await browser.authorize({ url: provider.pending!, redirectUrl: REDIRECT }, AbortSignal.timeout(60_000)),
  );
  const client = await connect();
  await Promise.all([client.listTools(), client.listPrompts(), client.listResources(), client.listResourceTemplates()]);
  const ms = performance.now() - start;
  await client.close();
  return ms;
}

async function main(): Promise<void> {
  const fixture = await startOAuthFixture();
  const browser = new LoginBrowser();
  try {
    await browser.warm();
    const ms = await (process.argv[2] === 'host' ? host : raw)(fixture.url, browser);
    process.stdout.write(`${JSON.stringify({ ms })}\n`);
  } finally {
    await browser.close();
    await fixture.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  },
);
