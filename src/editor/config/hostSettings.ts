import * as vscode from 'vscode';
import { HOST_SETTINGS, type HostSettingName, type HostSettingValues } from '../../core/config/hostSettingKeys';

/** A global `mcpHost.*` setting's value (for `scope`, a folder, when given), or its default. */
export function hostSetting<N extends HostSettingName>(
  name: N,
  scope?: vscode.ConfigurationScope,
): HostSettingValues[N] {
  const { key, default: fallback } = HOST_SETTINGS[name];
  return vscode.workspace.getConfiguration(undefined, scope).get<HostSettingValues[N]>(key, fallback);
}

/** Whether a configuration change touches any of these settings. */
export function affectsHostSettings(change: vscode.ConfigurationChangeEvent, ...names: HostSettingName[]): boolean {
  return names.some((name) => change.affectsConfiguration(HOST_SETTINGS[name].key));
}
