/**
 * Arguments an unattended client can give a tool: each required property with a plain value of
 * its type (its default when it has one), the way a user would fill only the required fields.
 */
export function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  const schema = inputSchema as { properties?: Record<string, unknown>; required?: unknown } | undefined;
  const required = Array.isArray(schema?.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const args: Record<string, unknown> = {};
  for (const name of required) args[name] = sampleValue(schema?.properties?.[name]);
  return args;
}

function sampleValue(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: unknown; default?: unknown; enum?: unknown[]; properties?: unknown; required?: unknown };
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
      return sampleArguments(s);
    case 'null':
      return null;
    default:
      return 'test';
  }
}
