import * as vscode from 'vscode';
import { hostSetting } from '../config/hostSettings';
import { withCancellation } from '../ui/cancellation';
import { runToolLoop, type ToolOutcome } from '../../core/chat/toolCallLoop';
import type { ModelMessage, ModelPart } from '../../core/models/modelMessages';
import { DEFAULT_MAX_MODEL_TOOLS } from '../../core/config/hostSettingKeys';
import {
  MAX_MAX_MODEL_TOOLS,
  MIN_MAX_MODEL_TOOLS,
  ModelToolOffer,
  SEARCH_TOOL_NAME,
  toolCatalogue,
} from '../../core/chat/modelToolOffer';
import { instructionsForModel } from '../../core/chat/serverInstructions';
import {
  boundedSkillFile,
  LOAD_SKILL_TOOL_NAME,
  loadedSkillText,
  loadSkillTool,
  skillOffers,
  skillsIntroduction,
  type SkillOffer,
} from '../../core/chat/skillsForModel';
import type { AppModelContext } from '../../core/apps/appModelContext';
import { resourceForModel } from '../../core/resources/resourceContents';
import { parseResourceAddress, RESOURCE_SCHEME } from '../../core/resources/resourceUris';
import type { ServerCalls, ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { listsKnown } from '../../core/connection/serverSnapshot';
import { parsePromptArguments } from '../../core/prompts/promptArguments';
import type { ToolInvoker } from '../../core/tools/toolInvoker';
import { promptCommandName, type QualifiedTool } from '../../core/connection/toolNames';
import { resultText } from '../../core/tools/toolResults';
import { askPromptArguments } from '../prompts/promptArgumentsInput';
import { startWhenNeeded } from '../servers/serverItemPicker';
import { LanguageModelBridge, promptToChatMessages } from './languageModelBridge';

type UsedHost = ServerDirectory & ServerLifecycle & ServerCalls;

const SLASH = /^\s*\/([A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+)(?:\s+([\s\S]*))?$/;

/**
 * `@mcp`: `/server.prompt args` runs a server's prompt and sends its messages to the chat model;
 * anything else goes to the model with the tools of the running servers, whose calls are
 * confirmed and run through the host. `/prompts` lists the prompts there are.
 */
export function registerChatParticipant(
  host: UsedHost,
  invoker: ToolInvoker,
  extensionUri: vscode.Uri,
  appContext?: AppModelContext,
): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant('mcpHost.chat', (request, context, stream, token) =>
    handle(host, invoker, { request, context, stream, token, appContext }),
  );
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'mcp.svg');
  participant.followupProvider = {
    // Slash commands are static in package.json, so the prompts of running servers are offered here.
    provideFollowups: () =>
      promptIndex(host)
        .slice(0, 8)
        .map(([command, entry]) => ({
          prompt: `/${command} `,
          label: `/${command}`,
          participant: 'mcpHost.chat',
          title: entry.description,
        })),
  };
  // VS Code's extension host finds a chat request's model in its cache of the models selected in
  // this extension host, before any participant runs; in a new window that cache is empty and the
  // first request failed with "Language model unavailable". Selecting the models fills it, and
  // again whenever they change.
  const warm = () => void vscode.lm.selectChatModels().then(undefined, () => undefined);
  warm();
  return vscode.Disposable.from(participant, vscode.lm.onDidChangeChatModels(warm));
}

interface PromptEntry {
  readonly serverId: string;
  readonly promptName: string;
  readonly description?: string;
}

function promptIndex(host: UsedHost): [string, PromptEntry][] {
  return host
    .servers()
    .filter(listsKnown)
    .flatMap((s) =>
      s.prompts.map(
        (p) =>
          [promptCommandName(s.id, p.name), { serverId: s.id, promptName: p.name, description: p.description }] as [
            string,
            PromptEntry,
          ],
      ),
    );
}

/** One chat request as VS Code hands it to the participant. */
interface ChatTurn {
  readonly request: vscode.ChatRequest;
  readonly context: vscode.ChatContext;
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  /** What open MCP Apps handed the model (`ui/update-model-context`). */
  readonly appContext?: AppModelContext;
}

async function handle(host: UsedHost, invoker: ToolInvoker, turn: ChatTurn): Promise<vscode.ChatResult> {
  try {
    if (turn.request.command === 'prompts')
      return await withCancellation(turn.token, (signal) => listPrompts(host, turn.stream, signal));
    return await withCancellation(turn.token, (signal) => respond(host, invoker, turn, signal));
  } catch (error) {
    if (turn.token.isCancellationRequested) return {};
    return { errorDetails: { message: (error as Error).message } };
  }
}

