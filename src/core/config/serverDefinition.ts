import { spawnsProcess, type TransportKind } from './transportKinds';
export type { TransportKind };
/** Where a server definition came from; workspace and folder definitions are code from the repository. */
export type SettingsScope = 'user' | 'workspace' | 'folder';

export type AutoStart = 'startup' | 'onDemand' | 'never';

export interface RestartSettings {
  readonly enabled: boolean;
  readonly maxRestarts: number;
  readonly windowMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export interface FolderRef {
  readonly name: string;
  /** File-system path of the folder. */
  readonly path: string;
}

/** Another host's configuration file a server is read from live, instead of `mcpHost.servers`. */
export interface ServerOrigin {
  /** The host, as people know it ("Claude Desktop"). */
  readonly host: string;
  /** The file's path: absolute, or relative to the workspace for a folder's file. */
  readonly file: string;
  /** The file's absolute path, to open it. */
  readonly path: string;
}

/** One `mcpHost.servers` entry as read from settings, before validation. */
export interface ServerSettingsEntry {
  readonly id: string;
  readonly scope: SettingsScope;
  /** The folder whose settings define the server (folder scope only). */
  readonly folder?: FolderRef;
  readonly raw: unknown;
  /** Set for a server read live from another host's file. */
  readonly origin?: ServerOrigin;
  /** When the server starts if its entry does not say (`mcpHost.autoStart`); "startup" unless set. */
  readonly autoStartDefault?: 'startup' | 'onDemand';
}

/** A validated definition; strings may still hold `${...}` variables. */
export interface ServerDefinition {
  readonly id: string;
  readonly scope: SettingsScope;
  readonly folder?: FolderRef;
  readonly origin?: ServerOrigin;
  readonly transport: TransportKind;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile?: string;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** How to sign in to an HTTP server (the `oauth` object); absent means "when the server asks". */
  readonly oauth?: OAuthSettings;
  readonly enabled: boolean;
  /** When the server starts: with the window, at its first use, or only when the user starts it. */
  readonly autoStart: AutoStart;
  readonly requestTimeoutMs: number;
  /** How long the server may take to start and answer the handshake (npx may download first). */
  readonly startTimeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  readonly roots?: readonly string[];
  /** Declare MCP Apps to this server and show its tools' apps (`apps`, default true). */
  readonly apps: boolean;
  /** Offer the server to VS Code's agents through the gateway (`publish`, default true); never restarts it. */
  readonly publish: boolean;
  /** Run a stdio server sandboxed (`sandbox: true` reads as `{}`); absent runs it as is. */
  readonly sandbox?: SandboxSettings;
  /**
   * Who runs the process (`share`): each window its own ("window"), or one window for every window
   * of this user that defines the same server ("machine"; the others reach it through that window).
   */
  readonly share: 'window' | 'machine';
  readonly restart: RestartSettings;
  /** How calls to this server's tools are confirmed; changing it never restarts the server. */
  readonly toolPolicy: ToolPolicySettings;
  /** How this server's sampling requests are handled; changing it never restarts the server. */
  readonly samplingPolicy: SamplingPolicy;
  /** At most this many elicitation requests per minute (`elicitation.maxRequestsPerMinute`). */
  readonly elicitationsPerMinute: number;
  /** Ping the running server on a timer (`healthCheck`); absent, no pings. */
  readonly healthCheck?: { readonly intervalSeconds: number; readonly timeoutSeconds?: number };
  /** Dev mode (`dev`): restart when watched files change; absent, never. */
  readonly dev?: DevSettings;
  /** The `limits` object as written (absent: the defaults); {@link limitsOf} fills in the rest. */
  readonly limits?: Partial<ServerLimits>;
}

/** For people who write servers: restart on changes to these files (globs under the server's folder). */
export interface DevSettings {
  readonly watch: readonly string[];
  /** Changes closer together than this restart the server once. */
  readonly debounceMs: number;
  /** Node servers start with the inspector, and the editor's debugger attaches. */
  readonly debug: boolean;
}

export const DEFAULT_DEV_DEBOUNCE_MS = 500;

/** What a server may send before the host drops or refuses it (the `limits` settings). */
export interface ServerLimits {
  readonly maxMessageMB: number;
  readonly maxTools: number;
  readonly logLineLength: number;
  readonly logLinesPerSecond: number;
  readonly serverRequestsPerMinute: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxMessageMB: 256,
  maxTools: 20_000,
  logLineLength: 8_000,
  logLinesPerSecond: 200,
  serverRequestsPerMinute: 600,
};

export function limitsOf(def: Pick<ServerDefinition, 'limits'>): ServerLimits {
  return { ...DEFAULT_LIMITS, ...def.limits };
}

/** The `oauth` object of an HTTP server's settings. Strings may hold variables until resolved. */
export interface OAuthSettings {
  readonly grant?: 'authorizationCode' | 'clientCredentials' | 'crossAppAccess' | 'workloadIdentity';
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly scopes?: readonly string[];
  readonly redirectPort?: number;
  readonly clientMetadataUrl?: string;
  readonly privateKey?: string;
  readonly signingAlgorithm?: string;
  readonly idp?: {
    readonly tokenEndpoint: string;
    readonly clientId: string;
    readonly clientSecret?: string;
    readonly idToken: string;
  };
  /** Whether tokens are bound to a key (DPoP, RFC 9449) when the authorization server offers it; on by default. */
  readonly dpop?: boolean;
  /** For `workloadIdentity`: the workload's JWT, or the file it is kept in. */
  readonly assertion?: string;
  readonly assertionFile?: string;
}

/** The `sandbox` object of a stdio server's settings: additions to the default policy. */
export interface SandboxSettings {
  readonly filesystem?: {
    readonly allowRead?: readonly string[];
    readonly denyRead?: readonly string[];
    readonly allowWrite?: readonly string[];
    readonly denyWrite?: readonly string[];
  };
  readonly network?: { readonly allowedDomains?: readonly string[] };
}

/** A server's sampling policy, from the `sampling` object of its settings. */
export interface SamplingPolicy {
  readonly mode: 'ask' | 'allowAlways' | 'deny';
  /** Allowed model ids or families; empty allows every model. */
  readonly models: readonly string[];
  /** Whether the user sees (and may edit or discard) the model's answer before the server does. */
  readonly reviewResponse: boolean;
  readonly maxRequestsPerMinute?: number;
}

export interface ToolPolicySettings {
  /** Tool names that run without confirmation; `*` for all. */
  readonly autoApprove: readonly string[];
  /** Whether `readOnlyHint` annotations are honoured. */
  readonly trusted: boolean;
}

export interface ResolvedRoot {
  readonly uri: string;
  readonly name: string;
}

/** A definition with every variable resolved: what actually runs. Holds secrets; never log it. */
export interface ResolvedServerDefinition extends Omit<ServerDefinition, 'env' | 'roots'> {
  /** Environment overrides (envFile then env); `null` removes an inherited variable. */
  readonly env: Readonly<Record<string, string | null>>;
  /** Roots override, or undefined to follow the workspace folders. */
  readonly roots?: readonly ResolvedRoot[];
  /**
   * The fields of `env` and `headers` whose value as written holds a `$NAME` that was not expanded
   * (`env.API_KEY`, `headers.Authorization`: never their values). The server's log says so at
   * start, and a refusal of the credentials. Absent when there are none.
   */
  readonly unexpanded?: readonly string[];
}

export const NO_TOOL_POLICY: ToolPolicySettings = { autoApprove: [], trusted: false };
export const DEFAULT_SAMPLING_POLICY: SamplingPolicy = { mode: 'ask', models: [], reviewResponse: true };
export const DEFAULT_ELICITATIONS_PER_MINUTE = 30;

/**
 * The definition without the settings that only say how the host treats the server's requests
 * (tool confirmation, sampling, elicitation limits): changing those never restarts the server
 * or asks consent again.
 */
export function whatRuns<
  T extends Pick<ServerDefinition, 'toolPolicy' | 'samplingPolicy' | 'elicitationsPerMinute' | 'publish'>,
>(def: T): Omit<T, 'toolPolicy' | 'samplingPolicy' | 'elicitationsPerMinute' | 'publish'> {
  const { toolPolicy: _t, samplingPolicy: _s, elicitationsPerMinute: _e, publish: _p, ...rest } = def;
  return rest;
}
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_START_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
export const DEFAULT_RESTART: RestartSettings = {
  enabled: true,
  maxRestarts: 5,
  windowMs: 180_000,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
};

/** The exact command line or URL a definition runs, for consent dialogs and the view. */
export function describeTarget(def: Pick<ServerDefinition, 'transport' | 'command' | 'args' | 'url'>): string {
  if (spawnsProcess(def.transport)) {
    return [def.command ?? '', ...def.args].map(quoteArg).join(' ');
  }
  return def.url ?? '';
}

/** An argument as a POSIX shell would need it written. */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command's program as people name it: no folders, no Windows extension, lower case (`C:\…\NPX.CMD` is `npx`). */
export function programName(command: string): string {
  return command
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(?:cmd|exe|bat)$/i, '')
    .toLowerCase();
}
