import * as vscode from 'vscode';
import type { ServerSnapshot, ServerStatus } from '../../core/connection/serverSnapshot';
import type { SkillSummary } from '../../core/skills/serverSkills';
import { plural } from '../../shared/plural';
import type { BuiltInServer } from '../config/otherHostFiles';
import { plainMarkdown } from '../ui/plainMarkdown';
import { reasonOf, stateOf } from './serverReason';

// How the Servers view draws a server's row: its description, icon, tooltip; and a skill's row.

/** A server's row's key (and its tree item's id). */
export const serverKey = (id: string) => `server/${id}`;

const STATUS_ICONS: Record<ServerStatus, [string, string?]> = {
  running: ['pass-filled', 'testing.iconPassed'],
  starting: ['loading~spin'],
  restarting: ['sync~spin', 'editorWarning.foreground'],
  stopping: ['loading~spin'],
  stopped: ['circle-outline'],
  error: ['error', 'errorForeground'],
  invalid: ['warning', 'editorWarning.foreground'],
  untrusted: ['shield', 'editorWarning.foreground'],
  disabled: ['circle-slash', 'disabledForeground'],
  'needs-sign-in': ['account', 'editorWarning.foreground'],
};

export function describeServer(server: ServerSnapshot): string {
  if (server.configError) return vscode.l10n.t('{0} · settings error', server.status);
  // A failure says why right in the row, its cause first (the line of the server's output that says
  // why, which the side bar's default width then shows); the tooltip and the notification carry the rest.
  if ((server.status === 'error' || server.status === 'restarting') && (server.cause ?? server.reason))
    return `${server.status}: ${server.cause ?? server.reason}`;
  // The editor's MCP policies hold it back: the row names the setting.
  if (server.held === 'policy' && server.reason) return server.reason;
  if (server.status === 'needs-sign-in') return vscode.l10n.t('needs sign-in');
  // A workspace server's consent decides before anything else whether it runs, for the user and for
  // agents. Short enough for the side bar's default width beside a short name.
  if (server.held === 'declined') return vscode.l10n.t('not allowed · Start asks again');
  if (server.held === 'consent') return vscode.l10n.t('waiting for your consent');
  // A changed workspace server says in its row that its first use asks first.
  if (server.held === 'consentWhenNeeded') return vscode.l10n.t('starts when needed · asks first');
  // Its lists from its last run are under it (Tools, Prompts) and in the tooltip: the row keeps to
  // the state, which the side bar's default width shows whole.
  if (server.startsWhenNeeded) return vscode.l10n.t('starts when needed');
  // Started only to learn what it offers: it stops again by itself.
  if (server.learning && (server.status === 'starting' || server.status === 'running'))
    return vscode.l10n.t('learning its tools (stops until needed)');
  if (server.status !== 'running') return stateOf(server);
  // A running server's row is what it offers: its icon, its tooltip and the screen reader's label
  // say "running". The lists under the row: the tools always (the count people look for), prompts
  // and skills when there are some, so that the row fits the side bar's default width even for a
  // long name. Resources and templates are counted in the Resources view, under the server's name
  // there, and in the tooltip.
  const parts = [
    ...shareParts(server),
    ...(server.sandbox ? [vscode.l10n.t('sandboxed')] : []),
    plural(server.tools.length, 'tool'),
    ...(server.prompts.length ? [plural(server.prompts.length, 'prompt')] : []),
  ];
  if (server.skills?.length) parts.push(plural(server.skills.length, 'skill'));
  // An empty list that failed says so, instead of looking like a server with nothing to offer.
  const late = server.lateLists ?? [];
  const failed = Object.keys(server.listProblems ?? {}).filter((list) => !late.includes(list));
  if (failed.length > 0) parts.push(vscode.l10n.t('{0} failed', failed.join(', ')));
  if (late.length > 0) parts.push(vscode.l10n.t('{0} late, still awaited', late.join(', ')));
  return parts.join(' · ');
}