async function respond(
  host: UsedHost,
  invoker: ToolInvoker,
  { request, context, stream, token, appContext }: ChatTurn,
  signal: AbortSignal,
): Promise<vscode.ChatResult> {
  const slash = SLASH.exec(request.prompt);
  if (slash) {
    const find = () => promptIndex(host).find(([command]) => command === slash[1])?.[1];
    // Only servers that have not run yet can bring a prompt no one knows of.
    const entry = find() ?? ((await startUnknown(host, stream, signal)) ? find() : undefined);
    if (!entry) {
      stream.markdown(
        vscode.l10n.t('There is no prompt `/{0}` on an MCP server. Use `/prompts` to see them.', slash[1]),
      );
      return { errorDetails: { message: vscode.l10n.t('Unknown prompt /{0}.', slash[1]) } };
    }
    return runPrompt(host, invoker, entry, slash[2] ?? '', request, stream, token, signal, appContext);
  }
  const history = historyMessages(context);
  const attached = await referencedResources(host, request.references, stream, signal);
  return converse(
    host,
    invoker,
    request.model,
    [],
    [...history, { role: 'user', parts: [...attached, { kind: 'text', text: request.prompt }] }],
    stream,
    token,
    signal,
    appContext,
  );
}

async function runPrompt(
  host: UsedHost,
  invoker: ToolInvoker,
  entry: PromptEntry,
  text: string,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
  appContext?: AppModelContext,
): Promise<vscode.ChatResult> {
  // A server that starts when needed starts first: the arguments follow its current prompt.
  if (host.server(entry.serverId)?.startsWhenNeeded) {
    stream.progress(vscode.l10n.t('Starting {0}…', entry.serverId));
    await startWhenNeeded(host, { signal, ids: [entry.serverId] });
  }
  const prompt = host.server(entry.serverId)?.prompts.find((p) => p.name === entry.promptName);
  if (!prompt)
    throw new Error(
      vscode.l10n.t('MCP server "{0}" no longer offers the prompt "{1}".', entry.serverId, entry.promptName),
    );
  const parsed = parsePromptArguments(text, prompt.arguments ?? []);
  for (const problem of parsed.problems) stream.markdown(`${problem}\n\n`);
  const args = parsed.missing.length
    ? await askPromptArguments(host, entry.serverId, prompt, parsed.missing, parsed.values)
    : parsed.values;
  if (!args)
    return {
      errorDetails: {
        message: vscode.l10n.t('Cancelled: the prompt needs {0}.', parsed.missing.map((a) => a.name).join(', ')),
      },
    };
  stream.progress(vscode.l10n.t('Getting prompt "{0}" from {1}…', prompt.name, entry.serverId));
  const result = await host.getPrompt(entry.serverId, prompt.name, args, signal);
  const preamble = promptToChatMessages(result);
  stream.markdown(
    vscode.l10n.t('*Prompt `{0}` from {1}: {2} message(s).*\n\n', prompt.name, entry.serverId, result.messages.length),
  );
  return converse(host, invoker, request.model, preamble, [], stream, token, signal, appContext);
}

