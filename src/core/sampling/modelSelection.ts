import type { ModelPreferences } from '@modelcontextprotocol/client';

/** What the host knows of a chat model the editor offers (from `vscode.lm`). */
export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  readonly maxInputTokens: number;
}

export interface ModelChoice {
  readonly model: ModelInfo;
  /** Why this model, as a sentence for the approval panel. */
  readonly reason: string;
}

type Tier = 'small' | 'medium' | 'large';

// Names say a lot about a model's class across vendors: "mini", "flash", "haiku" are the fast
// and cheap ones; "opus", "ultra", "pro" the capable and expensive ones.
// (Whole parts only: "gemini" is not a "mini".)
const SMALL = /(?<![a-z])(mini|nano|flash|haiku|lite|small|fast|instant)/i;
const LARGE = /opus|ultra|large|(^|[^a-z])pro([^a-z]|$)|sonnet|gpt-?5(?!.*mini)|o[134](?![a-z])/i;
const TIER_SCORES: Record<Tier, { intelligence: number; speed: number; cost: number }> = {
  small: { intelligence: 0.3, speed: 1, cost: 1 },
  medium: { intelligence: 0.6, speed: 0.6, cost: 0.6 },
  large: { intelligence: 1, speed: 0.3, cost: 0.3 },
};

const tiers = new WeakMap<ModelInfo, Tier>();

export function tierOf(model: ModelInfo): Tier {
  let tier = tiers.get(model);
  if (!tier) {
    const text = `${model.id} ${model.family} ${model.name}`;
    tier = SMALL.test(text) ? 'small' : LARGE.test(text) ? 'large' : 'medium';
    tiers.set(model, tier);
  }
  return tier;
}

/**
 * Picks the model for a sampling request from the allowed ones:
 * 1. the first hint (in the server's order) that is a substring of a model's id, family or name;
 * 2. otherwise the best score for the server's priorities, where a model's class (from its name:
 *    small / medium / large) gives intelligence 0.3 / 0.6 / 1, speed and cost 1 / 0.6 / 0.3, and a
 *    larger context window adds up to 0.1 to intelligence;
 * 3. otherwise (no preferences, or a tie) the model the user picked, or the first one.
 * Undefined when no model is allowed.
 */
export function selectModel(
  models: readonly ModelInfo[],
  preferences: ModelPreferences | undefined,
  preferredId?: string,
): ModelChoice | undefined {
  if (models.length === 0) return undefined;
  const preferred = models.find((m) => m.id === preferredId) ?? models[0];
  for (const hint of preferences?.hints ?? []) {
    const name = hint.name?.toLowerCase();
    if (!name) continue;
    const matches = models.filter((m) => [m.id, m.family, m.name].some((field) => field.toLowerCase().includes(name)));
    if (matches.length) {
      const model = matches.includes(preferred)
        ? preferred
        : (bestByPriorities(matches, preferences, preferred) ?? matches[0]);
      return { model, reason: `Matches the server's hint "${hint.name}".` };
    }
  }
  const best = bestByPriorities(models, preferences, preferred);
  if (best) return { model: best, reason: `Fits the server's priorities best (${describePriorities(preferences!)}).` };
  return {
    model: preferred,
    reason:
      preferredId && preferred.id === preferredId
        ? 'The model you chose last time for this server.'
        : 'The first model the editor offers.',
  };
}

function bestByPriorities(
  models: readonly ModelInfo[],
  preferences: ModelPreferences | undefined,
  preferred: ModelInfo,
): ModelInfo | undefined {
  const cost = preferences?.costPriority ?? 0;
  const speed = preferences?.speedPriority ?? 0;
  const intelligence = preferences?.intelligencePriority ?? 0;
  if (cost + speed + intelligence === 0) return undefined;
  const maxTokens = Math.max(...models.map((m) => m.maxInputTokens), 1);
  const score = (m: ModelInfo) => {
    const tier = TIER_SCORES[tierOf(m)];
    const context = 0.1 * (Math.log(Math.max(m.maxInputTokens, 1)) / Math.log(Math.max(maxTokens, 2)));
    return intelligence * (tier.intelligence + context) + speed * tier.speed + cost * tier.cost;
  };
  const scored = models.map((m) => ({ m, s: score(m) }));
  const top = Math.max(...scored.map((x) => x.s));
  const winners = scored.filter((x) => Math.abs(x.s - top) < 1e-9).map((x) => x.m);
  return winners.includes(preferred) ? preferred : winners[0];
}

function describePriorities(p: ModelPreferences): string {
  const parts = [
    ['cost', p.costPriority],
    ['speed', p.speedPriority],
    ['intelligence', p.intelligencePriority],
  ].filter(([, v]) => typeof v === 'number' && (v as number) > 0);
  return parts.map(([k, v]) => `${k} ${v}`).join(', ');
}

/** Whether a model is allowed by a server's `sampling.models` setting (ids or families; empty allows all). */
export function isModelAllowed(model: ModelInfo, allowed: readonly string[] | undefined): boolean {
  return !allowed?.length || allowed.some((a) => a === model.id || a === model.family);
}
