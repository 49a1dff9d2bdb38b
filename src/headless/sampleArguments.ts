import type { Tool } from '@modelcontextprotocol/client';

/**
 * Arguments an unattended client can give a tool: each required property with a plain value of
 * its type (its default when it has one), the way a user would fill only the required fields.
 * An object property whose description asks for another tool's `inputSchema` "passed back
 * verbatim" gets that schema as this client holds it (what a schema echo asks for).
 */
export function sampleArguments(inputSchema: unknown, tools: readonly Tool[] = []): Record<string, unknown> {
  const schema = inputSchema as { properties?: Record<string, unknown>; required?: unknown } | undefined;
  const required = Array.isArray(schema?.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  const args: Record<string, unknown> = {};
  for (const name of required)
    args[name] = echoedSchema(schema?.properties?.[name], tools) ?? sampleValue(schema?.properties?.[name], tools);
  return args;
}

function echoedSchema(property: unknown, tools: readonly Tool[]): unknown {
  const description = (property as { description?: unknown } | undefined)?.description;
  if (typeof description !== 'string' || !/inputSchema/.test(description) || !/verbatim/.test(description))
    return undefined;
  return tools.find((tool) => description.includes(tool.name))?.inputSchema;
}

function sampleValue(schema: unknown, tools: readonly Tool[]): unknown {
  const s = (schema ?? {}) as {
    type?: unknown;
    default?: unknown;
    enum?: unknown[];
    properties?: unknown;
    required?: unknown;
  };
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(s, tools);
    case 'null':
      return null;
    default:
      return 'test';
  }
}
