import * as vscode from 'vscode';
import { serverMatchers, type McpPolicy, type PolicySource } from '../../core/config/mcpPolicy';

/** The editor's MCP policy settings MCP Host follows (VS Code 1.130 and later). */
export const MCP_POLICY_SETTINGS = [
  'chat.mcp.access',
  'chat.mcp.allowedServers',
  'chat.mcp.deniedServers',
  'chat.mcp.gallery.serviceUrl',
] as const;

/**
 * The editor's MCP policies as they stand: the effective values (an organisation's policy wins
 * over settings, as the editor applies it). An extension cannot read the policy layer itself: a
 * value no settings scope holds, yet different from the default, came from a policy.
 */
export function readMcpPolicy(): McpPolicy {
  const chat = vscode.workspace.getConfiguration('chat.mcp');
  const sourceOf = (key: string): PolicySource => {
    const seen = chat.inspect(key);
    const set = seen?.globalValue ?? seen?.workspaceValue ?? seen?.workspaceFolderValue;
    return set === undefined && JSON.stringify(chat.get(key)) !== JSON.stringify(seen?.defaultValue)
      ? 'policy'
      : 'settings';
  };
  const access = chat.get<unknown>('access');
  const gallery = chat.get<unknown>('gallery.serviceUrl');
  return {
    // Before 1.102 the setting was a boolean.
    access: access === 'none' || access === false ? 'none' : access === 'registry' ? 'registry' : 'all',
    allowed: serverMatchers(chat.get('allowedServers')),
    denied: serverMatchers(chat.get('deniedServers')),
    ...(typeof gallery === 'string' && gallery.trim() !== '' ? { registry: gallery.trim() } : {}),
    sources: { access: sourceOf('access'), allowed: sourceOf('allowedServers'), denied: sourceOf('deniedServers') },
  };
}

/** Whether a configuration change touches the editor's MCP policies. */
export function affectsMcpPolicy(event: vscode.ConfigurationChangeEvent): boolean {
  return MCP_POLICY_SETTINGS.some((key) => event.affectsConfiguration(key));
}
