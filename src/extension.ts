import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { resumeTasksWhenRunning } from './core/host/serverTaskChannel';
import { registerAgentServers } from './editor/agents/agentServerProvider';
import { registerApps } from './editor/apps/appLauncher';
import { registerSignInCommands } from './editor/auth/signInCommands';
import { registerLanguageModelTools } from './editor/chat/languageModelTools';
import { registerChatParticipant } from './editor/chat/mcpChatParticipant';
import { addServer } from './editor/config/addServer';
import { registerServerImport } from './editor/config/serverImportCommands';
import { ServerSettingsFollower } from './editor/config/serverSettingsFollower';
import { codeLoadNote, loadLibrariesLogged, type CodeLoad } from './editor/host/codeLoad';
import { createEditorHost, type EditorHost } from './editor/host/editorHost';
import { registerPromptCommands } from './editor/prompts/promptCommands';
import { createPublicApi, type McpHostApi } from './editor/publicApi';
import { openResource, registerResourceCommands } from './editor/resources/resourceCommands';
import { registerResourcesView } from './editor/resources/resourcesView';
import { registerSamplingHistoryCommand } from './editor/sampling/samplingHistoryCommand';
import { DevModeWatcher } from './editor/servers/devModeWatcher';
import { registerServerActivity } from './editor/servers/serverActivity';
import { registerServerCommands } from './editor/servers/serverCommands';
import { ServerLogChannels } from './editor/servers/serverLogs';
import { notifyFailure, notifySignIn, ServerStatusNotices } from './editor/servers/serverStatusNotices';
import { registerServersView } from './editor/servers/serversTreeProvider';
import { StatusBarSummary } from './editor/servers/statusBarSummary';
import { registerSkillCommands } from './editor/skills/skillCommands';
import { registerTasksView } from './editor/tasks/tasksView';
import { createEditorToolCalls } from './editor/tools/editorToolCalls';
import { registerToolCommands } from './editor/tools/toolCommands';

export type { CodeLoad } from './editor/host/codeLoad';

let editorHost: EditorHost | undefined;

/**
 * The composition root: makes the window's host, then each room registers what it adds to the
 * editor (views, commands, the chat participant, the agents' lane, Apps), and the settings are followed.
 */
export async function activate(context: vscode.ExtensionContext, load: CodeLoad): Promise<McpHostApi> {
  const activationStart = performance.now();
  let activationMs = 0;
  const logs = new ServerLogChannels();
  const libraryLoads = loadLibrariesLogged(load, logs.hostLog);
  const made = (editorHost = createEditorHost(context, load, logs));
  const { host: mcp, version, secrets, otherHosts, ledger, tasks } = made;
  const settings = new ServerSettingsFollower(mcp, made.settings, otherHosts);
  const tools = createEditorToolCalls(context, mcp);
  const { invoker, switches } = tools;
  const api = createPublicApi(mcp, invoker, () => activationMs, ledger.spawns);
  const apps = registerApps({
    extensionUri: context.extensionUri,
    webviewFolder: context.asAbsolutePath('dist/webview'),
    invoker,
    host: mcp,
    hostInfo: { name: 'MCP Host', version },
    logFor: (id) => logs.logFor(id),
  });
  const agents = registerAgentServers({
    host: mcp,
    offered: (server, tool) => switches.isOffered(server, tool),
    onDidChangeOffered: switches.onDidChange,
    alsoInVsCode: (definition) => otherHosts.sameAs(definition) !== undefined,
    onDidChangeVsCodeServers: otherHosts.onDidChange,
    version,
    log: logs.hostLog,
    relayScript: context.asAbsolutePath('dist/gatewayRelay.js'),
  });
  context.subscriptions.push(
    libraryLoads,
    logs,
    made.network,
    made.pending,
    otherHosts,
    settings,
    api,
    ...tools.disposables,
    ...agents.disposables,
    ...apps.disposables,
    ...registerServersView(mcp, switches, otherHosts),
    new StatusBarSummary(mcp),
    new ServerStatusNotices(mcp, 'error', (id, reason) => notifyFailure(mcp, id, reason)),
    new ServerStatusNotices(mcp, 'needs-sign-in', notifySignIn),
    new DevModeWatcher(mcp, (id) => logs.logFor(id)),
    ...registerServerCommands(mcp, logs, () => settings.refresh()),
    registerServerActivity(ledger.spawns),
    ...registerSignInCommands(mcp, made.authorization),
    ...registerServerImport(secrets, otherHosts, made.userDataDir),
    vscode.commands.registerCommand('mcpHost.addServer', () =>
      addServer({ resolver: made.resolver, fetch: made.network.network.fetch, secrets, origins: made.origins }),
    ),
    ...registerResourcesView(mcp, (message) => logs.hostLog.warn(message)),
    ...registerResourceCommands(mcp),
    ...registerToolCommands({ host: mcp, invoker, extensionUri: context.extensionUri, openResource }),
    ...registerPromptCommands(mcp),
    ...registerSkillCommands(mcp),
    ...registerLanguageModelTools(mcp, invoker, (id) => agents.provider?.isPublished(id) === true),
    registerChatParticipant(mcp, invoker, context.extensionUri, apps.modelContext),
    registerSamplingHistoryCommand(made.sampling),
    ...registerTasksView(tasks, mcp, context.extensionUri, openResource),
    resumeTasksWhenRunning(mcp),
  );
  await settings.start();
  activationMs = performance.now() - activationStart;
  logs.hostLog.info(
    `MCP Host ${version} activated in ${activationMs.toFixed(1)} ms. Its code loaded in ${codeLoadNote(load)}.`,
  );
  return api;
}

/** Stops every server and waits for their processes to end, so none outlives the window. */
export async function deactivate(): Promise<void> {
  const made = editorHost;
  editorHost = undefined;
  await made?.dispose();
}
