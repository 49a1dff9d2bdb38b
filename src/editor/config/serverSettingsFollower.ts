import * as vscode from 'vscode';
import type { HostSettings, ServerDirectory } from '../../core/host/hostPorts';
import { ListLearning, type LearningHost } from '../../core/host/listLearning';
import { processIdleClock, WINDOW_IDLE } from '../../core/host/windowIdle';
import { affectsHostSettings, hostSetting } from './hostSettings';
import { affectsMcpPolicy } from './mcpPolicySettings';
import type { OtherHostFiles } from './otherHostFiles';
import { workspaceFolderRefs } from './serverSettingsReader';
import type { ServerSettingsSource } from './serverSettingsSource';

/**
 * Keeps the host on the settings: applies them at once and at every change that concerns them (the
 * servers, other hosts' files read live, workspace folders, trust, the editor's MCP policies); the
 * servers that start when needed and have not run yet learn their lists once the window is idle.
 */
export class ServerSettingsFollower implements vscode.Disposable {
  private readonly learning: ListLearning;
  private readonly listeners: vscode.Disposable[];

  constructor(
    private readonly host: HostSettings & Pick<ServerDirectory, 'onDidChangeServers'> & LearningHost,
    private readonly settings: ServerSettingsSource,
    otherHosts: Pick<OtherHostFiles, 'onDidChange'>,
  ) {
    this.learning = new ListLearning(host, processIdleClock, WINDOW_IDLE, () => hostSetting('learnInBackground'));
    const reload = () => void this.apply();
    this.listeners = [
      otherHosts.onDidChange(() => hostSetting('readLive') && reload()),
      // The servers' settings, and the editor's MCP policies: servers now ruled out stop at once, saying why.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsHostSettings(e, 'servers', 'readLive', 'autoStart', 'learnInBackground') || affectsMcpPolicy(e))
          reload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(async () => {
        await host.setWorkspaceFolders(workspaceFolderRefs());
        await this.apply(); // folder-scoped servers come and go with their folders
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
    ];
  }

  /** The first application: the folders, then the settings (not waited for: a consent dialog must not hold up activation). */
  async start(): Promise<void> {
    await this.host.setWorkspaceFolders(workspaceFolderRefs());
    void this.apply();
  }

  /** The Refresh action: settings read again, the running servers' lists fetched again. */
  refresh(): Promise<unknown> {
    return this.host.refresh(this.settings.read());
  }

  private async apply(): Promise<void> {
    const applying = this.host.applySettings(this.settings.read());
    // A consent dialog holds the application open until answered: the servers it does not concern learn meanwhile.
    const known = this.host.onDidChangeServers((id) => id === undefined && this.learning.schedule());
    await applying.finally(() => known.dispose());
    this.learning.schedule();
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.learning.dispose();
  }
}
