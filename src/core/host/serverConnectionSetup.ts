import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { definitionHash } from '../config/definitionHash';
import {
  whatRuns,
  type ResolvedRoot,
  type ResolvedServerDefinition,
  type ServerDefinition,
} from '../config/serverDefinition';
import { resolveDefinition, type VariableContext } from '../config/variableResolver';
import { BoundedServerLog, logBoundsOf } from '../connection/boundedLog';
import { forwardedLogMessages, type ForwardedLogMessage } from '../connection/logForwarding';
import { RedactingServerLog, type ResolvedSecret } from '../connection/secretRedaction';
import type { ServerConnectionDeps } from '../connection/serverConnectionDeps';
import type { ServerLog } from '../connection/serverLog';
import type { StartSlots } from '../connection/startSlots';
import type { McpHostOptions } from './hostOptions';

/** What a connection is made from: the resolved definition, the secrets it took, and the keys it is known by. */
export interface ConnectionInputs {
  readonly resolved: ResolvedServerDefinition;
  /** So that logs and errors can show the secrets' placeholders. */
  readonly secrets: ResolvedSecret[];
  /** What runs, without how its requests are treated: editing a policy must not restart the server. */
  readonly hash: string;
  /** Under which the tools of its runs are kept: what runs, whenever it starts (a server moved to onDemand keeps them). */
  readonly lastRunKey: string;
}

/** Resolves a definition's variables for a connection; throws what cannot resolve. */
export async function connectionInputs(def: ServerDefinition, context: VariableContext): Promise<ConnectionInputs> {
  const { resolved, secrets } = await resolveKeepingSecrets(def, context);
  const runs = whatRuns(resolved);
  const { autoStart: _when, ...whenever } = runs;
  return { resolved, secrets, hash: definitionHash(runs), lastRunKey: definitionHash(whenever) };
}

async function resolveKeepingSecrets(
  def: ServerDefinition,
  context: VariableContext,
): Promise<{ resolved: ResolvedServerDefinition; secrets: ResolvedSecret[] }> {
  const secrets: ResolvedSecret[] = [];
  const resolved = await resolveDefinition(def, {
    ...context,
    input: async (id, serverId) => {
      const value = await context.input(id, serverId);
      secrets.push({ value, placeholder: `\${input:${id}}` });
      return value;
    },
  });
  return { resolved, secrets };
}

/** Where one server's connection reports to the host. */
export interface ConnectionHooks {
  readonly log: ServerLog;
  readonly authorization?: OAuthClientProvider;
  readonly startSlots?: StartSlots;
  roots(): readonly ResolvedRoot[];
  onResourceUpdated(uri: string): void;
  onDebuggerListening(address: string): void;
  /** The server's log lines, for MCP Host's other clients: redacted and bounded. */
  onLogMessage(message: ForwardedLogMessage): void;
}

/** What one server's connection gets from the host's options: its log bounded and redacted, its requests routed by its id. */
export function connectionDeps(
  resolved: ResolvedServerDefinition,
  secrets: readonly ResolvedSecret[],
  options: McpHostOptions,
  hooks: ConnectionHooks,
): ServerConnectionDeps {
  const id = resolved.id;
  return {
    clientInfo: options.clientInfo,
    authorization: hooks.authorization,
    ledger: options.ledger,
    sandbox: options.sandbox,
    share: options.share,
    fetch: options.fetch,
    resolver: options.resolver,
    eraPins: options.eraPins,
    log: new RedactingServerLog(new BoundedServerLog(hooks.log, logBoundsOf(resolved)), secrets),
    secrets,
    apps: resolved.apps && options.apps?.() === true,
    roots: hooks.roots,
    startSlots: hooks.startSlots,
    onResourceUpdated: hooks.onResourceUpdated,
    onDebuggerListening: hooks.onDebuggerListening,
    onLogMessage: forwardedLogMessages(hooks.onLogMessage, logBoundsOf(resolved), secrets),
    sampling: options.sampling && ((params, signal) => options.sampling!.handle(id, params, signal)),
    elicitation: options.elicitation && {
      handle: (params, signal) => options.elicitation!.handle(id, params, signal),
      complete: (elicitationId) => options.elicitation!.complete(id, elicitationId),
    },
  };
}
