import type { Memento } from 'vscode';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { EraPinStore } from '../core/connection/eraPins';
import type { ConsentStore } from '../core/host/ports';
import type { ApprovalStore, ApprovedToolShape } from '../core/tools/toolApprovals';

const ERA_PINS = 'mcpHost.eraPins';
const CONSENT = 'mcpHost.startConsent';
const APPROVALS = 'mcpHost.toolApprovals';
const MAX_PINS = 200;

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
    const all = { ...this.all(), [id]: value };
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

/** Consent to run workspace servers, per workspace, keyed by the definition hash the user saw. */
export class MementoConsentStore implements ConsentStore {
  constructor(private readonly memento: Memento) {}
  allowedHash(serverKey: string): string | undefined {
    return this.memento.get<Record<string, string>>(CONSENT, {})[serverKey];
  }
  allow(serverKey: string, definitionHash: string): Promise<void> {
    return Promise.resolve(this.memento.update(CONSENT, { ...this.memento.get<Record<string, string>>(CONSENT, {}), [serverKey]: definitionHash }));
  }
}

/** Tool approvals of one scope: workspace state ("this workspace") or global state ("always"). */
export class MementoApprovalStore extends MementoRecord<ApprovedToolShape> implements ApprovalStore {
  constructor(memento: Memento) {
    super(memento, APPROVALS);
  }
}