/** What a running server lists, each kind counted: resources a page at a time (`100+` while more pages wait), templates apart. */
function listCounts(server: ServerSnapshot): string[] {
  return [
    plural(server.tools.length, 'tool'),
    plural(server.prompts.length, 'prompt'),
    server.moreResources
      ? vscode.l10n.t('{0}+ resources', server.resources.length)
      : plural(server.resources.length, 'resource'),
    plural(server.resourceTemplates.length, 'template'),
    ...(server.skills?.length ? [plural(server.skills.length, 'skill')] : []),
  ];
}

/** How a running server's process is shared with other windows, in the row (the tooltip says why not). */
function shareParts(server: ServerSnapshot): string[] {
  const share = server.share;
  if (!share) return [];
  if (share.role === 'alone') return [vscode.l10n.t('not shared')];
  // A window that reaches another's process says only that (the tooltip names the process).
  if (share.role === 'guest') return [vscode.l10n.t('runs in another window')];
  const parts =
    share.otherWindows > 0 ? [vscode.l10n.t('shared with {0}', plural(share.otherWindows, 'other window'))] : [];
  if (share.note) parts.push(vscode.l10n.t('not shared with other folders'));
  return parts;
}

/** What the tooltip says of sharing: who runs the process, and why it is not shared (with some windows). */
function shareFact(server: ServerSnapshot): string | undefined {
  const share = server.share;
  if (!share) return undefined;
  const who =
    share.role === 'guest'
      ? vscode.l10n.t('another window runs it{0}; this window connects to it', share.pid ? ` (pid ${share.pid})` : '')
      : share.role === 'owner'
        ? vscode.l10n.t('this window runs it for {0}', plural(share.otherWindows, 'other window'))
        : undefined;
  return [who, share.note].filter(Boolean).join('; ');
}

