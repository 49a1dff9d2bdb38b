import type { Memento } from 'vscode';
import type { RegistryOrigin, RegistryOriginStore } from '../core/registry/registryOrigins';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { EraPinStore } from '../core/connection/eraPins';
import type { ConsentRecord, ConsentStore } from '../core/host/ports';
import type { ApprovalStore, ApprovedToolShape } from '../core/tools/toolApprovals';
import type { SwitchedOff, SwitchStore } from '../core/tools/modelToolSwitches';
import type { StoredTask, TaskStore } from '../core/tasks/taskTracker';
import type { StoredRun, RunStore } from '../core/host/lastRuns';

const ERA_PINS = 'mcpHost.eraPins';
const CONSENT = 'mcpHost.startConsent';
const DECLINED_CONSENT = 'mcpHost.declinedConsent';
/** Declines kept per workspace; the oldest go first. */
const MAX_DECLINES = 1000;
const APPROVALS = 'mcpHost.toolApprovals';
const MODEL_SWITCHES = 'mcpHost.modelToolSwitches';
const TASKS = 'mcpHost.unfinishedTasks';
// The key of the first version, which kept tools only; what it stored still reads back.
const LAST_RUNS = 'mcpHost.lastToolLists';
const REGISTRY_ORIGINS = 'mcpHost.registryOrigins';
const MAX_REGISTRY_ORIGINS = 1000;
const MAX_PINS = 200;
const MAX_LAST_RUNS = 100;

/** A record of values under one memento key, kept at most `limit` entries (oldest dropped). */
class MementoRecord<T> {
  constructor(
    private readonly memento: Memento,
    private readonly key: string,
    private readonly limit = Infinity,
  ) {}
  get(id: string): T | undefined {
    return this.all()[id];
  }
  set(id: string, value: T): Promise<void> {
    return this.setAll([[id, value]]);
  }
  /** Sets these values (`undefined`: deletes the entry) in one write; each value counts as the newest. */
  setAll(values: Iterable<readonly [string, T | undefined]>): Promise<void> {
    const all = { ...this.all() };
    for (const [id, value] of values) {
      delete all[id];
      if (value !== undefined) all[id] = value;
    }
    const ids = Object.keys(all);
    for (const stale of ids.slice(0, Math.max(0, ids.length - this.limit))) delete all[stale];
    return Promise.resolve(this.memento.update(this.key, all));
  }
  delete(id: string): Promise<void> {
    const all = { ...this.all() };
    delete all[id];
    return Promise.resolve(this.memento.update(this.key, all));
  }
  private all(): Record<string, T> {
    return this.memento.get<Record<string, T>>(this.key, {});
  }
}

/** After a write of global state that waits (see {@link StateWrites}), the next waits this long, with the others that come meanwhile. */
export const STATE_WRITE_DELAY_MS = 500;

/**
 * When a record's change is written: `now` unless a write went less than
 * {@link STATE_WRITE_DELAY_MS} before, or `withNext`: with the next write, and at the latest that
 * long after it came.
 */
export type WriteUrgency = 'now' | 'withNext';

/**
 * Writes to the extension's global state that starts make (era pins, last runs), made together:
 * the editor copies a key's whole record on each write and sends every key of the extension's
 * state to the window (which sends it back), so 20 starts would copy and send the growing state
 * 20 times or more. What comes within {@link STATE_WRITE_DELAY_MS} of a write waits, and the
 * writes that wait go together, in one tick (the editor sends the updates of one tick as one).
 * A start's era pin waits for its last run, which comes a moment later: a single start is one
 * write, and goes at once. What waits is written when the window goes (`flush`); a remote window
 * keeps the state, and what is written after it has gone (a reload's) is lost: a pin is found
 * again by the next start's probe, a last run by the next run.
 */
export class StateWrites {
  private readonly waiting = new Set<() => Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last write went (performance.now()). */
  private lastWrite = -Infinity;

  /** A record has values to write. */
  schedule(write: () => Promise<void>, urgency: WriteUrgency): void {
    this.waiting.add(write);
    const writableAt = this.lastWrite + STATE_WRITE_DELAY_MS;
    if (urgency === 'now' && performance.now() >= writableAt) {
      void this.flush();
      return;
    }
    this.timer ??= setTimeout(
      () => void this.flush(),
      urgency === 'now' ? writableAt - performance.now() : STATE_WRITE_DELAY_MS,
    );
  }

