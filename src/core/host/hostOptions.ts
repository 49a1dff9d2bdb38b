import type { FetchLike } from '@modelcontextprotocol/client';
import type { EraPinStore } from '../connection/eraPins';
import type { MachineShare } from '../connection/machineShare';
import type { StartSlots } from '../connection/startSlots';
import type { HostAuthorization } from '../auth/hostAuthorization';
import type { ElicitationRouter } from '../elicitation/elicitationRouter';
import type { ExecutableResolver } from '../process/executableResolver';
import type { ProcessLedger } from '../process/processLedger';
import type { ProcessSandbox } from '../process/processSandbox';
import type { SamplingRouter } from '../sampling/samplingRouter';
import type { TaskTracker } from '../tasks/taskTracker';
import type { LastRuns } from './lastRuns';
import type { HostEnvironment } from './ports';

/** What a host is made with: how it reaches processes, the user, the models and its stores. */
export interface McpHostOptions {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly resolver: ExecutableResolver;
  readonly eraPins: EraPinStore;
  readonly env: HostEnvironment;
  /** Answers sampling requests; without it servers are not offered sampling. */
  readonly sampling?: SamplingRouter;
  /** Answers elicitation requests and -32042 errors; without it servers are not offered elicitation. */
  readonly elicitation?: ElicitationRouter;
  /** Signs in to HTTP servers that ask for it (MCP authorization); without it a 401 is an error. */
  readonly authorization?: HostAuthorization;
  readonly ledger?: ProcessLedger;
  readonly sandbox?: ProcessSandbox;
  readonly fetch?: FetchLike;
  /** Whether MCP Apps are on (the global setting, read at each start); off or absent, servers are not offered them. */
  readonly apps?: () => boolean;
  /** Follows tasks (the MCP Tasks view); a tracker that keeps nothing across windows without it. */
  readonly tasks?: TaskTracker;
  /** Keeps each server's tools for its next window, where it may start only when needed. */
  readonly lastRuns?: LastRuns;
  /** Turns for starting the servers' processes; one per core and one more without it. */
  readonly startSlots?: StartSlots;
  /** Where this user's windows share servers that ask (`"share": "machine"`); without it each window runs its own. */
  readonly share?: MachineShare;
}
