import type * as vscode from 'vscode';
import type { ServerCalls, ServerDirectory, ServerLifecycle, ServerPolicies } from '../../core/host/hostPorts';
import { ModelToolSwitches } from '../../core/tools/modelToolSwitches';
import { MemoryApprovalStore, ToolApprovals } from '../../core/tools/toolApprovals';
import { ToolInvoker } from '../../core/tools/toolInvoker';
import { MementoApprovalStore, mementoSwitchStore } from '../mementoStores';
import { ToolConfirmationDialog } from './toolConfirmationDialog';

/** Every tool call from the editor goes through the invoker; the switches say which tools models are offered. */
export interface EditorToolCalls {
  readonly invoker: ToolInvoker;
  readonly switches: ModelToolSwitches;
  readonly disposables: vscode.Disposable[];
}

/**
 * Tool calls in the editor: approvals kept for the session, the workspace or always; the
 * confirmation dialog; the model tool switches, which follow a tool the server renamed.
 */
export function createEditorToolCalls(
  context: Pick<vscode.ExtensionContext, 'workspaceState' | 'globalState'>,
  host: ServerDirectory & ServerCalls & Pick<ServerLifecycle, 'startOnDemand'> & Pick<ServerPolicies, 'toolPolicy'>,
): EditorToolCalls {
  const switches = new ModelToolSwitches(mementoSwitchStore(context.workspaceState));
  const approvals = new ToolApprovals(
    {
      session: new MemoryApprovalStore(),
      workspace: new MementoApprovalStore(context.workspaceState),
      always: new MementoApprovalStore(context.globalState),
    },
    (id) => host.toolPolicy(id),
  );
  const invoker = new ToolInvoker(host, approvals, new ToolConfirmationDialog(), (server, tool) =>
    switches.isOffered(server, tool),
  );
  const renames = host.onDidChangeServers((id) => {
    for (const server of host.changedServers(id)) void switches.followRenames(server.id, server.renamedTools);
  });
  return { invoker, switches, disposables: [renames] };
}
