import type { ServerSettingsEntry } from '../../core/config/serverDefinition';
import type { ServerLog } from '../../core/connection/serverLog';
import { hostSetting } from './hostSettings';
import type { OtherHostFiles } from './otherHostFiles';
import { autoStartDefault, readServerSettings } from './serverSettingsReader';

/**
 * The servers the host is given: `mcpHost.servers`, and with `readLive` the servers of other
 * hosts' files that it does not have; each with the window's `autoStart` default.
 */
export class ServerSettingsSource {
  /** Literal secrets of other hosts' files read live, by `${input:}` id. */
  private readonly liveSecrets = new Map<string, string>();
  private liveNotes = '';

  constructor(
    private readonly otherHosts: OtherHostFiles,
    private readonly log: ServerLog,
  ) {}

  read(): ServerSettingsEntry[] {
    const configured = readServerSettings();
    const autoStart = autoStartDefault();
    const withDefaults = (entries: ServerSettingsEntry[]) =>
      entries.map((entry) => ({ ...entry, autoStartDefault: autoStart }));
    this.liveSecrets.clear();
    if (!hostSetting('readLive')) return withDefaults(configured);
    const live = this.otherHosts.liveServers(configured);
    for (const [id, value] of live.secrets) this.liveSecrets.set(id, value);
    const notes = live.notes.join('\n');
    if (notes !== this.liveNotes) for (const note of live.notes) this.log.info(`Other hosts' files: ${note}`);
    this.liveNotes = notes;
    return withDefaults([...configured, ...live.entries]);
  }

  /** A secret an entry read live holds literally, by its `${input:}` id. */
  liveSecret(id: string): string | undefined {
    return this.liveSecrets.get(id);
  }
}
