import type { ServerSettingsEntry } from '../config/serverDefinition';
import { MissingInputError, ServerConfigError, validateServerEntry } from '../config/validateServerEntry';
import type { ServerLogMessage } from '../connection/logForwarding';
import { ServerConnection } from '../connection/serverConnection';
import { offersResources } from '../connection/serverSnapshot';
import type { StartSlots } from '../connection/startSlots';
import { adoptDefinition, DECLINED, heldBack, type HostEntry, type Placeholder } from './hostEntry';
import type { McpHostOptions } from './hostOptions';
import type { RootsPublisher } from './rootsPublisher';
import { connectionDeps, connectionInputs } from './serverConnectionSetup';
import type { StartConsent } from './startConsent';

export interface HostEntriesDeps {
  readonly options: McpHostOptions;
  readonly roots: RootsPublisher;
  readonly startSlots: StartSlots;
  readonly consent: StartConsent;
  /** A server changed (`undefined`: which servers there are may have changed). */
  readonly changed: (serverId: string | undefined) => void;
  readonly resourceUpdated: (update: { readonly serverId: string; readonly uri: string }) => void;
  readonly logMessage: (message: ServerLogMessage) => void;
  readonly debuggerListening: (listening: { readonly serverId: string; readonly address: string }) => void;
}

/**
 * The host's servers by id, from settings to connections: each valid definition that may run gets
 * one `ServerConnection` (kept while its definition stays the same); one that is held back (invalid,
 * disabled, untrusted, without consent) gets a placeholder saying why.
 */
export class HostEntries {
  private readonly byId = new Map<string, HostEntry>();

  constructor(private readonly deps: HostEntriesDeps) {}

  get(id: string): HostEntry | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<HostEntry> {
    return this.byId.values();
  }

  keys(): IterableIterator<string> {
    return this.byId.keys();
  }

  /** Applies `mcpHost.servers` (see McpHost.applySettings). */
  async apply(settings: readonly ServerSettingsEntry[]): Promise<readonly ServerConfigError[]> {
    const errors: ServerConfigError[] = [];
    const seen = new Set<string>();
    const wantConsent: HostEntry[] = [];
    const env = this.deps.options.env;
    for (const setting of settings) {
      seen.add(setting.id);
      const entry = this.byId.get(setting.id) ?? { id: setting.id, target: '', scope: setting.scope };
      this.byId.set(setting.id, entry);
      entry.scope = setting.scope;
      entry.origin = setting.origin;
      const validation = validateServerEntry(setting);
      if (!validation.ok) {
        errors.push(validation.error);
        env.hostLog.error(validation.error.message);
        if (entry.connection) entry.configError = `${validation.error.message} (still running the previous definition)`;
        else this.setPlaceholder(entry, { status: 'invalid', reason: validation.error.message });
        continue;
      }
      const def = validation.definition;
      await adoptDefinition(entry, def, env.variableContext());
      const held = heldBack(
        def,
        env.trust.isTrusted,
        {
          needed: () => this.deps.consent.needed(entry),
          declined: () => this.deps.consent.declined(entry),
        },
        env.policy?.current,
        env.registryOf?.(def.id, setting.raw),
      );
      if (held?.held === 'policy' && entry.placeholder?.reason !== held.reason)
        env.hostLog.warn(`MCP server "${def.id}" is ${held.reason}.`);
      if (held) {
        await this.withoutConnection(entry, held);
        if (held.askConsentNow) wantConsent.push(entry);
        continue;
      }
      await this.connect(entry, def.autoStart === 'startup');
    }
    for (const [id, entry] of this.byId) {
      if (seen.has(id)) continue;
      this.byId.delete(id);
      await this.dropConnection(entry);
    }
    this.deps.changed(undefined);
    if (wantConsent.length > 0) {
      const allowed = await this.deps.consent.obtain(wantConsent, false);
      for (const entry of wantConsent) {
        if (this.byId.get(entry.id) !== entry) continue;
        if (allowed.has(entry.id)) await this.connect(entry, entry.definition?.autoStart === 'startup');
        else this.setPlaceholder(entry, DECLINED);
      }
    }
    if (errors.length > 0) {
      env.dialogs.showConfigError(
        errors.length === 1
          ? errors[0].message
          : `${errors[0].message} (and ${errors.length - 1} more problem(s); see the MCP Host output)`,
      );
    }
    return errors;
  }

