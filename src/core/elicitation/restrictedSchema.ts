/**
 * The spec's restricted schema for form elicitation: a flat object whose properties are strings
 * (lengths, pattern, formats email / uri / date / date-time), numbers and integers (bounds),
 * booleans, single-select enums (`enum`, `oneOf` of `const`/`title`, legacy `enumNames`) and
 * multi-select enums (`array` of `enum` or `anyOf` of `const`, `minItems`, `maxItems`).
 * Returns what breaks the subset, in words, or undefined when the schema fits.
 */
export function restrictedSchemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema) || schema.type !== 'object')
    return 'the requested schema must be an object schema ("type": "object")';
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return '"properties" must be an object';
  for (const [name, property] of Object.entries(properties)) {
    const problem = isObject(property) ? propertyProblem(property) : 'is not a schema';
    if (problem) return `property ${JSON.stringify(name)} ${problem}`;
  }
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string' && r in properties))
  ) {
    return '"required" must list property names';
  }
  return undefined;
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function propertyProblem(p: Record<string, unknown>): string | undefined {
  switch (p.type) {
    case 'string':
      if (p.format !== undefined && !FORMATS.has(String(p.format)))
        return `has format ${JSON.stringify(p.format)} (allowed: email, uri, date, date-time)`;
      if (p.enum !== undefined && !(Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')))
        return 'has an enum that is not a list of strings';
      if (p.oneOf !== undefined && !constOptions(p.oneOf))
        return 'has "oneOf" that is not a list of { "const": string }';
      return undefined;
    case 'number':
    case 'integer':
    case 'boolean':
      return undefined;
    case 'array': {
      const items = p.items;
      if (!isObject(items)) return 'is an array without "items"';
      if (Array.isArray(items.enum) && items.enum.every((v) => typeof v === 'string')) return undefined;
      if (constOptions(items.anyOf) || constOptions(items.oneOf)) return undefined;
      return 'is an array whose items are not an enum of strings (only multi-select enums are allowed)';
    }
    default:
      return `has type ${JSON.stringify(p.type)} (allowed: string, number, integer, boolean, or an array of enum values)`;
  }
}

function constOptions(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((o) => isObject(o) && typeof o.const === 'string');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