async function converse(
  host: UsedHost,
  invoker: ToolInvoker,
  model: vscode.LanguageModelChat,
  preamble: vscode.LanguageModelChatMessage[],
  messages: ModelMessage[],
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  signal: AbortSignal,
  appContext?: AppModelContext,
): Promise<vscode.ChatResult> {
  // Servers whose tools are known from their last run start when the model calls one of them.
  await startUnknown(host, stream, signal);
  await waitForStarting(host, stream, signal);
  const offer = offerForModel(host, invoker);
  if (offer.searching)
    stream.markdown(
      vscode.l10n.t(
        '*{0} MCP tools are on, more than the {1} a request takes: the model searches them.*\n\n',
        offer.catalogue.length,
        offer.maxTools,
      ),
    );
  const servers = new Set(offer.catalogue.map((e) => e.serverId));
  const skills = skillOffers(host.servers());
  // Server instructions, the skills there are, then what the user's open apps handed the model, ahead of the conversation.
  const introduction = skillsIntroduction(skills);
  const instructions = [
    ...instructionsForModel(host.servers(), servers),
    ...(introduction ? [introduction] : []),
    ...(appContext?.forModel(servers) ?? []),
  ].map((text) => vscode.LanguageModelChatMessage.User(text));
  // Apps that tool calls opened: the answer ends with a way back to each.
  const apps: { viewId: string; toolName: string }[] = [];
  const outcome = await runToolLoop(
    new LanguageModelBridge(model, token, [...instructions, ...preamble], () =>
      stream.progress(vscode.l10n.t('Waiting for the language model to load…')),
    ),
    () => (skills.length ? [...offer.tools(), loadSkillTool(skills)] : offer.tools()),
    messages,
    {
      onText: (text) => stream.markdown(text),
      onToolCall: (call) => {
        const target = offer.resolve(call.name);
        if (call.name === SEARCH_TOOL_NAME)
          stream.progress(vscode.l10n.t('Searching MCP tools for "{0}"…', String(call.input.query ?? '')));
        else if (call.name === LOAD_SKILL_TOOL_NAME)
          stream.progress(vscode.l10n.t('Loading skill {0}…', String(call.input.skill ?? '')));
        else
          stream.progress(
            target
              ? vscode.l10n.t('Running {0} on {1}…', target.toolName, target.serverId)
              : vscode.l10n.t('The model asked for an unknown tool {0}.', call.name),
          );
      },
      runTool: async (call, callSignal) =>
        call.name === LOAD_SKILL_TOOL_NAME && skills.length
          ? loadSkillForModel(host, skills, call.input, stream, callSignal)
          : offer.searching && call.name === SEARCH_TOOL_NAME
            ? { text: offer.search(call.input), isError: false }
            : runForModel(
                invoker,
                offer.resolve(call.name),
                call.name,
                call.input,
                stream,
                callSignal,
                (viewId, toolName) => apps.push({ viewId, toolName }),
              ),
    },
    signal,
  );
  if (outcome.stoppedAtLimit)
    stream.markdown(vscode.l10n.t('\n\n*Stopped after {0} rounds of tool calls.*', outcome.rounds));
  for (const app of apps)
    stream.button({
      command: 'mcpHost.showApp',
      arguments: [app.viewId],
      title: vscode.l10n.t('Show the app of {0}', app.toolName),
    });
  return {};
}

/** The model loads a skill (or a file it names): verified by the host, shown in the answer. */
async function loadSkillForModel(
  host: UsedHost,
  skills: readonly SkillOffer[],
  input: Record<string, unknown>,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const offer = skills.find((s) => s.key === input.skill);
  if (!offer)
    return {
      text: `There is no skill "${String(input.skill)}"; the skills are: ${skills.map((s) => s.key).join(', ')}.`,
      isError: true,
    };
  const file = typeof input.file === 'string' && input.file ? input.file : undefined;
  try {
    const text = file
      ? boundedSkillFile(await host.readSkillFile(offer.serverId, offer.uri, file, signal))
      : loadedSkillText(await host.loadSkill(offer.serverId, offer.uri, signal));
    stream.markdown(
      `\n\n> ${file ? vscode.l10n.t('Loaded {0} of skill `{1}`.', file, offer.key) : vscode.l10n.t('Loaded skill `{0}`.', offer.key)}\n\n`,
    );
    return { text, isError: false };
  } catch (error) {
    stream.markdown(
      `\n\n> ${vscode.l10n.t('**Skill `{0}` was not loaded**: {1}', offer.key, quote((error as Error).message))}\n\n`,
    );
    return { text: (error as Error).message, isError: true };
  }
}

/** The tools the user offers to models, with the `mcpHost.chat.maxTools` limit. */
export function offerForModel(host: UsedHost, invoker: ToolInvoker): ModelToolOffer {
  const max = hostSetting('chatMaxTools');
  const bounded = Number.isInteger(max)
    ? Math.min(MAX_MAX_MODEL_TOOLS, Math.max(MIN_MAX_MODEL_TOOLS, max))
    : DEFAULT_MAX_MODEL_TOOLS;
  return new ModelToolOffer(toolCatalogue(host.servers(), invoker.offeredToModels), bounded);
}

async function runForModel(
  invoker: ToolInvoker,
  target: QualifiedTool | undefined,
  modelName: string,
  input: Record<string, unknown>,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
  onView: (viewId: string, toolName: string) => void,
): Promise<ToolOutcome> {
  if (!target) return { text: `There is no tool named ${modelName}.`, isError: true };
  const label = `\`${target.serverId}/${target.toolName}\``;
  try {
    const done = await invoker.invoke(target.serverId, target.toolName, input, { origin: 'model', signal });
    if (done.viewId) onView(done.viewId, target.toolName);
    switch (done.outcome) {
      case 'ok':
      case 'toolError': {
        const text = resultText(done.result!);
        stream.markdown(
          `\n\n> ${label} ${done.outcome === 'ok' ? vscode.l10n.t('returned') : vscode.l10n.t('**reported an error**')}: ${quote(text)}\n\n`,
        );
        return { text, isError: done.outcome === 'toolError' };
      }
      case 'denied':
        stream.markdown(`\n\n> ${vscode.l10n.t('You declined {0}.', label)}\n\n`);
        return { text: done.error!, isError: true };
      default:
        stream.markdown(`\n\n> ${vscode.l10n.t('**{0} could not run**: {1}', label, quote(done.error ?? ''))}\n\n`);
        return { text: `The call could not be completed: ${done.error}`, isError: true };
    }
  } catch (error) {
    stream.markdown(`\n\n> **${quote((error as Error).message)}**\n\n`);
    return { text: (error as Error).message, isError: true };
  }
}

