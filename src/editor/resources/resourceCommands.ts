import type { ResourceTemplateType } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { ResourceBrowsing, ServerCalls, ServerDirectory, ServerLifecycle } from '../../core/host/hostPorts';
import { ResourceUriTemplate } from '../../core/resources/resourceTemplates';
import { parseResourceAddress, RESOURCE_SCHEME } from '../../core/resources/resourceUris';
import { mayOfferResources, type ServerSnapshot } from '../../core/connection/serverSnapshot';
import { askCompletedValue } from '../ui/completionInput';
import { startWhenNeeded } from '../servers/serverItemPicker';
import { resourceEditorUri } from './resourceFileSystem';
import type { ResourceNode } from './resourcesTreeProvider';

type UsedHost = ServerDirectory & ServerCalls & ResourceBrowsing & Pick<ServerLifecycle, 'startOnDemand'>;

type TemplateNode = Extract<ResourceNode, { kind: 'template' }>;
type ResourceItem = Extract<ResourceNode, { kind: 'resource' }>;

/** Opens a server's resource read-only in an editor. */
export async function openResource(serverId: string, uri: string, name?: string, mimeType?: string): Promise<void> {
  await vscode.commands.executeCommand('vscode.open', resourceEditorUri({ serverId, uri }, name, mimeType));
}

/** Load more, templates, Find Resource… and Add to Chat. */
export function registerResourceCommands(host: UsedHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.loadMoreResources', async (node?: { serverId: string }) => {
      if (!node) return;
      await vscode.window.withProgress({ location: { viewId: 'mcpHost.resources' } }, async () => {
        try {
          await host.loadMoreResources(node.serverId);
        } catch (error) {
          void vscode.window.showErrorMessage((error as Error).message);
        }
      });
    }),
    vscode.commands.registerCommand('mcpHost.openResourceTemplate', async (node?: TemplateNode) => {
      const chosen = node ?? (await pickTemplate(host));
      if (chosen) await openFromTemplate(host, chosen.serverId, chosen.template);
    }),
    vscode.commands.registerCommand('mcpHost.findResource', () => findResource(host)),
    vscode.commands.registerCommand('mcpHost.addResourceToChat', async (target?: ResourceItem | vscode.Uri) => {
      const uri =
        target instanceof vscode.Uri
          ? target
          : target
            ? resourceEditorUri(
                { serverId: target.serverId, uri: target.resource.uri },
                target.resource.name,
                target.resource.mimeType,
              )
            : activeResourceUri();
      if (!uri) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Choose a resource in the MCP Resources view, or open one, to add it to a chat.'),
        );
        return;
      }
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: '@mcp ',
        isPartialQuery: true,
        attachFiles: [uri],
      });
    }),
  ];
}

function activeResourceUri(): vscode.Uri | undefined {
  const uri =
    vscode.window.activeTextEditor?.document.uri ??
    (vscode.window.tabGroups.activeTabGroup.activeTab?.input as { uri?: vscode.Uri } | undefined)?.uri;
  return uri?.scheme === RESOURCE_SCHEME && parseResourceAddress(uri.path, uri.query) ? uri : undefined;
}

/**
 * Asks for each variable of the template (with the server's completions, earlier answers as
 * context), expands it (RFC 6570) and opens the result.
 */
async function openFromTemplate(host: UsedHost, serverId: string, template: ResourceTemplateType): Promise<void> {
  let parsed: ResourceUriTemplate;
  try {
    parsed = new ResourceUriTemplate(template.uriTemplate);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}": {1}', serverId, (error as Error).message));
    return;
  }
  const values: Record<string, string> = {};
  for (const [index, name] of parsed.variables.entries()) {
    const field = {
      title: vscode.l10n.t(
        '{0} ({1}): {2} ({3}/{4})',
        template.title ?? template.name,
        serverId,
        name,
        index + 1,
        parsed.variables.length,
      ),
      name,
      description: vscode.l10n.t('{0} in {1}', name, template.uriTemplate),
      required: true,
    };
    const value = await askCompletedValue(
      host,
      serverId,
      { type: 'ref/resource', uri: template.uriTemplate },
      field,
      values,
    );
    if (value === undefined) return;
    values[name] = value;
  }
  await openResource(serverId, parsed.expand(values), template.name, template.mimeType);
}

async function pickTemplate(host: UsedHost): Promise<TemplateNode | undefined> {
  const items = host
    .servers()
    .filter((s) => s.status === 'running')
    .flatMap((s) =>
      s.resourceTemplates.map((template) => ({
        label: template.title ?? template.name,
        description: template.uriTemplate,
        detail: s.id,
        node: { kind: 'template' as const, serverId: s.id, template },
      })),
    );
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No running MCP server offers resource templates.'));
    return undefined;
  }
  return (
    await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Open Resource from Template'),
      matchOnDescription: true,
      matchOnDetail: true,
    })
  )?.node;
}

type FindItem = vscode.QuickPickItem & { open: () => Promise<void> };

/**
 * MCP: Find Resource… — the resources and templates of every running server in one quick pick,
 * matched on name and URI. While the pick is open (it shows busy), servers that start when needed
 * start when they may have resources (their last run offered some, or they have not run yet), and
 * pages not loaded yet are fetched.
 */
async function findResource(host: UsedHost): Promise<void> {
  const pick = vscode.window.createQuickPick<FindItem>();
  pick.title = vscode.l10n.t('Find MCP Resource');
  pick.placeholder = vscode.l10n.t('Search resource names and URIs across MCP servers');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const loading = new AbortController();
  const refill = () => {
    pick.items = host
      .servers()
      .filter((s) => s.status === 'running')
      .flatMap((s): FindItem[] => [
        ...s.resources.map((resource) => ({
          label: `$(file) ${resource.title ?? resource.name}`,
          description: resource.uri,
          detail: s.id,
          open: () => openResource(s.id, resource.uri, resource.name, resource.mimeType),
        })),
        ...s.resourceTemplates.map((template) => ({
          label: `$(symbol-snippet) ${template.title ?? template.name}`,
          description: template.uriTemplate,
          detail: vscode.l10n.t('{0} · template', s.id),
          open: () => openFromTemplate(host, s.id, template),
        })),
      ]);
  };
  refill();
  // Servers that start when needed are started when theirs may be worth searching; then every page is loaded.
  const waiting = host
    .servers()
    .filter(mayOfferResources)
    .map((s) => s.id);
  const hasMore = (s: ServerSnapshot) => s.status === 'running' && s.moreResources;
  const loadAll = async () => {
    if (waiting.length) {
      await startWhenNeeded(host, { ids: waiting, signal: loading.signal });
      refill();
    }
    await Promise.allSettled(
      host
        .servers()
        .filter(hasMore)
        .map((s) => host.loadAllResources(s.id, loading.signal, refill)),
    );
  };
  if (waiting.length || host.servers().some(hasMore)) {
    pick.busy = true;
    void loadAll().finally(() => {
      if (!loading.signal.aborted) pick.busy = false;
    });
  }
  const chosen = await new Promise<FindItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  loading.abort();
  pick.dispose();
  await chosen?.open();
}
