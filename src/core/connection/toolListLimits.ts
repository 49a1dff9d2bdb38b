import { DEFAULT_LIMITS } from '../config/serverDefinition';
import type { ServerLog } from './serverLog';

/**
 * JSON nesting levels in a tool's schema (about half as many schema levels). Deeper schemas are not
 * forms anyone fills, and crash recursive validators (the stack runs out).
 */
export const MAX_SCHEMA_DEPTH = 128;
/** Nodes (objects, arrays, values) in one tool's schemas. */
export const MAX_SCHEMA_NODES = 50_000;

/**
 * Drops, from a `tools/list` result before the client library parses it, the tools nothing could
 * use safely: schemas nested deeper than {@link MAX_SCHEMA_DEPTH} or larger than
 * {@link MAX_SCHEMA_NODES} nodes, and tools beyond `maxTools` (the `limits` setting). The rest of the list
 * stays; each dropped tool is named in the server's log with why. Walks iteratively: a schema
 * 10,000 levels deep must not take the host's stack with it.
 */
export function dropUnusableTools(
  message: unknown,
  log: ServerLog,
  maxTools = DEFAULT_LIMITS.maxTools,
  /** What was said already (for this server): a list fetched again says nothing new twice. */
  said = new Set<string>(),
): void {
  const tools = (message as { result?: { tools?: unknown } } | undefined)?.result?.tools;
  if (!Array.isArray(tools)) return;
  const warn = (text: string) => {
    if (said.has(text)) return;
    said.add(text);
    log.warn(text);
  };
  if (tools.length > maxTools) {
    warn(`The server listed ${tools.length} tools in one page; only the first ${maxTools} are used (limits.maxTools).`);
    tools.length = maxTools;
  }
  for (let i = tools.length - 1; i >= 0; i--) {
    const tool = tools[i] as { name?: unknown; inputSchema?: unknown; outputSchema?: unknown } | null;
    const problem = schemaProblem(tool?.inputSchema) ?? schemaProblem(tool?.outputSchema);
    if (!problem) continue;
    tools.splice(i, 1);
    warn(
      `Tool ${JSON.stringify(typeof tool?.name === 'string' ? tool.name.slice(0, 200) : String(tool?.name))} was left out: its schema ${problem}. The server's other tools are unaffected.`,
    );
  }
}

function schemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const stack: [unknown, number][] = [[schema, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_SCHEMA_NODES) return `has more than ${MAX_SCHEMA_NODES} parts`;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_SCHEMA_DEPTH) return `nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}
