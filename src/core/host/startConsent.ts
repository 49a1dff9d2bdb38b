import { definitionHash } from '../config/definitionHash';
import type { ServerDefinition } from '../config/serverDefinition';
import type { VariableContext } from '../config/variableResolver';
import { changedFields, summarizeWhatRuns, type RunField } from '../config/whatRunsSummary';
import type { HostEnvironment, StartConsentRequest } from './ports';

/** A workspace server as consent sees it: what it runs, and the hash that consent is kept under. */
export interface ConsentSubject {
  readonly id: string;
  readonly definition?: ServerDefinition;
  readonly target: string;
  readonly runFields?: readonly RunField[];
  readonly consentHash?: string;
}

/** What decides what a definition runs (what consent covers), and its hash. */
export async function whatConsentCovers(
  def: ServerDefinition,
  ctx: VariableContext,
): Promise<{ runFields: RunField[]; consentHash: string }> {
  const runFields = await summarizeWhatRuns(def, ctx);
  const consentHash = definitionHash({
    id: def.id,
    scope: def.scope,
    folder: def.folder?.path,
    fields: runFields.map((f) => [f.field, f.fingerprint]),
  });
  return { runFields, consentHash };
}

/**
 * Consent to run servers from workspace settings: asked with everything that decides what runs,
 * and on a change with each changed field; remembered with what it covered.
 */
export class StartConsent {
  constructor(private readonly env: Pick<HostEnvironment, 'consent' | 'dialogs' | 'hostLog'>) {}

  needed(subject: ConsentSubject): boolean {
    const def = subject.definition!;
    return def.scope !== 'user' && this.env.consent.allowed(consentKey(def))?.hash !== subject.consentHash;
  }

  /** Whether the user declined to run this definition as it is now (one answer holds until it changes). */
  declined(subject: ConsentSubject): boolean {
    return this.needed(subject) && this.env.consent.declined(consentKey(subject.definition!)) === subject.consentHash;
  }

  /** Returns the ids allowed to run: those allowed before, and those the user allows now. */
  async obtain(subjects: readonly ConsentSubject[], explicit: boolean): Promise<ReadonlySet<string>> {
    const pending = subjects.filter((s) => this.needed(s));
    const allowed = new Set(subjects.filter((s) => !pending.includes(s)).map((s) => s.id));
    if (pending.length === 0) return allowed;
    const requests: StartConsentRequest[] = pending.map((s) => {
      const before = this.env.consent.allowed(consentKey(s.definition!));
      return {
        serverId: s.id,
        scope: s.definition!.scope,
        folderName: s.definition!.folder?.name,
        target: s.target,
        fields: s.runFields!,
        changed: before !== undefined,
        changes: before?.fields ? changedFields(before.fields, s.runFields!) : [],
      };
    });
    const granted = await this.env.dialogs.confirmWorkspaceServers(requests);
    for (const subject of pending) {
      const key = consentKey(subject.definition!);
      if (!granted.has(subject.id)) {
        await this.env.consent.decline(key, subject.consentHash);
        continue;
      }
      if (this.env.consent.declined(key) !== undefined) await this.env.consent.decline(key, undefined);
      await this.env.consent.allow(consentKey(subject.definition!), {
        hash: subject.consentHash!,
        fields: subject.runFields,
      });
      allowed.add(subject.id);
    }
    if (explicit && !allowed.size)
      this.env.hostLog.info(`Start of ${subjects.map((s) => `"${s.id}"`).join(', ')} not allowed.`);
    return allowed;
  }
}

function consentKey(def: ServerDefinition): string {
  return `${def.scope}:${def.folder?.path ?? ''}:${def.id}`;
}
