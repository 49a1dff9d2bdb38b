import type { Memento } from 'vscode';
import type { PriorDiscovery } from '@modelcontextprotocol/client';
import type { EraPinStore } from '../core/connection/eraPins';
import type { ConsentStore } from '../core/host/ports';
import type { ApprovalStore, ApprovedToolShape } from '../core/tools/toolApprovals';

const ERA_PINS = 'mcpHost.eraPins';
const CONSENT = 'mcpHost.startConsent';
const APPROVALS = 'mcpHost.toolApprovals';
const MAX_PINS = 200;

/** Era pins in global state: the same definition in any window skips the probe. */
export class MementoEraPinStore implements EraPinStore {
  constructor(private readonly memento: Memento) {}
  get(hash: string): PriorDiscovery | undefined {
    return this.all()[hash];
  }
  set(hash: string, prior: PriorDiscovery): Promise<void> {
    const pins = { ...this.all(), [hash]: prior };
    const keys = Object.keys(pins);
    for (const stale of keys.slice(0, Math.max(0, keys.length - MAX_PINS))) delete pins[stale];
    return Promise.resolve(this.memento.update(ERA_PINS, pins));
  }
  delete(hash: string): Promise<void> {
    const pins = { ...this.all() };
    delete pins[hash];
    return Promise.resolve(this.memento.update(ERA_PINS, pins));
  }
  private all(): Record<string, PriorDiscovery> {
    return this.memento.get<Record<string, PriorDiscovery>>(ERA_PINS, {});
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
export class MementoApprovalStore implements ApprovalStore {
  constructor(private readonly memento: Memento) {}
  get(key: string): ApprovedToolShape | undefined {
    return this.all()[key];
  }
  set(key: string, shape: ApprovedToolShape): Promise<void> {
    return Promise.resolve(this.memento.update(APPROVALS, { ...this.all(), [key]: shape }));
  }
  delete(key: string): Promise<void> {
    const all = { ...this.all() };
    delete all[key];
    return Promise.resolve(this.memento.update(APPROVALS, all));
  }
  private all(): Record<string, ApprovedToolShape> {
    return this.memento.get<Record<string, ApprovedToolShape>>(APPROVALS, {});
  }
}
