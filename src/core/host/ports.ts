import type { VariableContext } from '../config/variableResolver';
import type { McpPolicy } from '../config/mcpPolicy';
import type { ServerLog } from '../connection/serverLog';
import type { SettingsScope } from '../config/serverDefinition';
import type { RunField, RunFieldChange } from '../config/whatRunsSummary';

/** A workspace-defined server waiting for the user's consent to run. */
export interface StartConsentRequest {
  readonly serverId: string;
  readonly scope: SettingsScope;
  readonly folderName?: string;
  /** The exact command line or URL, secrets shown as `${input:ID}`. */
  readonly target: string;
  /** Everything that decides what runs: command, args, cwd, env, env file; URL and header names. */
  readonly fields: readonly RunField[];
  /** True when the user allowed an earlier version of this definition. */
  readonly changed: boolean;
  /** What differs from the version the user allowed (empty when that version was not recorded). */
  readonly changes: readonly RunFieldChange[];
}

/** How the core asks the user things; the editor implements it with modal dialogs. */
export interface ServerDialogs {
  /** Returns the ids the user allowed to start. */
  confirmWorkspaceServers(requests: readonly StartConsentRequest[]): Promise<ReadonlySet<string>>;
  /** A settings problem the user should see once (not on every refresh). */
  showConfigError(message: string): void;
}

/** What the user allowed to run: its hash, and the fields they saw (to show what changed later). */
export interface ConsentRecord {
  readonly hash: string;
  readonly fields?: readonly RunField[];
}

/** Remembers consent per definition (workspace storage in the editor), and a refusal until the definition changes. */
export interface ConsentStore {
  allowed(serverKey: string): ConsentRecord | undefined;
  allow(serverKey: string, record: ConsentRecord): Promise<void> | void;
  /** The hash of the definition the user last declined to run, if any. */
  declined(serverKey: string): string | undefined;
  decline(serverKey: string, hash: string | undefined): Promise<void> | void;
}

export interface WorkspaceTrust {
  readonly isTrusted: boolean;
}

export interface HostEnvironment {
  readonly dialogs: ServerDialogs;
  readonly consent: ConsentStore;
  readonly trust: WorkspaceTrust;
  /** The editor's MCP policies now (`chat.mcp.access`, allowed and denied servers); none: every server may run. */
  readonly policy?: { readonly current: McpPolicy };
  /** The registry Add Server installed a server from, while `raw` is the entry it wrote (`chat.mcp.access: "registry"`). */
  registryOf?(serverId: string, raw: unknown): string | undefined;
  variableContext(): VariableContext;
  logFor(serverId: string): ServerLog;
  readonly hostLog: ServerLog;
}
