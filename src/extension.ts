import * as path from 'node:path';
import { AppModelContext } from './core/apps/appModelContext';
import { AppLauncher } from './editor/apps/appLauncher';
import { AppSandboxServer } from './editor/apps/appSandboxServer';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { ExecutableResolver } from './core/process/executableResolver';
import type { ServerSettingsEntry } from './core/config/serverDefinition';
import { McpHost } from './core/host/mcpHost';
import { MemoryApprovalStore, ToolApprovals } from './core/tools/toolApprovals';
import { ToolInvoker } from './core/tools/toolInvoker';
import { ModelToolSwitches } from './core/tools/modelToolSwitches';
import { registerChatParticipant } from './editor/chat/mcpChatParticipant';
import { registerLanguageModelTools } from './editor/chat/languageModelTools';
import {
  MementoRegistryOriginStore,
  MementoApprovalStore,
  MementoConsentStore,
  MementoEraPinStore,
  mementoSwitchStore,
  mementoTaskStore,
  MementoRunStore,
  StateWrites,
} from './editor/mementoStores';
import { LastRuns } from './core/host/lastRuns';
import { ListLearning } from './core/host/listLearning';
import { processIdleClock, WINDOW_IDLE } from './core/host/windowIdle';
import { TaskTracker } from './core/tasks/taskTracker';
import { resumeTasksWhenRunning } from './core/host/serverTaskChannel';
import { registerTasksView } from './editor/tasks/tasksView';
import { registerPromptCommands } from './editor/prompts/promptCommands';
import { RegistryOrigins } from './core/registry/registryOrigins';
import { createPublicApi, type McpHostApi } from './editor/publicApi';
import { SecretInputs } from './editor/config/secretInputs';
import { registerServerCommands } from './editor/servers/serverCommands';
import { registerSkillCommands } from './editor/skills/skillCommands';
import { ServerLogChannels } from './editor/servers/serverLogs';
import { affectsHostSettings, hostSetting } from './editor/config/hostSettings';
import { autoStartDefault, readServerSettings, workspaceFolderRefs } from './editor/config/serverSettingsReader';
import { ServersTreeProvider } from './editor/servers/serversTreeProvider';
import { StatusBarSummary } from './editor/servers/statusBarSummary';
import { notifyFailure, notifySignIn, ServerStatusNotices } from './editor/servers/serverStatusNotices';
import { HostAuthorization } from './core/auth/hostAuthorization';
import { ProcessLedger } from './core/process/processLedger';
import { SrtProcessSandbox, type SandboxRuntimeModule } from './core/process/processSandbox';
import { createEditorNetwork } from './editor/editorNetwork';
import { EditorAuthorizationBrowser } from './editor/auth/browserSignIn';
import { SecretCredentialStore } from './editor/auth/secretCredentialStore';
import { registerSignInCommands } from './editor/auth/signInCommands';
import { registerServerImport } from './editor/config/serverImportCommands';
import { addServer } from './editor/config/addServer';
import { OtherHostFiles } from './editor/config/otherHostFiles';
import { DevModeWatcher } from './editor/servers/devModeWatcher';
import { registerToolCommands } from './editor/tools/toolCommands';
import { ToolConfirmationDialog } from './editor/tools/toolConfirmationDialog';
import { EditorServerDialogs } from './editor/servers/serverDialogs';
import { RESOURCE_SCHEME } from './core/resources/resourceUris';
import { ResourceFileSystem } from './editor/resources/resourceFileSystem';
import { openResource, registerResourceCommands } from './editor/resources/resourceCommands';
import { ResourcesTreeProvider } from './editor/resources/resourcesTreeProvider';
import { SamplingRouter } from './core/sampling/samplingRouter';
import { ElicitationRouter } from './core/elicitation/elicitationRouter';
import { EditorElicitations } from './editor/elicitation/editorElicitations';
import { PendingRequests } from './editor/ui/pendingRequests';
import { LanguageModelBackend } from './editor/sampling/languageModelBackend';
import { SamplingApprovalPanels } from './editor/sampling/samplingApprovalPanel';
import { registerSamplingHistoryCommand } from './editor/sampling/samplingHistoryCommand';
import { updateServerField } from './editor/config/serverSettingsWriter';
import type { CachedModule, CodeCacheOutcome } from './core/codeCache';
import { loadLibrariesWith, whenLibraryLoads, type LibraryBundle } from './core/lazyLibraries';
import { registerAgentServers } from './editor/agents/agentServerProvider';
import type { MachineShare } from './core/connection/machineShare';
import { MachineShares } from './core/gateway/machineShares';
import { affectsMcpPolicy, readMcpPolicy } from './editor/config/mcpPolicySettings';
import { registerServerActivity } from './editor/servers/serverActivity';

