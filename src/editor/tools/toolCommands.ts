import { offeredToModel } from '../../core/apps/appToolMeta';
import * as vscode from 'vscode';
import { withCancellableProgress } from '../ui/cancellation';
import { hasNoParameters } from '../../core/forms/schemaForm';
import { canonicalJson } from '../../core/config/definitionHash';
import { listsKnown, startsForUse } from '../../core/connection/serverSnapshot';
import type { ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import type { ToolInvocation, ToolInvoker } from '../../core/tools/toolInvoker';
import {
  pickServerItem,
  refOf,
  startWhenNeeded,
  type ServerItemRef,
  type ServerItemTarget,
} from '../servers/serverItemPicker';
import { askToolArguments } from './toolFormPanel';
import { annotationBadges, toolLabel } from './toolLabels';
import { showToolResult, type ResourceOpener } from './toolResultPanel';

export interface ToolCommandDeps {
  readonly host: ServerDirectory & Pick<ServerLifecycle, 'startOnDemand'>;
  readonly invoker: ToolInvoker;
  readonly extensionUri: vscode.Uri;
  readonly openResource: ResourceOpener;
}

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.runTool', async (target: ServerItemTarget) => {
      try {
        return await runTool(deps, target);
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return undefined;
      }
    }),
  ];
}

async function runTool(deps: ToolCommandDeps, target: ServerItemTarget): Promise<ToolInvocation | undefined> {
  const chosen = refOf(target) ?? (await pickTool(deps.host));
  if (!chosen) return undefined;
  // A server that starts when needed starts now. Its form opens at once from its last run's tool
  // while it starts; one never seen runs first, so its form follows its tool.
  const server = deps.host.server(chosen.serverId);
  const fromLastRun = !!server && startsForUse(server) && listsKnown(server);
  // One that needs the user's consent first asks once the form is filled, not over it.
  const asksConsent = server?.held === 'consentWhenNeeded';
  let started: Promise<void> | undefined;
  const start = () => (started ??= startWhenNeeded(deps.host, { ids: [chosen.serverId] }));
  if (!fromLastRun) await start();
  // Read before it starts: a starting server's lists are its own, empty until it answers.
  let tool = deps.invoker.findTool(chosen.serverId, chosen.name);
  if (fromLastRun && !asksConsent) start().catch(() => undefined);
  const withForm = !hasNoParameters(tool.inputSchema);
  let again: { values: Record<string, unknown>; notice: string } | undefined;
  let args: Record<string, unknown> | undefined;
  let authorized: Awaited<ReturnType<ToolInvoker['authorize']>>;
  for (;;) {
    args = withForm ? await askToolArguments(deps.extensionUri, chosen.serverId, tool, again) : {};
    if (!args) return undefined;
    if (fromLastRun) {
      // The call waits for the start; a tool that changed since its last run asks again with its new form.
      await start();
      const current = deps.invoker.findTool(chosen.serverId, chosen.name);
      if (withForm && canonicalJson(current.inputSchema) !== canonicalJson(tool.inputSchema)) {
        tool = current;
        again = {
          values: args,
          notice: vscode.l10n.t("The tool's parameters changed since the server's last run: check them, then Run."),
        };
        continue;
      }
      tool = current;
    }
    // Confirm first: the progress notification belongs to the call, not to the question.
    authorized = await deps.invoker.authorize(chosen.serverId, tool.name, args, { origin: 'user' });
    // Deny often means "not with these arguments": the form comes back with them to fix.
    if (!withForm || !('outcome' in authorized) || authorized.outcome !== 'denied') break;
    again = {
      values: args,
      notice: vscode.l10n.t('Not run: you denied the call. Change the arguments and Run again, or Cancel.'),
    };
  }
  const invocation =
    'outcome' in authorized
      ? authorized
      : await withCancellableProgress(
          vscode.l10n.t('Running {0} on {1}', toolLabel(tool), chosen.serverId),
          (signal, progress) => {
            let reported = 0;
            return deps.invoker.call(chosen.serverId, authorized, args!, {
              origin: 'user',
              signal,
              onProgress: (p) => {
                // Progress totals are optional; without one, show the message or the raw count.
                const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
                progress.report({
                  message: p.message ?? (p.total ? `${p.progress} / ${p.total}` : String(p.progress)),
                  increment: percent !== undefined ? Math.max(0, percent - reported) : undefined,
                });
                if (percent !== undefined) reported = percent;
              },
            });
          },
        );
  if (invocation.outcome === 'denied') {
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" was not run.', toolLabel(tool)));
  } else {
    showToolResult(deps.extensionUri, invocation, deps.openResource);
  }
  return invocation;
}

function pickTool(host: ServerDirectory & Pick<ServerLifecycle, 'startOnDemand'>): Promise<ServerItemRef | undefined> {
  return pickServerItem(
    host,
    'tools',
    // The name is what READMEs and models use ("run get-sum"): it must find the tool even when a title is shown.
    (server, tool) => ({
      label: toolLabel(tool),
      description: [
        ...(toolLabel(tool) !== tool.name ? [tool.name] : []),
        server.id,
        ...annotationBadges(tool).map((b) => `[${b}]`),
      ].join('  '),
      detail: tool.description,
    }),
    {
      none: vscode.l10n.t('No MCP server is running. Start one in the MCP Servers view.'),
      noneOffers: (running) => vscode.l10n.t('None of the {0} running MCP servers offers tools.', running),
      title: vscode.l10n.t('MCP Host: Run Tool'),
      placeHolder: vscode.l10n.t('Pick a tool'),
    },
    // A tool whose visibility leaves out the model belongs to its app: the app calls it, not you.
    offeredToModel,
  );
}
