import type { Memento } from 'vscode';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { EraPinStore } from '../core/connection/eraPins';
import type { ConsentRecord, ConsentStore } from '../core/host/ports';
import type { ApprovalStore, ApprovedToolShape } from '../core/tools/toolApprovals';
import type { SwitchedOff, SwitchStore } from '../core/tools/modelToolSwitches';
import type { StoredTask, TaskStore } from '../core/tasks/taskTracker';
import type { StoredRun, RunStore } from '../core/host/lastRuns';

const ERA_PINS = 'mcpHost.eraPins';
const CONSENT = 'mcpHost.startConsent';
const APPROVALS = 'mcpHost.toolApprovals';
const MODEL_SWITCHES = 'mcpHost.modelToolSwitches';
const TASKS = 'mcpHost.unfinishedTasks';
// The key of the first version, which kept tools only; what it stored still reads back.
const LAST_RUNS = 'mcpHost.lastToolLists';
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
  /** Sets these values in one write; each counts as the newest. */
  setAll(values: Iterable<readonly [string, T]>): Promise<void> {
    const all = { ...this.all() };
    for (const [id, value] of values) {
      delete all[id];
      all[id] = value;
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

/** Era pins in global state: the same definition in any window skips the probe. */
export class MementoEraPinStore extends MementoRecord<PriorDiscovery> implements EraPinStore {
  constructor(memento: Memento) {
    super(memento, ERA_PINS, MAX_PINS);
  }
}

/** After a write of last runs, the next waits this long, with the others that come meanwhile. */
export const LAST_RUNS_WRITE_DELAY_MS = 500;

/**
 * Each server's tools, prompts and instructions of its last run, in global state (the newest 100
 * servers). A run is written at once unless another was written less than
 * {@link LAST_RUNS_WRITE_DELAY_MS} before; then it waits, and the runs that come meanwhile are
 * written together: the editor copies a key's whole record on each write and sends every key of
 * the extension's state to the window, so 20 starts would copy and send the growing record 20
 * times. (A remote window keeps the state: what is written once it has gone is lost.)
 */
export class MementoRunStore implements RunStore {
  private readonly record: MementoRecord<StoredRun>;
  private readonly pending = new Map<string, StoredRun>();
  /** Set while writes wait: until the delay after the last write has passed. */
  private cooldown: ReturnType<typeof setTimeout> | undefined;

  constructor(memento: Memento) {
    this.record = new MementoRecord(memento, LAST_RUNS, MAX_LAST_RUNS);
  }
  get(id: string): StoredRun | undefined {
    return this.pending.get(id) ?? this.record.get(id);
  }
  set(id: string, value: StoredRun): void {
    this.pending.delete(id);
    this.pending.set(id, value);
    if (!this.cooldown) void this.flush();
  }
  /** Writes what waits, now; the next write waits for the delay. */
  flush(): Promise<void> {
    clearTimeout(this.cooldown);
    this.cooldown = undefined;
    if (this.pending.size === 0) return Promise.resolve();
    const values = [...this.pending];
    this.pending.clear();
    this.cooldown = setTimeout(() => void this.flush(), LAST_RUNS_WRITE_DELAY_MS);
    return this.record.setAll(values);
  }
}

/** Consent to run workspace servers, per workspace: the hash of what the user allowed, and what they saw. */
export class MementoConsentStore extends MementoRecord<ConsentRecord | string> implements ConsentStore {
  constructor(memento: Memento) {
    super(memento, CONSENT);
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
export const mementoSwitchStore = (memento: Memento): SwitchStore => new MementoValue<SwitchedOff>(memento, MODEL_SWITCHES);

/** Unfinished tasks per workspace, picked up again by the next window. */
export const mementoTaskStore = (memento: Memento): TaskStore => new MementoValue<readonly StoredTask[]>(memento, TASKS);