  /** Writes what waits, now. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.size === 0) return Promise.resolve();
    const writes = [...this.waiting];
    this.waiting.clear();
    this.lastWrite = performance.now();
    return Promise.all(writes.map((write) => write())).then(() => undefined);
  }
}

/** A record of global state whose changes are written with the window's other state writes (see {@link StateWrites}). */
class WaitingRecord<T> {
  private readonly record: MementoRecord<T>;
  /** Values not yet written; `undefined` for an entry to delete. */
  private readonly pending = new Map<string, T | undefined>();

  constructor(
    memento: Memento,
    key: string,
    limit: number,
    private readonly writes: StateWrites,
    private readonly urgency: WriteUrgency,
  ) {
    this.record = new MementoRecord(memento, key, limit);
  }
  get(id: string): T | undefined {
    return this.pending.has(id) ? this.pending.get(id) : this.record.get(id);
  }
  set(id: string, value: T | undefined): void {
    // Deleted first, so that a value set again counts as the newest.
    this.pending.delete(id);
    this.pending.set(id, value);
    this.writes.schedule(this.write, this.urgency);
  }
  private readonly write = (): Promise<void> => {
    if (this.pending.size === 0) return Promise.resolve();
    const values = [...this.pending];
    this.pending.clear();
    return this.record.setAll(values);
  };
}

/** Era pins in global state: the same definition in any window skips the probe. A pin is written with its start's last run. */
export class MementoEraPinStore extends WaitingRecord<PriorDiscovery> implements EraPinStore {
  constructor(memento: Memento, writes: StateWrites) {
    super(memento, ERA_PINS, MAX_PINS, writes, 'withNext');
  }
  delete(hash: string): void {
    this.set(hash, undefined);
  }
}

/** Each server's tools, prompts and instructions of its last run, in global state (the newest 100 servers). */
export class MementoRunStore extends WaitingRecord<StoredRun> implements RunStore {
  constructor(memento: Memento, writes: StateWrites) {
    super(memento, LAST_RUNS, MAX_LAST_RUNS, writes, 'now');
  }
}

/**
 * Consent to run workspace servers, per workspace: the hash of what the user allowed, and what they
 * saw; and the hash of a definition they declined, so that one answer holds until it changes.
 */
export class MementoConsentStore extends MementoRecord<ConsentRecord | string> implements ConsentStore {
  private readonly declines: MementoRecord<string>;
  constructor(memento: Memento) {
    super(memento, CONSENT);
    this.declines = new MementoRecord<string>(memento, DECLINED_CONSENT, MAX_DECLINES);
  }
  declined(serverKey: string): string | undefined {
    return this.declines.get(serverKey);
  }
  decline(serverKey: string, hash: string | undefined): Promise<void> {
    return hash === undefined ? this.declines.delete(serverKey) : this.declines.set(serverKey, hash);
  }
  allowed(serverKey: string): ConsentRecord | undefined {
    const record = this.get(serverKey);
    // Earlier versions kept the bare hash; the fields they showed were not recorded.
    return typeof record === 'string' ? { hash: record } : record;
  }
  allow(serverKey: string, record: ConsentRecord): Promise<void> {
    return this.set(serverKey, record);
  }
}

/** Tool approvals of one scope: workspace state ("this workspace") or global state ("always"). */
export class MementoApprovalStore extends MementoRecord<ApprovedToolShape> implements ApprovalStore {
  constructor(memento: Memento) {
    super(memento, APPROVALS);
  }
}

/** Which servers Add Server installed from a registry (global state), the newest 1,000. */
export class MementoRegistryOriginStore extends MementoRecord<RegistryOrigin> implements RegistryOriginStore {
  constructor(memento: Memento) {
    super(memento, REGISTRY_ORIGINS, MAX_REGISTRY_ORIGINS);
  }
}

/** One value under one memento key: what the model-tool switches and the unfinished tasks keep. */
class MementoValue<T> {
  constructor(
    private readonly memento: Memento,
    private readonly key: string,
  ) {}
  load(): T | undefined {
    return this.memento.get<T>(this.key);
  }
  save(value: T): Promise<void> {
    return Promise.resolve(this.memento.update(this.key, value));
  }
}

/** Which servers and tools are switched off for models, per workspace. */
export const mementoSwitchStore = (memento: Memento): SwitchStore =>
  new MementoValue<SwitchedOff>(memento, MODEL_SWITCHES);

/** Unfinished tasks per workspace, picked up again by the next window. */
export const mementoTaskStore = (memento: Memento): TaskStore =>
  new MementoValue<readonly StoredTask[]>(memento, TASKS);
