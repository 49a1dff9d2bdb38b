import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { HostAuthorization } from '../../core/auth/hostAuthorization';
import type { MachineShare } from '../../core/connection/machineShare';
import { ElicitationRouter } from '../../core/elicitation/elicitationRouter';
import { MachineShares } from '../../core/share/machineShares';
import { LastRuns } from '../../core/host/lastRuns';
import { McpHost } from '../../core/host/mcpHost';
import { ExecutableResolver } from '../../core/process/executableResolver';
import { ProcessLedger } from '../../core/process/processLedger';
import { SrtProcessSandbox, type SandboxRuntimeModule } from '../../core/process/processSandbox';
import { RegistryOrigins } from '../../core/registry/registryOrigins';
import type { SamplingRouter } from '../../core/sampling/samplingRouter';
import { TaskTracker } from '../../core/tasks/taskTracker';
import { EditorAuthorizationBrowser } from '../auth/browserSignIn';
import { SecretCredentialStore } from '../auth/secretCredentialStore';
import { hostSetting } from '../config/hostSettings';
import { OtherHostFiles } from '../config/otherHostFiles';
import { SecretInputs } from '../config/secretInputs';
import { ServerSettingsSource } from '../config/serverSettingsSource';
import { EditorElicitations } from '../elicitation/editorElicitations';
import { createEditorNetwork } from '../editorNetwork';
import {
  MementoEraPinStore,
  MementoRegistryOriginStore,
  MementoRunStore,
  mementoTaskStore,
  StateWrites,
} from '../mementoStores';
import { createEditorSampling } from '../sampling/editorSampling';
import { editorHostEnvironment } from '../servers/editorHostEnvironment';
import type { ServerLogChannels } from '../servers/serverLogs';
import { PendingRequests } from '../ui/pendingRequests';
import type { CodeLoad } from './codeLoad';

/** A window's McpHost with the editor's parts it is made of, which the rooms use too. */
export interface EditorHost {
  readonly host: McpHost;
  readonly version: string;
  readonly secrets: SecretInputs;
  readonly resolver: ExecutableResolver;
  readonly pending: PendingRequests;
  readonly sampling: SamplingRouter;
  readonly ledger: ProcessLedger;
  readonly origins: RegistryOrigins;
  readonly network: ReturnType<typeof createEditorNetwork>;
  readonly authorization: HostAuthorization;
  readonly tasks: TaskTracker;
  /** The user data folder, where VS Code keeps the user's mcp.json. */
  readonly userDataDir: string;
  readonly otherHosts: OtherHostFiles;
  readonly settings: ServerSettingsSource;
  /** Stops every server and waits for their processes, then what served them; writes what waits to be written. */
  dispose(): Promise<void>;
}

/** Makes the window's host: its processes, sign-ins, sampling, elicitation, stores and sharing, all in the editor's terms. */
export function createEditorHost(
  context: vscode.ExtensionContext,
  load: CodeLoad,
  logs: ServerLogChannels,
): EditorHost {
  const version = String(context.extension.packageJSON.version);
  const secrets = new SecretInputs(context.secrets);
  const resolver = new ExecutableResolver();
  // The login shell's PATH takes a few hundred ms to read; start now so the first server waits less.
  void resolver.searchPath();
  const pending = new PendingRequests();
  const sampling = createEditorSampling(context.extensionUri, pending, () => host);
  const elicitation = new ElicitationRouter(new EditorElicitations(context.extensionUri, pending), (id) =>
    host.elicitationsPerMinute(id),
  );
  // Servers a crashed window left running (they ignore the end of their input) end now.
  const ledger = new ProcessLedger(context.globalStorageUri.fsPath);
  void ledger.endLeftovers().then((ended) => {
    for (const { serverId, pid } of ended)
      logs.hostLog.warn(
        `Ended server "${serverId}" (process group ${pid}), left running by a window that closed without stopping it.`,
      );
  });
  const origins = new RegistryOrigins(new MementoRegistryOriginStore(context.globalState));
  const network = createEditorNetwork();
  const authorization = new HostAuthorization({
    store: new SecretCredentialStore(context.secrets),
    browser: new EditorAuthorizationBrowser(),
    clientName: 'MCP Host for VS Code',
    fetch: network.network.fetch,
  });
  // Loaded on the first sandboxed start, from its own bundle (see scripts/build.mjs).
  const sandboxRuntime = pathToFileURL(context.asAbsolutePath('dist/sandbox/sandboxRuntime.mjs')).href;
  const sandbox = new SrtProcessSandbox(() => load.importModule(sandboxRuntime) as Promise<SandboxRuntimeModule>);
  const tasks = new TaskTracker(mementoTaskStore(context.workspaceState));
  // Global state that starts write (era pins, last runs): what waits is written as the window goes.
  const stateWrites = new StateWrites();
  // The user data folder holds globalStorage/<extension>.
  const userDataDir = path.dirname(path.dirname(context.globalStorageUri.fsPath));
  const otherHosts = new OtherHostFiles(userDataDir);
  const settings = new ServerSettingsSource(otherHosts, logs.hostLog);
  // Servers with "share": "machine" meet this user's other windows (from the first one's start).
  let shares: MachineShares | undefined;
  const share: MachineShare = {
    claim: (...args) => (shares ??= new MachineShares({ host: () => host, version, log: logs.hostLog })).claim(...args),
  };
  const host: McpHost = new McpHost({
    share,
    apps: () => hostSetting('appsEnabled'),
    tasks,
    sandbox,
    fetch: network.network.fetch,
    sampling,
    elicitation,
    authorization,
    ledger,
    clientInfo: { name: 'mcp-host-vscode', version },
    resolver,
    eraPins: new MementoEraPinStore(context.globalState, stateWrites),
    lastRuns: new LastRuns(new MementoRunStore(context.globalState, stateWrites)),
    env: editorHostEnvironment({ workspaceState: context.workspaceState, secrets, settings, origins, logs }),
  });
  return {
    host,
    version,
    secrets,
    resolver,
    pending,
    sampling,
    ledger,
    origins,
    network,
    authorization,
    tasks,
    userDataDir,
    otherHosts,
    settings,
    async dispose() {
      // Sent while the servers stop; waited for after them, for a second at most.
      const written = stateWrites.flush().catch(() => undefined);
      await host.dispose();
      shares?.dispose(); // after the servers: each let its share go as it stopped
      await sandbox.dispose(); // after the servers: its proxy served them
      await Promise.race([written, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    },
  };
}
