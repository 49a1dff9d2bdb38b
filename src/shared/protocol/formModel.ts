/**
 * The form a JSON Schema becomes, as the extension sends it to a webview. Shared by the core (which
 * builds it) and the browser code (which renders it), so both sides agree on every field kind.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface FieldBase {
  /** JSON Pointer of the value inside the arguments object, e.g. `/options/limit`. */
  readonly path: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  readonly default?: JsonValue;
}

export interface StringField extends FieldBase {
  readonly kind: 'string';
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Long text (no maxLength or one above a line's worth) gets a text area. */
  readonly multiline: boolean;
}

export interface NumberField extends FieldBase {
  readonly kind: 'number' | 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
}

export interface ChoiceOption {
  readonly value: JsonValue;
  readonly label: string;
  readonly description?: string;
}

/** `enum`, or `oneOf`/`anyOf` whose branches are all `const`. */
export interface ChoiceField extends FieldBase {
  readonly kind: 'choice';
  readonly options: readonly ChoiceOption[];
}

/** An array of choices: a multi-select. */
export interface MultiChoiceField extends FieldBase {
  readonly kind: 'multiChoice';
  readonly options: readonly ChoiceOption[];
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface ArrayField extends FieldBase {
  readonly kind: 'array';
  /** The form of one item; its path is the array's path plus `/*`. */
  readonly items: FormField;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface ObjectField extends FieldBase {
  readonly kind: 'object';
  readonly fields: readonly FormField[];
}

/** `oneOf`/`anyOf` of schemas: the user picks one alternative, then fills it in. */
export interface AlternativesField extends FieldBase {
  readonly kind: 'alternatives';
  readonly alternatives: readonly { readonly label: string; readonly field: FormField }[];
}

/** Anything a form cannot express well (free-form objects, tuples, recursion): JSON text. */
export interface JsonField extends FieldBase {
  readonly kind: 'json';
  readonly reason: string;
}

export type FormField =
  | StringField
  | NumberField
  | BooleanField
  | ChoiceField
  | MultiChoiceField
  | ArrayField
  | ObjectField
  | AlternativesField
  | JsonField;

/** A validation problem at one value (path as in the form model; `''` is the whole object). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}
