import type { ShareState } from './machineShare';
import type { SkillSummary } from '../skills/serverSkills';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { ServerOrigin, SettingsScope, TransportKind } from '../config/serverDefinition';

/**
 * What holds a valid definition back from running, as data (its `reason` says it to the user):
 * switched off in settings, a workspace not trusted, consent being asked with the window, consent
 * to be asked at the first use, consent the user declined, or an `${input:}` value the user did not give.
 */
export type HeldBy = 'policy' | 'disabled' | 'trust' | 'consent' | 'consentWhenNeeded' | 'declined' | 'input';

export type ServerStatus =
  | 'stopped'
  | 'starting'
  | 'running'
  | 'stopping'
  | 'restarting'
  | 'error'
  /** Defined in workspace settings of a workspace that is not trusted. */
  | 'untrusted'
  /** Its settings entry is invalid and nothing runs. */
  | 'invalid'
  /** `"enabled": false`. */
  | 'disabled'
  /** An HTTP server that wants the user to sign in (MCP authorization); nothing retries until they do. */
  | 'needs-sign-in';

/** What a stopped session leaves its server in: stopped, or why it cannot run now. */
export type EndedStatus = Extract<ServerStatus, 'stopped' | 'needs-sign-in' | 'error'>;

export type ProtocolEra = 'legacy' | 'modern';

/** What the view, the status bar and the public API show about one server. Plain data. */
export interface ServerSnapshot {
  readonly id: string;
  readonly status: ServerStatus;
  /** Why the server is not running, or what is happening (restart countdown). */
  readonly reason?: string;
  /**
   * A failed (`error`) or `restarting` server's cause in a few words, which its row shows first: the
   * line of its output that says why, or the settings mistake (the whole story is in `reason`).
   */
  readonly cause?: string;
  /** What holds it back, when something does (see {@link HeldBy}). */
  readonly held?: HeldBy;
  /** A settings problem on an entry whose last good definition may still run. */
  readonly configError?: string;
  readonly scope: SettingsScope;
  /** Starting, but its process waits for its turn: other servers' processes are starting (see `StartSlots`). */
  readonly waitingForTurn?: true;
  /** Started in the background only to learn its lists; it stops again once it runs, unless something needs it first. */
  readonly learning?: true;
  /** Stopped, and starts at its first use (`"autoStart": "onDemand"`). */
  readonly startsWhenNeeded?: boolean;
  /** `tools` and `prompts` are those of the server's last run of the same definition: it starts when needed and has not started since. */
  readonly fromLastRun?: boolean;
  /** It starts when needed, and its last run of the same definition offered resources or resource templates (which are not kept). */
  readonly resourcesInLastRun?: boolean;
  /** Another host's file the server is read from live. */
  readonly origin?: ServerOrigin;
  readonly transport: TransportKind;
  /** The exact command line or URL, secrets left as `${input:ID}`. */
  readonly target: string;
  readonly era?: ProtocolEra;
  readonly protocolVersion?: string;
  readonly serverName?: string;
  readonly serverVersion?: string;
  /** What the server tells a model about using its tools (`instructions`), at most INSTRUCTIONS_MAX characters. */
  readonly instructions?: string;
  readonly pid?: number;
  /** How its process is shared with other windows (`"share": "machine"`). */
  readonly share?: ShareState;
  /** A sandboxed stdio server: what the sandbox lets it read, write and reach. */
  readonly sandbox?: string;
  readonly tools: readonly Tool[];
  /** Tools that came from another name in this window, with the first name the user knew (new → old): asked about again, switched as before. */
  readonly renamedTools?: Readonly<Record<string, string>>;
  readonly prompts: readonly Prompt[];
  /** The resources loaded so far: the first page, and any the user asked for since. */
  readonly resources: readonly Resource[];
  /** Whether the server has more pages of resources than are loaded. */
  readonly moreResources: boolean;
  readonly resourceTemplates: readonly ResourceTemplate[];
  /** Lists that could not be fetched, by method (`tools/list` …), with why: an empty list says so. */
  readonly listProblems?: Readonly<Record<string, string>>;
  /** Lists of `listProblems` whose answer is late and still awaited (not failed). */
  readonly lateLists?: readonly string[];
  /** The server's skills (SEP-2640), from their entries: nothing of them is read before one is loaded. */
  readonly skills?: readonly SkillSummary[];
  /** What the server declares for the Skills extension, when it does: a window sharing its process declares the same. */
  readonly skillsExtension?: Readonly<Record<string, unknown>>;
  /**
   * What a 2025-11-25 server declares for tasks (`capabilities.tasks`) when it takes `tools/call`
   * as a task: a window sharing its process declares the same and runs such calls as tasks itself.
   */
  readonly taskCalls?: Readonly<Record<string, unknown>>;
}

/** Whether a server's tools and prompts are known: it runs, or they are those of its last run (using one starts it). */
export function listsKnown(server: ServerSnapshot): boolean {
  return server.status === 'running' || server.fromLastRun === true;
}

/** Whether someone who needs the server can wait for it: it starts when needed, or it is starting. */
export function startsForUse(server: ServerSnapshot): boolean {
  return server.startsWhenNeeded === true || server.status === 'starting';
}

/** Whether a running server offers resources or resource templates. */
export function offersResources(server: ServerSnapshot): boolean {
  return server.status === 'running' && (server.resources.length > 0 || server.resourceTemplates.length > 0);
}

/**
 * Whether a server that starts when needed may have resources to show: its last run offered some,
 * or what it offers is not known (it has not run with this definition).
 */
export function mayOfferResources(server: ServerSnapshot): boolean {
  return server.startsWhenNeeded === true && (server.resourcesInLastRun === true || !server.fromLastRun);
}

/** Instructions longer than this are cut (a server's text must not grow the host without bound). */
export const INSTRUCTIONS_MAX = 8_000;

/** A server's `instructions`, trimmed, cut at INSTRUCTIONS_MAX with a mark that says so; undefined when empty. */
export function boundedInstructions(text: string | undefined): string | undefined {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (!trimmed) return undefined;
  return trimmed.length > INSTRUCTIONS_MAX
    ? `${trimmed.slice(0, INSTRUCTIONS_MAX)}… [cut at ${INSTRUCTIONS_MAX} characters]`
    : trimmed;
}
