import type { ChoiceOption, FormField, JsonValue, ObjectField } from '../../shared/protocol/formModel';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

/**
 * Turns a tool's `inputSchema` into a form model. Every keyword the form can show becomes a field
 * property; what it cannot show falls back to a JSON text field (never silently dropped).
 */
export function buildArgumentsForm(inputSchema: unknown): ObjectField {
  const root = isSchema(inputSchema) ? inputSchema : {};
  const field = buildField(root, { root, path: '', label: 'Arguments', required: true, depth: 0, seenRefs: [] });
  if (field.kind === 'object') return field;
  return { kind: 'object', path: '', label: 'Arguments', required: true, fields: [field] };
}

/** True when the schema has nothing to fill in, so the tool can run at once. */
export function hasNoParameters(inputSchema: unknown): boolean {
  if (!isSchema(inputSchema)) return true;
  const properties = inputSchema.properties;
  return (!isSchema(properties) || Object.keys(properties).length === 0) && !inputSchema.oneOf && !inputSchema.anyOf;
}

interface Context {
  readonly root: Schema;
  readonly path: string;
  readonly label: string;
  readonly required: boolean;
  readonly depth: number;
  readonly seenRefs: readonly string[];
}

function buildField(raw: Schema, ctx: Context): FormField {
  const { schema, ref, error } = dereference(raw, ctx);
  const base = {
    path: ctx.path,
    label: typeof schema.title === 'string' && schema.title ? schema.title : ctx.label,
    description: typeof schema.description === 'string' ? schema.description : undefined,
    required: ctx.required,
    default: schema.default as JsonValue | undefined,
  };
  if (error) return { ...base, kind: 'json', reason: error };
  if (ctx.depth > MAX_DEPTH) return { ...base, kind: 'json', reason: 'nested too deeply for a form' };
  const inner: Context = { ...ctx, seenRefs: ref ? [...ctx.seenRefs, ref] : ctx.seenRefs, depth: ctx.depth + 1 };

  const options = choiceOptions(schema);
  if (options) return { ...base, kind: 'choice', options };

  const branches = (schema.oneOf ?? schema.anyOf) as unknown;
  if (Array.isArray(branches) && branches.every(isSchema)) {
    return {
      ...base,
      kind: 'alternatives',
      alternatives: branches.map((branch, index) => {
        const merged = mergeSiblings(schema, branch);
        const label = typeof branch.title === 'string' ? branch.title : describeBranch(branch, index);
        return { label, field: buildField(merged, { ...inner, label }) };
      }),
    };
  }

  // ["boolean", "string"]: each type is an alternative with its own control, the first one shown.
  const union = unionTypes(schema);
  if (union) {
    return {
      ...base,
      kind: 'alternatives',
      alternatives: union.map((type) => ({
        label: TYPE_LABELS[type] ?? type,
        field: buildField({ ...schema, type, description: undefined }, { ...inner, label: ctx.label }),
      })),
    };
  }

  switch (schemaType(schema)) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        format: str(schema.format),
        pattern: str(schema.pattern),
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        multiline: schema.format === undefined && (num(schema.maxLength) ?? 0) > 200,
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: schemaType(schema) as 'number' | 'integer',
        minimum: bound(schema.minimum),
        maximum: bound(schema.maximum),
        exclusiveMinimum: bound(schema.exclusiveMinimum),
        exclusiveMaximum: bound(schema.exclusiveMaximum),
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'array':
      return arrayField(schema, base, inner);
    case 'object':
      return objectField(schema, base, inner);
    default:
      return {
        ...base,
        kind: 'json',
        reason: schemaType(schema) === undefined ? 'any JSON value' : `type ${JSON.stringify(schema.type)}`,
      };
  }
}

