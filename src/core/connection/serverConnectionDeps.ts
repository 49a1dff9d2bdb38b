import type {
  FetchLike,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotificationParams,
  OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { ResolvedRoot } from '../config/serverDefinition';
import type { EraPinStore } from './eraPins';
import type { ExecutableResolver } from '../process/executableResolver';
import type { ProcessLedger } from '../process/processLedger';
import type { ProcessSandbox } from '../process/processSandbox';
import type { ResolvedSecret } from './secretRedaction';
import type { ServerLog } from './serverLog';
import type { StartSlots } from './startSlots';
import type { MachineShare } from './machineShare';

/** What one server's connection needs from the host. */
export interface ServerConnectionDeps {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly resolver: ExecutableResolver;
  readonly eraPins: EraPinStore;
  readonly log: ServerLog;
  /** How requests to this HTTP server are authorized; without it a 401 is an error like any other. */
  readonly authorization?: OAuthClientProvider;
  /** Records started processes: the next window ends them if this one crashes. */
  readonly ledger?: ProcessLedger;
  /** Runs the server sandboxed when its settings ask for it; without it such a server fails to start. */
  readonly sandbox?: ProcessSandbox;
  /** Reaches HTTP servers through the editor's proxy and certificates; the global fetch without it. */
  readonly fetch?: FetchLike;
  /** Turns for starting local processes, shared by the host's servers; without it a server starts at once. */
  readonly startSlots?: StartSlots;
  /** Secrets the definition resolved: status reasons show their placeholders instead. */
  readonly secrets?: readonly ResolvedSecret[];
  /** Where windows share servers (`"share": "machine"`); without it every server runs in its window. */
  readonly share?: MachineShare;
  /** Declares MCP Apps (`io.modelcontextprotocol/ui`), so the server offers its tools' apps. */
  readonly apps?: boolean;
  /** The roots this server sees right now. */
  roots(): readonly ResolvedRoot[];
  /**
   * Answers the server's sampling requests (legacy requests and 2026-07-28 input requests alike).
   * Without it the client does not declare `sampling`, so servers do not ask.
   */
  sampling?(
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Dev mode's debugging: the server's Node inspector listens at this `ws://` address. */
  onDebuggerListening?(address: string): void;
  /** `notifications/resources/updated` from this server. */
  onResourceUpdated?(uri: string): void;
  /** A `notifications/message` log line from this server (it is in the server's log too). */
  onLogMessage?(message: LoggingMessageNotificationParams): void;
  /** Answers the server's elicitation requests (form and URL); without it `elicitation` is not declared. */
  readonly elicitation?: {
    handle(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
    /** `notifications/elicitation/complete` from this server. */
    complete(elicitationId: string): void;
  };
}
