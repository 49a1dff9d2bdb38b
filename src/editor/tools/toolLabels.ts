import type { Tool } from '@modelcontextprotocol/client';

/** What a tool is called in the UI: its title, else its name. */
export function toolLabel(tool: Tool): string {
  return tool.title ?? tool.annotations?.title ?? tool.name;
}

/** Annotation hints as short badges. They are the server's claims, shown but not relied on. */
export function annotationBadges(tool: Tool): string[] {
  const a = tool.annotations ?? {};
  const badges: string[] = [];
  if (a.readOnlyHint === true) badges.push('read-only');
  if (a.destructiveHint === true) badges.push('destructive');
  if (a.idempotentHint === true) badges.push('idempotent');
  if (a.openWorldHint === true) badges.push('open world');
  return badges;
}
