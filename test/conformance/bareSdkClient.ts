// The baseline for `npm run conformance -- --baseline`: the client library alone, with the OAuth it
// ships (auth(), its client-credentials, private-key JWT and cross-app-access providers), an
// in-memory provider and the browser step done by following redirects. No host core.
import {
  Client,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  requestJwtAuthorizationGrant,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { InMemoryProvider, REDIRECT } from './inMemoryOAuthProvider';
import { RedirectFollowingBrowser } from '../../src/headless/redirectFollowingBrowser';
import { sampleArguments } from '../../src/headless/sampleArguments';

function providerFor(context: Record<string, string>): OAuthClientProvider {
  switch (context.name) {
    case 'auth/client-credentials-basic':
      return new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret });
    case 'auth/client-credentials-jwt':
      return new PrivateKeyJwtProvider({
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        algorithm: context.signing_algorithm ?? 'ES256',
      });
    case 'auth/cross-app-access-complete-flow':
      return new CrossAppAccessProvider({
        clientId: context.client_id,
        clientSecret: context.client_secret,
        assertion: async (ctx) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: context.idp_token_endpoint,
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken: context.idp_id_token,
              clientId: context.idp_client_id,
              scope: ctx.scope,
              fetchFn: ctx.fetchFn,
            })
          ).jwtAuthGrant,
      });
    case 'auth/pre-registration':
      return new InMemoryProvider(undefined, { client_id: context.client_id, client_secret: context.client_secret });
    default:
      return new InMemoryProvider('https://conformance-test.local/client-metadata.json');
  }
}

async function main(): Promise<void> {
  const url = new URL(process.argv[process.argv.length - 1]);
  const provider = providerFor(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}'));
  let authorizations = 0;
  /** Runs `work` on a fresh connection, finishing a browser authorization when one is asked for. */
  const withAuthorization = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    for (;;) {
      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
      // The library's own version negotiation, as MCP Host uses it: the 2026-07-28 era where offered.
      const client = new Client(
        { name: 'bare-sdk-client', version: '1.0.0' },
        { capabilities: { elicitation: { form: { applyDefaults: true } } }, versionNegotiation: { mode: 'auto' } },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
      try {
        await client.connect(transport);
        return await work(client);
      } catch (error) {
        const pending = (provider as InMemoryProvider).pending;
        if (!(error instanceof UnauthorizedError) || !pending || ++authorizations > 3) throw error;
        (provider as InMemoryProvider).pending = undefined;
        await transport.finishAuth(
          await new RedirectFollowingBrowser().authorize(
            { url: pending, redirectUrl: REDIRECT },
            AbortSignal.timeout(20_000),
          ),
        );
      } finally {
        await client.close().catch(() => undefined);
      }
    }
  };
  const { tools } = await withAuthorization((client) => client.listTools());
  for (const tool of tools)
    await withAuthorization((client) =>
      client.callTool({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }),
    );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bare SDK client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
