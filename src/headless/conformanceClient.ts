// A headless MCP client on the host's core, spawned by the official conformance suite:
// `conformanceClient <server-url>`, scenario in MCP_CONFORMANCE_SCENARIO, data in MCP_CONFORMANCE_CONTEXT.
// It does what a user of the editor does: add the server, sign in when it asks, run its tools.
import { HostAuthorization } from '../core/auth/hostAuthorization';
import { MemoryCredentialStore } from '../core/auth/signInRecords';
import type { OAuthSettings } from '../core/config/serverDefinition';
import { InMemoryEraPinStore } from '../core/connection/eraPins';
import { ExecutableResolver } from '../core/process/executableResolver';
import type { ServerSnapshot } from '../core/connection/serverSnapshot';
import { ElicitationRouter } from '../core/elicitation/elicitationRouter';
import { McpHost } from '../core/host/mcpHost';
import { McpRequestError } from '../core/connection/serverErrors';
import { acceptDefaultsElicitation, headlessEnvironment } from './headlessPorts';
import { RedirectFollowingBrowser } from './redirectFollowingBrowser';
import { ProtocolError, type Tool } from '@modelcontextprotocol/client';
import { sampleArguments } from './sampleArguments';

const SERVER_ID = 'server';
/** The suite's authorization servers accept this Client ID Metadata Document URL. */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Sign-ins per run: a server that keeps asking for more is not followed forever. */
const MAX_SIGN_INS = 3;
const SETTLE_TIMEOUT_MS = 20_000;

/** What the suite hands the client: credentials, and the tool calls a scenario wants made. */
export interface ScenarioContext {
  readonly name?: string;
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  readonly idp_token_endpoint?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly valid_jwt?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly arguments?: Record<string, unknown> }[];
}

/**
 * What the suite's context says about how to authorize, as the `oauth` settings a user would
 * write: read from what the context carries (an IdP's ID token, a workload's JWT, a private key);
 * only a client id and secret alone leave the grant open, which the scenario's name settles.
 */
export function oauthSettingsFor(scenario: string, context: ScenarioContext): OAuthSettings {
  if (context.idp_id_token) {
    return {
      grant: 'crossAppAccess',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: {
        tokenEndpoint: context.idp_token_endpoint ?? '',
        clientId: context.idp_client_id ?? '',
        idToken: context.idp_id_token,
      },
    };
  }
  if (context.valid_jwt)
    return { grant: 'workloadIdentity', clientId: context.client_id, assertion: context.valid_jwt };
  if (context.private_key_pem)
    return {
      grant: 'clientCredentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      signingAlgorithm: context.signing_algorithm,
    };
  if (context.client_id && context.client_secret) {
    return /client-credentials/.test(context.name ?? scenario)
      ? { grant: 'clientCredentials', clientId: context.client_id, clientSecret: context.client_secret }
      : { clientId: context.client_id, clientSecret: context.client_secret };
  }
  return { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
}

/**
 * The calls to make: those the scenario names, with its arguments; else every tool once, with the
 * arguments a user would fill in (see sampleArguments).
 */
export function plannedCalls(
  tools: readonly Tool[],
  context: ScenarioContext,
): { name: string; args: Record<string, unknown> }[] {
  if (context.toolCalls?.length) return context.toolCalls.map((c) => ({ name: c.name, args: c.arguments ?? {} }));
  return tools.map((tool) => ({ name: tool.name, args: sampleArguments(tool.inputSchema, tools) }));
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  if (!/^https?:\/\//.test(url))
    throw new Error('usage: conformanceClient <server-url> (scenario in MCP_CONFORMANCE_SCENARIO)');
  const env = headlessEnvironment(process.env.MCP_HOST_LOG_LEVEL === 'debug' ? 'debug' : 'info');
  const host = new McpHost({
    clientInfo: { name: 'mcp-host-headless', version: '0.1.0' },
    resolver: new ExecutableResolver(),
    eraPins: new InMemoryEraPinStore(),
    env,
    elicitation: new ElicitationRouter(acceptDefaultsElicitation),
    authorization: new HostAuthorization({
      store: new MemoryCredentialStore(),
      browser: new RedirectFollowingBrowser(),
      clientName: 'MCP Host (headless)',
    }),
  });
  try {
    await host.applySettings([
      { id: SERVER_ID, scope: 'user', raw: { type: 'http', url, oauth: oauthSettingsFor(scenario, context) } },
    ]);
    let signIns = 0;
    const signInIfAsked = async (): Promise<ServerSnapshot> => {
      let server = await settled(host);
      while (server.status === 'needs-sign-in') {
        if (++signIns > MAX_SIGN_INS)
          throw new Error(`the server still asks for authorization after ${MAX_SIGN_INS} sign-ins: ${server.reason}`);
        env.hostLog.info(`Signing in (${signIns} of at most ${MAX_SIGN_INS}): ${server.reason}`);
        await host.signIn(SERVER_ID, AbortSignal.timeout(SETTLE_TIMEOUT_MS));
        server = await settled(host);
      }
      if (server.status !== 'running') throw new Error(`the server is ${server.status}: ${server.reason ?? ''}`);
      return server;
    };
    const server = await signInIfAsked();
    env.hostLog.info(`Running with ${server.tools.length} tool(s): ${server.tools.map((t) => t.name).join(', ')}`);
    for (const call of plannedCalls(server.tools, context)) {
      for (;;) {
        try {
          const result = await host.callTool(SERVER_ID, call.name, call.args);
          env.hostLog.info(`${call.name}: ${result.isError ? 'tool error' : 'ok'}`);
          break;
        } catch (error) {
          if (host.server(SERVER_ID)?.status === 'needs-sign-in') {
            await signInIfAsked();
            continue;
          }
          // The server answered with a JSON-RPC error (a tool it lists but does not run): that is
          // its answer, as a user would read it, not a failure of this client.
          if (!(error instanceof McpRequestError) || !(error.cause instanceof ProtocolError)) throw error;
          env.hostLog.info(`${call.name}: the server answered with error ${error.code}: ${error.message}`);
          break;
        }
      }
    }
    // Skills: each is loaded (its SKILL.md, verified) and the files it names are read, as a model
    // would when it decides to use one; a scenario about listing alone asks for nothing more.
    if (!/no-prefetch/.test(context.name ?? scenario)) {
      for (const skill of host.server(SERVER_ID)?.skills ?? []) {
        const loaded = await host.loadSkill(SERVER_ID, skill.uri);
        env.hostLog.info(`Skill ${skill.name} loaded (${loaded.body.length} characters).`);
        for (const file of loaded.files) await host.readSkillFile(SERVER_ID, skill.uri, file);
      }
    }
  } finally {
    await host.dispose();
  }
}

/** The server's state once it is no longer on its way somewhere. */
function settled(host: McpHost): Promise<ServerSnapshot> {
  const done = (s: ServerSnapshot | undefined) =>
    s !== undefined && !['starting', 'stopping', 'restarting'].includes(s.status);
  return new Promise((resolve, reject) => {
    const now = host.server(SERVER_ID);
    if (done(now)) return resolve(now!);
    const timer = setTimeout(() => {
      listener.dispose();
      reject(
        new Error(
          `the server did not settle within ${SETTLE_TIMEOUT_MS / 1000} s (last: ${host.server(SERVER_ID)?.status})`,
        ),
      );
    }, SETTLE_TIMEOUT_MS);
    const listener = host.onDidChangeServers(() => {
      const s = host.server(SERVER_ID);
      if (!done(s)) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(s!);
    });
  });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`conformance client: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