let host: McpHost | undefined;
let sandbox: SrtProcessSandbox | undefined;
/** Global state that starts write (era pins, last runs): what waits to be written (see StateWrites) is written as the window goes. */
let stateWrites: StateWrites | undefined;
let shares: MachineShares | undefined;

/** How the extension's code was loaded (see bootstrap.ts). */
export interface CodeLoad {
  readonly loadMs: number;
  readonly cache: CodeCacheOutcome;
  /** The loader's `import()`: code compiled from a cache has none of its own. */
  readonly importModule: (url: string) => Promise<unknown>;
  /** Loads `dist/<bundle>.js`, a bundle of libraries loaded on first use (see lazyLibraries.ts). */
  readonly loadLibraries: (bundle: string) => CachedModule<{ readonly libraries: LibraryBundle }>;
}

const CODE_LOAD_NOTES: Record<CodeCacheOutcome, string> = {
  used: 'from the code cache',
  none: 'parsed; the code cache is written for the next window',
  rejected: 'parsed, the code cache being for another build; it is written again',
};

export async function activate(context: vscode.ExtensionContext, load: CodeLoad): Promise<McpHostApi> {
  const activationStart = performance.now();
  let activationMs = 0;
  const logs = new ServerLogChannels();
  const libraryLoads = whenLibraryLoads((library, ms) =>
    logs.hostLog.info(`Loaded ${library} in ${ms.toFixed(1)} ms (on its first use).`),
  );
  loadLibrariesWith((bundle) => {
    const loaded = load.loadLibraries(bundle);
    logs.hostLog.info(
      `Loaded the bundle of the libraries loaded on first use (dist/${bundle}.js) in ${loaded.loadMs.toFixed(1)} ms, ${CODE_LOAD_NOTES[loaded.cache]}.`,
    );
    return loaded.exports.libraries;
  });
  const secrets = new SecretInputs(context.secrets);
  const resolver = new ExecutableResolver();
  // The login shell's PATH takes a few hundred ms to read; start now so the first server waits less.
  void resolver.searchPath();
  const pending = new PendingRequests();
  const models = new LanguageModelBackend();
  const sampling: SamplingRouter = new SamplingRouter({
    backend: models,
    approval: new SamplingApprovalPanels({
      extensionUri: context.extensionUri,
      pending,
      modelLabel: (id) => models.label(id),
      allowAlways: async (serverId) => {
        const definition = mcp.definition(serverId);
        if (!definition) throw new Error('the server is no longer in the settings');
        if (definition.origin)
          throw new Error(
            vscode.l10n.t(
              'it is read from {0} ({1}), which MCP Host does not write; import it (MCP Host: Import Servers…) to keep this choice',
              definition.origin.host,
              definition.origin.file,
            ),
          );
        await updateServerField(definition, ['sampling', 'mode'], 'allowAlways');
      },
    }),
    policyFor: (id) => mcp.samplingPolicy(id),
    notify: (message) => void vscode.window.showWarningMessage(message),
  });
  const elicitation: ElicitationRouter = new ElicitationRouter(
    new EditorElicitations(context.extensionUri, pending),
    (id): number => mcp.elicitationsPerMinute(id),
  );
  // Servers a crashed window left running (they ignore the end of their input) end now.
  const ledger = new ProcessLedger(context.globalStorageUri.fsPath);
  const origins = new RegistryOrigins(new MementoRegistryOriginStore(context.globalState));
  void ledger.endLeftovers().then((ended) => {
    for (const { serverId, pid } of ended)
      logs.hostLog.warn(
        `Ended server "${serverId}" (process group ${pid}), left running by a window that closed without stopping it.`,
      );
  });
  const network = createEditorNetwork();
  const authorization = new HostAuthorization({
    store: new SecretCredentialStore(context.secrets),
    browser: new EditorAuthorizationBrowser(),
    clientName: 'MCP Host for VS Code',
    fetch: network.network.fetch,
  });
  // Loaded on the first sandboxed start, from its own bundle (see scripts/build.mjs).
  const sandboxRuntime = pathToFileURL(context.asAbsolutePath('dist/sandbox/sandboxRuntime.mjs')).href;
  sandbox = new SrtProcessSandbox(() => load.importModule(sandboxRuntime) as Promise<SandboxRuntimeModule>);
  const tasks = new TaskTracker(mementoTaskStore(context.workspaceState));
  stateWrites = new StateWrites();
  // Literal secrets of other hosts' files read live (mcpHost.otherHosts.readLive), by ${input:} id.
  const liveSecrets = new Map<string, string>();
  // Servers with "share": "machine" meet this user's other windows (from the first one's start).
  const version = String(context.extension.packageJSON.version);
  const share: MachineShare = {
    claim: (...args) => (shares ??= new MachineShares({ host: () => mcp, version, log: logs.hostLog })).claim(...args),
  };
  host = new McpHost({
    share,
    apps: () => hostSetting('appsEnabled'),
    tasks,
    sandbox,
    fetch: network.network.fetch,
    sampling,
    elicitation,
    authorization,
    ledger,
    clientInfo: { name: 'mcp-host-vscode', version: String(context.extension.packageJSON.version) },
    resolver,
    eraPins: new MementoEraPinStore(context.globalState, stateWrites),
    lastRuns: new LastRuns(new MementoRunStore(context.globalState, stateWrites)),
    env: {
      dialogs: new EditorServerDialogs(),
      consent: new MementoConsentStore(context.workspaceState),
      trust: {
        get isTrusted() {
          return vscode.workspace.isTrusted;
        },
      },
      policy: {
        get current() {
          return readMcpPolicy();
        },
      },
      registryOf: (id, raw) => origins.registryOf(id, raw),
      variableContext: () => ({
        workspaceFolders: workspaceFolderRefs(),
        userHome: os.homedir(),
        env: process.env,
        input: (id, serverId) =>
          liveSecrets.has(id) ? Promise.resolve(liveSecrets.get(id)!) : secrets.get(id, serverId),
        readFile: (file) => fs.readFile(file, 'utf8'),
      }),
      logFor: (id) => logs.logFor(id),
      hostLog: logs.hostLog,
    },
  });
  const mcp = host;
  // The user data folder (where VS Code keeps the user's mcp.json) holds globalStorage/<extension>.
  const userDataDir = path.dirname(path.dirname(context.globalStorageUri.fsPath));
  const otherHosts = new OtherHostFiles(userDataDir);
  let liveNotes = '';
  /** `mcpHost.servers`, and with readLive the servers of other hosts' files that it does not have. */
  const allServerSettings = () => {
    const configured = readServerSettings();
    const autoStart = autoStartDefault();
    const withDefaults = (entries: ServerSettingsEntry[]) =>
      entries.map((entry) => ({ ...entry, autoStartDefault: autoStart }));
    liveSecrets.clear();
    if (!hostSetting('readLive')) return withDefaults(configured);
    const live = otherHosts.liveServers(configured);
    for (const [id, value] of live.secrets) liveSecrets.set(id, value);
    if (live.notes.join('\n') !== liveNotes)
      for (const note of live.notes) logs.hostLog.info(`Other hosts' files: ${note}`);
    liveNotes = live.notes.join('\n');
    return withDefaults([...configured, ...live.entries]);
  };
  // Servers that start when needed and have not run yet learn their lists once the window is idle.
  const learning = new ListLearning(mcp, processIdleClock, WINDOW_IDLE, () => hostSetting('learnInBackground'));
  const reload = async () => {
    const applying = mcp.applySettings(allServerSettings());
    // A consent dialog holds the application open until answered: the servers it does not concern learn meanwhile.
    const known = mcp.onDidChangeServers((id) => id === undefined && learning.schedule());
    const errors = await applying.finally(() => known.dispose());
    learning.schedule();
    return errors;
  };
  const switches = new ModelToolSwitches(mementoSwitchStore(context.workspaceState));
  const tree = new ServersTreeProvider(mcp, switches, otherHosts);
  const serversView = vscode.window.createTreeView('mcpHost.servers', {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  const approvals = new ToolApprovals(
    {
      session: new MemoryApprovalStore(),
      workspace: new MementoApprovalStore(context.workspaceState),
      always: new MementoApprovalStore(context.globalState),
    },
    (id) => mcp.toolPolicy(id),
  );
  context.subscriptions.push(
    mcp.onDidChangeServers((id) => {
      for (const server of mcp.changedServers(id)) void switches.followRenames(server.id, server.renamedTools);
    }),
  );
  const invoker = new ToolInvoker(mcp, approvals, new ToolConfirmationDialog(), (server, tool) =>
    switches.isOffered(server, tool),
  );
  const resources = new ResourcesTreeProvider(mcp);
  const resourceFiles = new ResourceFileSystem(mcp, (message) => logs.hostLog.warn(message));
  const api = createPublicApi(mcp, invoker, () => activationMs, ledger.spawns);
  const appContext = new AppModelContext();
  const appSandbox = new AppSandboxServer(context.asAbsolutePath('dist/webview'));
  const apps = new AppLauncher({
    extensionUri: context.extensionUri,
    sandbox: appSandbox,
    invoker,
    host: mcp,
    modelContext: appContext,
    hostInfo: { name: 'MCP Host', version: String(context.extension.packageJSON.version) },
    logFor: (id) => logs.logFor(id),
  });
  invoker.watch(apps);
  const agents = registerAgentServers({
    host: mcp,
    offered: (server, tool) => switches.isOffered(server, tool),
    onDidChangeOffered: switches.onDidChange,
    alsoInVsCode: (definition) => otherHosts.sameAs(definition) !== undefined,
    onDidChangeVsCodeServers: otherHosts.onDidChange,
    version: String(context.extension.packageJSON.version),
    log: logs.hostLog,
    relayScript: context.asAbsolutePath('dist/gatewayRelay.js'),
  });
  context.subscriptions.push(
    ...agents.disposables,
    learning,
    network,
    libraryLoads,
    logs,
    pending,
    registerSamplingHistoryCommand(sampling),
    tree,
    api,
    new StatusBarSummary(mcp),
    new ServerStatusNotices(mcp, 'error', (id, reason) => notifyFailure(mcp, id, reason)),
    new ServerStatusNotices(mcp, 'needs-sign-in', notifySignIn),
    ...registerSignInCommands(mcp, authorization),
    otherHosts,
    otherHosts.onDidChange(() => {
      if (hostSetting('readLive')) void reload();
    }),
    new DevModeWatcher(mcp, (id) => logs.logFor(id)),
    ...registerServerImport(secrets, otherHosts, userDataDir),
    vscode.commands.registerCommand('mcpHost.addServer', () =>
      addServer({ resolver, fetch: network.network.fetch, secrets, origins }),
    ),
    serversView,
    serversView.onDidChangeCheckboxState((e) => void tree.applyCheckboxes(e.items)),
    resources,
    resourceFiles,
    vscode.window.createTreeView('mcpHost.resources', { treeDataProvider: resources, showCollapseAll: true }),
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, resourceFiles, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...registerServerCommands(mcp, logs, () => mcp.refresh(allServerSettings())),
    ...registerToolCommands({ host: mcp, invoker, extensionUri: context.extensionUri, openResource }),
    ...registerPromptCommands(mcp),
    ...registerSkillCommands(mcp),
    ...registerResourceCommands(mcp),
    ...registerLanguageModelTools(mcp, invoker, (id) => agents.provider?.isPublished(id) === true),
    ...registerTasksView(tasks, mcp, context.extensionUri, openResource),
    resumeTasksWhenRunning(mcp),
    registerChatParticipant(mcp, invoker, context.extensionUri, appContext),
    apps,
    appSandbox,
    vscode.commands.registerCommand('mcpHost.showApp', (viewId: string) => apps.show(viewId)),
    registerServerActivity(ledger.spawns),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsHostSettings(e, 'servers', 'readLive', 'autoStart', 'learnInBackground')) void reload();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(async () => {
      await mcp.setWorkspaceFolders(workspaceFolderRefs());
      await reload(); // folder-scoped servers come and go with their folders
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
    // A change of the editor's MCP policies applies at once: servers now ruled out stop, saying why.
    vscode.workspace.onDidChangeConfiguration((e) => affectsMcpPolicy(e) && void reload()),
  );
  await mcp.setWorkspaceFolders(workspaceFolderRefs());
  // Not awaited: a consent dialog must not hold up activation.
  void reload();
  activationMs = performance.now() - activationStart;
  logs.hostLog.info(
    `MCP Host ${context.extension.packageJSON.version} activated in ${activationMs.toFixed(1)} ms. Its code loaded in ${load.loadMs.toFixed(1)} ms, ${CODE_LOAD_NOTES[load.cache]}.`,
  );
  return api;
}

/** Stops every server and waits for their processes to end, so none outlives the window. */
export async function deactivate(): Promise<void> {
  // Sent while the servers stop; waited for after them, for a second at most.
  const written = stateWrites?.flush().catch(() => undefined);
  stateWrites = undefined;
  await host?.dispose();
  host = undefined;
  shares?.dispose(); // after the servers: each let its share go as it stopped
  shares = undefined;
  await sandbox?.dispose(); // after the servers: its proxy served them
  sandbox = undefined;
  await Promise.race([written, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
}
