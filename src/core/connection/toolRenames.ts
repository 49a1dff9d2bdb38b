import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../config/definitionHash';

/**
 * The tools of a new list that replace a tool of the old one under a new name: a tool that is gone
 * and one that is new with the same description, or the same input schema when it has parameters.
 * A renamed tool is not a new tool to the user: what they switched off or approved under the old
 * name is what it is (OWASP MCP03, tool poisoning by rename). Returns new name → old name.
 */
export function findRenames(before: readonly Tool[], after: readonly Tool[]): Map<string, string> {
  const kept = new Set(after.map((t) => t.name));
  const had = new Set(before.map((t) => t.name));
  const gone = before.filter((t) => !kept.has(t.name));
  const renames = new Map<string, string>();
  if (gone.length === 0) return renames;
  const taken = new Set<string>();
  const match = (tool: Tool, same: (a: Tool, b: Tool) => boolean) =>
    gone.find((old) => !taken.has(old.name) && same(old, tool));
  const added = after.filter((t) => !had.has(t.name));
  // Descriptions first (the text a model reads), then schemas, each old tool paired at most once.
  for (const same of [sameDescription, sameParameters])
    for (const tool of added) {
      if (renames.has(tool.name)) continue;
      const old = match(tool, same);
      if (!old) continue;
      taken.add(old.name);
      renames.set(tool.name, old.name);
    }
  return renames;
}

function sameDescription(a: Tool, b: Tool): boolean {
  const text = a.description?.trim();
  return !!text && text === b.description?.trim();
}

function sameParameters(a: Tool, b: Tool): boolean {
  const properties = (a.inputSchema as { properties?: object } | undefined)?.properties;
  return (
    !!properties && Object.keys(properties).length > 0 && canonicalJson(a.inputSchema) === canonicalJson(b.inputSchema)
  );
}

/**
 * A server's renames over its lists: each current tool that came from another name, with the first
 * name it had (a chain of renames leads back to the tool the user knew). Only current tools are kept.
 */
export function carryRenames(
  known: ReadonlyMap<string, string>,
  before: readonly Tool[],
  after: readonly Tool[],
): Map<string, string> {
  const next = new Map<string, string>();
  const current = new Set(after.map((t) => t.name));
  for (const [name, first] of known) if (current.has(name)) next.set(name, first);
  for (const [name, old] of findRenames(before, after)) if (old !== name) next.set(name, known.get(old) ?? old);
  return next;
}