function arrayField(schema: Schema, base: Omit<FormField, 'kind'>, ctx: Context): FormField {
  const items = isSchema(schema.items) ? schema.items : undefined;
  if (!items)
    return {
      ...base,
      kind: 'json',
      reason: Array.isArray(schema.prefixItems) ? 'a tuple' : 'a list of any JSON values',
    };
  const minItems = num(schema.minItems);
  const maxItems = num(schema.maxItems);
  const resolvedItems = dereference(items, ctx).schema;
  const options = choiceOptions(resolvedItems);
  if (options) return { ...base, kind: 'multiChoice', options, minItems, maxItems };
  const item = buildField(items, { ...ctx, path: `${ctx.path}/*`, label: 'Item', required: true });
  return { ...base, kind: 'array', items: item, minItems, maxItems };
}

function objectField(schema: Schema, base: Omit<FormField, 'kind'>, ctx: Context): FormField {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0) return { ...base, kind: 'json', reason: 'an object with free-form keys' };
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [],
  );
  const fields = names.map((name) => {
    const property = properties[name];
    const path = `${ctx.path}/${escapePointer(name)}`;
    if (!isSchema(property))
      return { kind: 'json', path, label: name, required: required.has(name), reason: 'any JSON value' } as FormField;
    return buildField(property, { ...ctx, path, label: name, required: required.has(name) });
  });
  return { ...base, kind: 'object', fields };
}

function choiceOptions(schema: Schema): ChoiceOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({
      value: value as JsonValue,
      label: typeof names[i] === 'string' ? names[i] : display(value),
    }));
  }
  if (schema.const !== undefined) return [{ value: schema.const as JsonValue, label: display(schema.const) }];
  const branches = (schema.oneOf ?? schema.anyOf) as unknown;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => isSchema(b) && b.const !== undefined)) {
    return (branches as Schema[]).map((b) => ({
      value: b.const as JsonValue,
      label: typeof b.title === 'string' ? b.title : display(b.const),
      description: str(b.description),
    }));
  }
  return undefined;
}

function dereference(schema: Schema, ctx: Context): { schema: Schema; ref?: string; error?: string } {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return { schema };
  if (ctx.seenRefs.includes(ref)) return { schema, error: `recursive definition ${ref}` };
  if (!ref.startsWith('#')) return { schema, error: `external reference ${ref}` };
  let target: unknown = ctx.root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    target = isSchema(target) ? target[unescapePointer(decodeURIComponent(part))] : undefined;
  }
  if (!isSchema(target)) return { schema, error: `unresolved reference ${ref}` };
  const { $ref: _ignored, ...siblings } = schema;
  return { schema: { ...target, ...siblings }, ref };
}

/** A branch inherits the keywords written next to `oneOf` (e.g. a shared `type`). */
function mergeSiblings(parent: Schema, branch: Schema): Schema {
  const { oneOf: _o, anyOf: _a, title: _t, description: _d, default: _f, ...shared } = parent;
  return { ...shared, ...branch };
}

function describeBranch(branch: Schema, index: number): string {
  const type = schemaType(branch);
  if (type === 'object' && isSchema(branch.properties))
    return `Option ${index + 1} (${Object.keys(branch.properties).join(', ')})`;
  return type ? `Option ${index + 1} (${type})` : `Option ${index + 1}`;
}

function schemaType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    // ["string", "null"] is a nullable string: the form leaves it empty for null.
    const concrete = type.filter((t) => t !== 'null');
    return concrete.length === 1 && typeof concrete[0] === 'string' ? concrete[0] : undefined;
  }
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

const TYPE_LABELS: Record<string, string> = {
  boolean: 'Yes / no (boolean)',
  string: 'Text (string)',
  number: 'Number',
  integer: 'Whole number (integer)',
  array: 'List (array)',
  object: 'Object',
};

/** The concrete types of a `type` array with more than one (null aside), or undefined. */
function unionTypes(schema: Schema): string[] | undefined {
  if (!Array.isArray(schema.type)) return undefined;
  const concrete = schema.type.filter((t): t is string => typeof t === 'string' && t !== 'null' && t in TYPE_LABELS);
  return concrete.length > 1 ? [...new Set(concrete)] : undefined;
}

/** A numeric bound worth showing: the safe-integer limits some generators write mean "no bound". */
function bound(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const display = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
export const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (part: string): string => part.replace(/~1/g, '/').replace(/~0/g, '~');