/** A skill's row: its name, what it is for (or why it was refused), its size; opening it shows its SKILL.md. */
export function skillRow(server: ServerSnapshot, skill: SkillSummary): vscode.TreeItem {
  const item = new vscode.TreeItem(skill.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${server.id}/skills/${skill.uri}`;
  const size = skill.size >= 1024 ? `${(skill.size / 1024).toFixed(1)} KB` : `${skill.size} B`;
  item.description = skill.refused
    ? vscode.l10n.t('refused: {0}', skill.refused)
    : [skill.description, size].filter(Boolean).join(' · ');
  item.iconPath = skill.refused
    ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
    : new vscode.ThemeIcon('book');
  item.contextValue = skill.refused ? 'mcpSkill:refused' : 'mcpSkill';
  item.command = {
    command: 'mcpHost.openSkill',
    title: vscode.l10n.t('Open Skill'),
    arguments: [server.id, skill.uri],
  };
  item.accessibilityInformation = { label: `${skill.name}, ${item.description}` };
  return item;
}

export function serverItem(server: ServerSnapshot, alsoBuiltIn: BuiltInServer | undefined): vscode.TreeItem {
  const hasChildren = server.tools.length + server.prompts.length + (server.skills?.length ?? 0) > 0;
  const item = new vscode.TreeItem(
    server.id,
    hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = serverKey(server.id);
  const running = server.status === 'running' && !server.configError && !server.learning;
  const described = describeServer(server).split(' · ');
  // Where a live server comes from goes first (after a state the row names), where a narrow view still shows it.
  if (server.origin) described.splice(running ? 0 : 1, 0, vscode.l10n.t('from {0}', server.origin.host));
  item.description = described.join(' · ');
  const [icon, color] = server.configError
    ? STATUS_ICONS.invalid
    : server.waitingForTurn
      ? ['watch']
      : STATUS_ICONS[server.status];
  item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
  item.contextValue = `mcpServer:${server.status}:${server.transport}`;
  if (alsoBuiltIn) item.description = `${item.description} · ${vscode.l10n.t("also in VS Code's MCP")}`;
  item.accessibilityInformation = {
    label: `${server.id}, ${running ? `${server.status}, ` : ''}${item.description}${reasonOf(server) ? `, ${reasonOf(server)}` : ''}`,
  };
  return item;
}

/** The tooltip shows this much of a server's instructions (models get the whole text). */
const TOOLTIP_INSTRUCTIONS = 400;
const TOOLTIP_INSTRUCTION_LINES = 6;

/** What a server's tooltip says: its heading, a warning when VS Code runs it too, rows of facts and the server's instructions. */
interface TooltipFacts {
  readonly heading: [id: string, state: string];
  readonly alsoBuiltIn?: string;
  readonly rows: [label: string, value: string][];
  readonly instructions?: string;
}

export function tooltipFacts(server: ServerSnapshot, alsoBuiltIn: BuiltInServer | undefined): TooltipFacts {
  const rows: [string, string][] = [];
  const row = (label: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') rows.push([label, String(value)]);
  };
  row(vscode.l10n.t('Reason'), reasonOf(server));
  if (server.status !== 'running' && server.fromLastRun)
    row(
      vscode.l10n.t('Lists'),
      vscode.l10n.t(
        'from its last run ({0}); listed again when it starts',
        [plural(server.tools.length, 'tool'), plural(server.prompts.length, 'prompt')].join(', '),
      ),
    );
  if (server.status === 'running') row(vscode.l10n.t('Lists'), listCounts(server).join(', '));
  row(vscode.l10n.t('Settings error'), server.configError);
  for (const [list, problem] of Object.entries(server.listProblems ?? {})) row(list, problem);
  row(
    vscode.l10n.t('Server'),
    server.serverName ? `${server.serverName} ${server.serverVersion ?? ''}`.trim() : undefined,
  );
  // The revision alone: the era's name ("legacy") is what nearly every server speaks today, and tells a user nothing.
  row(vscode.l10n.t('Protocol'), server.protocolVersion);
  row(vscode.l10n.t('Transport'), server.transport);
  row(vscode.l10n.t('Runs'), server.target);
  row(vscode.l10n.t('Process id'), server.pid);
  row(vscode.l10n.t('Shared'), shareFact(server));
  row(vscode.l10n.t('Sandbox'), server.sandbox);
  row(
    vscode.l10n.t('Defined in'),
    server.origin
      ? vscode.l10n.t(
          '{0}: {1} (read live, treated as {2} settings)',
          server.origin.host,
          server.origin.file,
          server.scope,
        )
      : vscode.l10n.t('{0} settings', server.scope),
  );
  const instructions = server.instructions && shortened(server.instructions);
  return {
    heading: [server.id, stateOf(server)],
    alsoBuiltIn:
      alsoBuiltIn &&
      vscode.l10n.t(
        "Also configured in VS Code's built-in MCP support ({0}, server \"{1}\"): when both start it, it runs twice. Keep it in one place. VS Code's agents use VS Code's own; MCP Host does not publish it to them a second time.",
        alsoBuiltIn.file,
        alsoBuiltIn.id,
      ),
    rows,
    instructions: instructions || undefined,
  };
}

/** A server's instructions as the tooltip shows them: the first lines, and where the rest is. */
function shortened(text: string): string {
  const lines = text.split('\n');
  let shown = lines.slice(0, TOOLTIP_INSTRUCTION_LINES).join('\n');
  if (shown.length > TOOLTIP_INSTRUCTIONS) shown = shown.slice(0, TOOLTIP_INSTRUCTIONS);
  return shown.length === text.length
    ? text
    : `${shown}…\n${vscode.l10n.t('({0} characters in all; models get the whole text)', text.length)}`;
}

export function serverTooltip(facts: TooltipFacts): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${plainMarkdown(facts.heading[0])}** — ${plainMarkdown(facts.heading[1])}\n\n`);
  if (facts.alsoBuiltIn) md.appendMarkdown(`$(warning) ${plainMarkdown(facts.alsoBuiltIn)}\n\n`);
  for (const [label, value] of facts.rows) md.appendMarkdown(`${label}: ${plainMarkdown(value)}  \n`);
  if (facts.instructions) {
    md.appendMarkdown(`\n**${vscode.l10n.t('Instructions for models')}**\n\n`);
    md.appendCodeblock(facts.instructions, 'text');
  }
  return md;
}
