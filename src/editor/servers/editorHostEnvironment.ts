import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { HostEnvironment } from '../../core/host/ports';
import type { RegistryOrigins } from '../../core/registry/registryOrigins';
import { readMcpPolicy } from '../config/mcpPolicySettings';
import type { SecretInputs } from '../config/secretInputs';
import { workspaceFolderRefs } from '../config/serverSettingsReader';
import type { ServerSettingsSource } from '../config/serverSettingsSource';
import { MementoConsentStore } from '../mementoStores';
import { EditorServerDialogs } from './serverDialogs';
import type { ServerLogChannels } from './serverLogs';

/**
 * The host's ports in the editor: modal dialogs, consent kept per workspace, workspace trust, the
 * editor's MCP policies, variables (folders, home, `${input:}` secrets), the output channels.
 */
export function editorHostEnvironment(parts: {
  readonly workspaceState: vscode.Memento;
  readonly secrets: SecretInputs;
  readonly settings: ServerSettingsSource;
  readonly origins: RegistryOrigins;
  readonly logs: ServerLogChannels;
}): HostEnvironment {
  const { secrets, settings, origins, logs } = parts;
  return {
    dialogs: new EditorServerDialogs(),
    consent: new MementoConsentStore(parts.workspaceState),
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
      input: (id, serverId) => {
        const live = settings.liveSecret(id);
        return live !== undefined ? Promise.resolve(live) : secrets.get(id, serverId);
      },
      readFile: (file) => fs.readFile(file, 'utf8'),
    }),
    logFor: (id) => logs.logFor(id),
    hostLog: logs.hostLog,
  };
}