  /** Creates (or keeps) the connection for an entry's current definition, starting it if asked. */
  async connect(entry: HostEntry, autoStart: boolean): Promise<void> {
    const def = entry.definition!;
    const env = this.deps.options.env;
    let inputs;
    try {
      inputs = await connectionInputs(def, env.variableContext());
    } catch (error) {
      const message =
        error instanceof ServerConfigError ? error.message : `MCP server "${def.id}": ${(error as Error).message}`;
      env.hostLog.error(message);
      const held = error instanceof MissingInputError ? { held: 'input' as const } : {};
      // The row names the server: its few words are the setting and what is wrong with it.
      const cause =
        error instanceof ServerConfigError
          ? error.field
            ? `"${error.field}" ${error.problem}`
            : error.problem
          : (error as Error).message;
      return this.withoutConnection(entry, { status: 'error', reason: message, cause, ...held });
    }
    const { resolved, secrets, hash, lastRunKey } = inputs;
    if (entry.connection?.hash === hash) return;
    if (entry.connection) env.hostLog.info(`Definition of "${def.id}" changed; restarting it.`);
    await this.dropConnection(entry);
    let authorization;
    try {
      authorization = this.deps.options.authorization?.providerFor(resolved);
    } catch (error) {
      return this.withoutConnection(entry, {
        status: 'invalid',
        reason: `MCP server "${def.id}": ${(error as Error).message}`,
      });
    }
    const connection = new ServerConnection(
      resolved,
      hash,
      entry.target,
      connectionDeps(resolved, secrets, this.deps.options, {
        log: env.logFor(def.id),
        authorization,
        roots: () => this.deps.roots.rootsFor(resolved),
        startSlots: this.deps.startSlots,
        onResourceUpdated: (uri) => this.deps.resourceUpdated({ serverId: def.id, uri }),
        onLogMessage: (message) => this.deps.logMessage({ serverId: def.id, ...message }),
        onDebuggerListening: (address) => this.deps.debuggerListening({ serverId: def.id, address }),
      }),
    );
    entry.connection = connection;
    entry.lastRunKey = lastRunKey;
    entry.placeholder = undefined;
    entry.connectionListener = connection.onDidChange((snapshot) => {
      if (snapshot.status === 'running') {
        const { tools, prompts, instructions } = snapshot;
        this.deps.options.lastRuns?.remember(def.id, lastRunKey, {
          tools,
          prompts,
          instructions,
          ...(offersResources(snapshot) ? { resources: true } : {}),
        });
      }
      this.deps.changed(def.id);
    });
    // No one waits for a server starting with the window: it takes turns with the others (a start someone waits for does not).
    if (autoStart) void connection.start(false);
    // Told once it is starting: one that waits for it (a restored editor) must not see it stopped in between.
    this.deps.changed(def.id);
  }

  private async dropConnection(entry: HostEntry): Promise<void> {
    const connection = entry.connection;
    entry.connection = undefined;
    entry.connectionListener?.dispose();
    entry.connectionListener = undefined;
    if (connection) await connection.dispose();
  }

  /** Ends an entry's connection, if any, and shows why it has none. */
  private async withoutConnection(entry: HostEntry, placeholder: Placeholder): Promise<void> {
    await this.dropConnection(entry);
    this.setPlaceholder(entry, placeholder);
  }

  setPlaceholder(entry: HostEntry, placeholder: Placeholder): void {
    entry.placeholder = placeholder;
    this.deps.changed(entry.id);
  }

  /** Ends every connection and forgets every entry. */
  async dispose(): Promise<void> {
    const entries = [...this.byId.values()];
    this.byId.clear();
    await Promise.all(entries.map((entry) => this.dropConnection(entry)));
  }
}
