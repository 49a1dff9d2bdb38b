import { createHash } from 'node:crypto';

const SPEC_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why a tool name breaks the spec's naming rules, or undefined when it follows them. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > 128) return `is ${name.length} characters long (at most 128)`;
  if (!SPEC_NAME.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))]
      .map((c) => JSON.stringify(c))
      .join(', ');
    return `contains ${bad} (only letters, digits, "_", "-" and "." are expected)`;
  }
  return undefined;
}

/** Language-model tool names: the strictest common rule among chat model APIs. */
const MODEL_NAME_MAX = 64;

export interface QualifiedTool {
  readonly serverId: string;
  readonly toolName: string;
}

/**
 * Gives each tool of each server a name a chat model accepts (`^[A-Za-z0-9_-]{1,64}$`), prefixed
 * with the server id so two servers' `search` tools never collide. Names that collide after
 * sanitising or shortening get a short hash of the original pair.
 */
export function modelToolNames<T extends QualifiedTool>(tools: readonly T[]): Map<string, T> {
  const byName = new Map<string, T>();
  const candidates = tools.map((tool) => ({ tool, name: sanitise(`${tool.serverId}_${tool.toolName}`) }));
  const counts = new Map<string, number>();
  for (const { name } of candidates) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const { tool, name } of candidates) {
    let unique = name;
    if ((counts.get(name) ?? 0) > 1 || name.length > MODEL_NAME_MAX || byName.has(name)) {
      const hash = createHash('sha256').update(`${tool.serverId}\u0000${tool.toolName}`).digest('hex').slice(0, 6);
      unique = `${name.slice(0, MODEL_NAME_MAX - 7)}_${hash}`;
    }
    byName.set(unique, tool);
  }
  return byName;
}

/** Chat slash-command names for prompts: `server.prompt`, lower-case, safe characters only. */
export function promptCommandName(serverId: string, promptName: string): string {
  const part = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'prompt';
  return `${part(serverId)}.${part(promptName)}`;
}

function sanitise(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_');
}
