import type { VariableContext } from '../config/variableResolver';
import type { ServerLog } from '../connection/serverLog';
import type { SettingsScope } from '../config/serverDefinition';

/** A workspace-defined server waiting for the user's consent to run. */
export interface StartConsentRequest {
  readonly serverId: string;
  readonly scope: SettingsScope;
  readonly folderName?: string;
  /** The exact command line or URL, secrets shown as `${input:ID}`. */
  readonly target: string;
  /** True when the user allowed an earlier version of this definition. */
  readonly changed: boolean;
}

/** How the core asks the user things; the editor implements it with modal dialogs. */
export interface UserPrompts {
  /** Returns the ids the user allowed to start. */
  confirmWorkspaceServers(requests: readonly StartConsentRequest[]): Promise<ReadonlySet<string>>;
  /** A settings problem the user should see once (not on every refresh). */
  showConfigError(message: string): void;
}

/** Remembers consent per definition hash (workspace storage in the editor). */
export interface ConsentStore {
  allowedHash(serverKey: string): string | undefined;
  allow(serverKey: string, definitionHash: string): Promise<void> | void;
}

export interface WorkspaceTrust {
  readonly isTrusted: boolean;
}

export interface HostEnvironment {
  readonly prompts: UserPrompts;
  readonly consent: ConsentStore;
  readonly trust: WorkspaceTrust;
  variableContext(): VariableContext;
  logFor(serverId: string): ServerLog;
  readonly hostLog: ServerLog;
}
