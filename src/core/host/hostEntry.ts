import { plainPath } from '../config/plainPath';
import { describeTarget, type ServerDefinition, type ServerSettingsEntry } from '../config/serverDefinition';
import { displayContext, resolveDefinition, type VariableContext } from '../config/variableResolver';
import type { RunField } from '../config/whatRunsSummary';
import type { ServerConnection } from '../connection/serverConnection';
import type { HeldBy, ServerSnapshot, ServerStatus } from '../connection/serverSnapshot';
import type { Disposable } from '../events';
import type { LastRun } from './lastRuns';
import { whatConsentCovers } from './startConsent';
import { OPEN_POLICY, policyBlock, policyIdentity, type McpPolicy } from '../config/mcpPolicy';

/** One configured server id: its validated definition, and the connection once it may run. */
export interface HostEntry {
  readonly id: string;
  definition?: ServerDefinition;
  /** Key under which consent for this definition is remembered. */
  consentHash?: string;
  /** What decides what this definition runs, as the consent dialog shows it. */
  runFields?: RunField[];
  target: string;
  connection?: ServerConnection;
  /** Under which the tools and prompts of the connection's runs are kept (what it runs, whenever it starts). */
  lastRunKey?: string;
  connectionListener?: Disposable;
  /** Started only to learn its lists (see McpHost.learnLists): stopped again once it runs, unless something needs it first. */
  learning?: boolean;
  /** Its stop once its lists were learned, while under way. */
  learnedStop?: Promise<void>;
  /** The `lastRunKey` whose lists were last set to be learned: each definition is tried once per window. */
  learnTried?: string;
  /** Why there is no connection (invalid, untrusted, disabled, declined, unresolvable). */
  placeholder?: Placeholder;
  configError?: string;
  scope: ServerSettingsEntry['scope'];
  origin?: ServerSettingsEntry['origin'];
}

/** An entry without a connection: its status, why, and what holds it back when something does. */
export interface Placeholder {
  readonly status: ServerStatus;
  readonly reason: string;
  /** The reason in a few words for the server's row, which names the server already. */
  readonly cause?: string;
  readonly held?: HeldBy;
}

/** Takes a valid definition into its entry: the target the views show, and what consent to run it covers. */
export async function adoptDefinition(
  entry: HostEntry,
  def: ServerDefinition,
  variables: VariableContext,
): Promise<void> {
  entry.configError = undefined;
  entry.definition = def;
  try {
    const resolved = await resolveDefinition(def, displayContext(variables));
    entry.target = describeTarget({
      ...resolved,
      command: resolved.command && plainPath(resolved.command),
      args: resolved.args.map(plainPath),
    });
  } catch {
    // A variable that cannot resolve is reported when the server starts; show it unresolved.
    entry.target = describeTarget(def);
  }
  // What runs decides consent; how its requests are confirmed does not.
  // (User settings need no consent: nothing to summarize, no env file to read at start-up.)
  if (def.scope !== 'user') Object.assign(entry, await whatConsentCovers(def, variables));
}

/**
 * Whether a server waits for its first use: it starts on demand and is stopped (not started yet, or
 * stopped since). A workspace server the user declined does not: only Start asks about it again.
 */
export function startsWhenNeeded(entry: HostEntry): boolean {
  const status = entry.connection?.state ?? entry.placeholder?.status ?? 'stopped';
  return (
    entry.definition?.autoStart === 'onDemand' &&
    !entry.configError &&
    status === 'stopped' &&
    entry.placeholder?.held !== 'declined'
  );
}

/** Why a valid definition may not run now: its placeholder, and whether to ask consent with the window. */
export interface HeldBack extends Placeholder {
  readonly held: HeldBy;
  readonly askConsentNow?: boolean;
}

/** What keeps a valid definition from running (disabled, untrusted workspace, consent not given), or nothing. */
export function heldBack(
  def: ServerDefinition,
  trusted: boolean,
  consent: { readonly needed: () => boolean; readonly declined: () => boolean },
  policy: McpPolicy = OPEN_POLICY,
  /** The registry Add Server installed it from, while its entry is the one it wrote. */
  registry?: string,
): HeldBack | undefined {
  // The editor's MCP policies before anything the user decides: nothing of a blocked server runs.
  const blocked = policyBlock(policyIdentity(def, registry), policy);
  if (blocked) return { status: 'disabled', held: 'policy', reason: blocked };
  if (!def.enabled) return { status: 'disabled', held: 'disabled', reason: 'disabled in settings ("enabled": false)' };
  if (def.scope !== 'user' && !trusted)
    return {
      status: 'untrusted',
      held: 'trust',
      reason: 'defined in workspace settings; trust the workspace to start it',
    };
  if (!consent.needed()) return undefined;
  if (consent.declined()) return DECLINED;
  // Asked with the window when it starts with it, or when agents may need it: an agent's request
  // has nobody to click (VS Code's gateway, the Agent Host). Otherwise asked at its first use.
  if (def.autoStart === 'onDemand' && !def.publish)
    return {
      status: 'stopped',
      held: 'consentWhenNeeded',
      reason: 'starts when needed, after your consent to run this workspace server',
    };
  return {
    status: 'stopped',
    held: 'consent',
    reason: 'waiting for your consent to run this workspace server',
    askConsentNow: def.autoStart !== 'never',
  };
}

/** A workspace server the user chose not to run: it stays so until its definition changes or they start it. */
export const DECLINED: HeldBack = {
  status: 'stopped',
  held: 'declined',
  reason: 'not started: you did not allow this workspace server to run. Start it to be asked again.',
};

/**
 * What the views see of a server: its connection's state, or why it has none. A server that starts
 * when needed shows `lastRun`, the tools, prompts and instructions of its last run and whether it
 * offered resources, until it starts.
 */
export function entrySnapshot(entry: HostEntry, lastRun?: LastRun): ServerSnapshot {
  const waiting = startsWhenNeeded(entry);
  const known = lastRun && {
    tools: lastRun.tools,
    prompts: lastRun.prompts,
    instructions: lastRun.instructions,
    fromLastRun: true,
    ...(lastRun.resources ? { resourcesInLastRun: true } : {}),
  };
  const onDemand = waiting ? { startsWhenNeeded: true, ...known } : {};
  if (entry.connection)
    return {
      ...entry.connection.snapshot(),
      configError: entry.configError,
      ...onDemand,
      ...(entry.learning ? { learning: true } : {}),
    };
  return {
    id: entry.id,
    status: entry.placeholder?.status ?? 'stopped',
    ...onDemand,
    reason: entry.placeholder?.reason,
    ...(entry.placeholder?.cause ? { cause: entry.placeholder.cause } : {}),
    ...(entry.placeholder?.held ? { held: entry.placeholder.held } : {}),
    configError: entry.configError,
    scope: entry.scope,
    origin: entry.origin,
    transport: entry.definition?.transport ?? 'stdio',
    target: entry.target,
    tools: [],
    prompts: [],
    resources: [],
    moreResources: false,
    resourceTemplates: [],
  };
}
