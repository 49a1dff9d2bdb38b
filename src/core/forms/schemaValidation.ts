import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { FieldProblem } from '../../shared/protocol/formModel';
import { escapePointer } from './schemaForm';
import { ajvLibrary } from '../lazyLibraries';

// MCP schemas default to JSON Schema 2020-12; a schema that names draft-07 gets a draft-07 validator.
// Both are made with the first schema checked, not when the extension loads.
interface Dialects {
  readonly draft2020: Ajv;
  readonly draft07: Ajv;
}
let dialects: Dialects | undefined;

function validatorsByDialect(): Dialects {
  if (dialects) return dialects;
  const { Ajv, Ajv2020, addFormats } = ajvLibrary();
  const draft2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  const draft07 = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  addFormats(draft2020);
  addFormats(draft07);
  return (dialects = { draft2020, draft07 });
}

const compiled = new WeakMap<object, ValidateFunction | Error>();

export class SchemaCompileError extends Error {}

/**
 * Validates a value against a JSON Schema and returns one plain-language problem per field (paths as
 * in the form model). A schema that cannot be compiled throws {@link SchemaCompileError}.
 */
export function validateAgainstSchema(schema: unknown, value: unknown): FieldProblem[] {
  const validate = compile(schema);
  if (validate(value)) return [];
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = describe(error);
    if (!problem) continue;
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function compile(schema: unknown): ValidateFunction {
  const target = typeof schema === 'object' && schema !== null ? schema : {};
  let entry = compiled.get(target);
  if (!entry) {
    const dialect = (target as { $schema?: unknown }).$schema;
    const { draft2020, draft07 } = validatorsByDialect();
    const ajv = typeof dialect === 'string' && /draft-0[4-7]/.test(dialect) ? draft07 : draft2020;
    try {
      const { $schema: _ignored, ...rest } = target as Record<string, unknown>;
      entry = ajv.compile(rest);
    } catch (error) {
      entry = error as Error;
    }
    compiled.set(target, entry);
  }
  if (entry instanceof Error) throw new SchemaCompileError(`The schema cannot be used: ${entry.message}`);
  return entry;
}

function describe(error: ErrorObject): FieldProblem | undefined {
  const path = error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${path}/${escapePointer(String(p.missingProperty))}`, message: 'Required.' };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const words: Record<string, string> = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'more than',
        exclusiveMaximum: 'less than',
      };
      return { path, message: `Must be ${words[error.keyword]} ${String(p.limit)}.` };
    }
    case 'minLength':
      return { path, message: p.limit === 1 ? 'Required.' : `Must be at least ${String(p.limit)} characters.` };
    case 'maxLength':
      return { path, message: `Must be at most ${String(p.limit)} characters.` };
    case 'pattern':
      return { path, message: `Must match the pattern ${String(p.pattern)}.` };
    case 'format':
      return { path, message: `Must be a valid ${String(p.format)}.` };
    case 'enum':
      return {
        path,
        message: `Must be one of: ${((p.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'const':
      return { path, message: `Must be ${JSON.stringify(p.allowedValue)}.` };
    case 'type':
      return { path, message: `Must be ${article(String(p.type))}.` };
    case 'minItems':
      return { path, message: `Choose at least ${String(p.limit)}.` };
    case 'maxItems':
      return { path, message: `Choose at most ${String(p.limit)}.` };
    case 'additionalProperties':
      return { path: `${path}/${escapePointer(String(p.additionalProperty))}`, message: 'Not allowed here.' };
    case 'oneOf':
    case 'anyOf':
      return { path, message: 'Does not match any of the alternatives.' };
    case 'if':
    case 'then':
    case 'else':
      return undefined;
    default:
      return { path, message: `${capitalise(error.message ?? 'Invalid')}.` };
  }
}

function article(type: string): string {
  const first = type.split(',')[0];
  return /^[aeiou]/.test(first) ? `an ${type}` : `a ${type}`;
}
const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