/**
 * MCP resources attached to the request (from the Resources view's "Add to Chat", or an open
 * resource editor), read from their servers and handed to the model ahead of the question.
 */
async function referencedResources(
  host: UsedHost,
  references: readonly vscode.ChatPromptReference[],
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<ModelPart[]> {
  const parts: ModelPart[] = [];
  for (const reference of references) {
    const uri =
      reference.value instanceof vscode.Uri
        ? reference.value
        : reference.value instanceof vscode.Location
          ? reference.value.uri
          : undefined;
    const location = uri?.scheme === RESOURCE_SCHEME ? parseResourceAddress(uri.path, uri.query) : undefined;
    if (!location) continue;
    stream.progress(vscode.l10n.t('Reading {0} from {1}…', location.uri, location.serverId));
    const result = await host.readResource(location.serverId, location.uri, signal);
    stream.reference(uri!);
    parts.push(...resourceForModel(location.serverId, location.uri, result));
  }
  return parts;
}

/** Starts the servers that start when needed and whose tools and prompts are not known from a last run; whether there were any. */
async function startUnknown(host: UsedHost, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<boolean> {
  if (!host.servers().some((s) => s.startsWhenNeeded && !s.fromLastRun)) return false;
  stream.progress(vscode.l10n.t('Starting MCP servers that start when needed…'));
  await startWhenNeeded(host, { signal, unknownOnly: true });
  return true;
}

/** How long a chat request waits for servers still starting (a window's first seconds) before it goes on without them. */
const STARTING_WAIT_MS = 15_000;

/**
 * Waits, for at most {@link STARTING_WAIT_MS}, for the servers still starting whose tools are not
 * known (those waiting for their turn go at once), so the request offers their tools; says which
 * are left out when some take longer.
 */
async function waitForStarting(host: UsedHost, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<void> {
  const starting = host
    .servers()
    .filter((s) => s.status === 'starting' && !listsKnown(s))
    .map((s) => s.id);
  if (starting.length === 0) return;
  stream.progress(vscode.l10n.t('Waiting for MCP servers to start: {0}…', starting.join(', ')));
  await startWhenNeeded(host, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(STARTING_WAIT_MS)]),
    ids: starting,
  });
  const late = starting.filter((id) => host.server(id)?.status === 'starting');
  if (late.length > 0 && !signal.aborted)
    stream.markdown(
      vscode.l10n.t('*Still starting, so their tools are not offered to this request: {0}.*\n\n', late.join(', ')),
    );
}

async function listPrompts(
  host: UsedHost,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<vscode.ChatResult> {
  await startUnknown(host, stream, signal);
  const index = promptIndex(host);
  if (index.length === 0) {
    stream.markdown(vscode.l10n.t('No MCP server offers prompts.'));
    return {};
  }
  stream.markdown(
    vscode.l10n.t(
      'Prompts of the MCP servers (those of a server that starts when needed start it). Type `@mcp /server.prompt` followed by arguments (`name=value` or in order):\n\n',
    ),
  );
  for (const [command, entry] of index)
    stream.markdown(`- \`/${command}\`${entry.description ? ` — ${entry.description}` : ''}\n`);
  return {};
}

/** Earlier turns of this participant, as plain text, so follow-up questions have their context. */
function historyMessages(context: vscode.ChatContext): ModelMessage[] {
  return context.history.flatMap((turn): ModelMessage[] => {
    if (turn instanceof vscode.ChatRequestTurn) return [{ role: 'user', parts: [{ kind: 'text', text: turn.prompt }] }];
    const text = turn.response
      .flatMap((part) => (part instanceof vscode.ChatResponseMarkdownPart ? [part.value.value] : []))
      .join('');
    return text ? [{ role: 'assistant', parts: [{ kind: 'text', text }] }] : [];
  });
}

function quote(text: string): string {
  const short = text.length > 400 ? `${text.slice(0, 400)}…` : text;
  return short.replace(/\n/g, '\n> ');
}
