import type { FieldProblem, FormField, JsonValue } from '../../src/shared/protocol/formModel';
import { h } from '../shared/vscodeApi';

// The tool form's fields: one control per JSON Schema field, nested for objects, arrays and unions.

/** One rendered field: its element, how to read its value, and problems it can see by itself. */
export interface Rendered {
  readonly element: HTMLElement;
  read(): JsonValue | undefined;
  localProblems(): FieldProblem[];
}

let changed: () => void = () => undefined;

/** What runs when a field's value changes (the form's validation). */
export function onFieldChange(run: () => void): void {
  changed = run;
}

export function renderField(field: FormField, path: string, initial: JsonValue | undefined, isRoot = false): Rendered {
  switch (field.kind) {
    case 'object':
      return renderObject(field, path, initial, isRoot);
    case 'string':
      return renderString(field, path, initial);
    case 'number':
    case 'integer':
      return renderNumber(field, path, initial);
    case 'boolean': {
      const box = h('vscode-checkbox', {
        checked: (initial ?? field.default) === true,
        label: field.label,
        id: idFor(path),
      });
      // An optional flag the user never touched stays absent, so an optional object stays empty.
      let touched = initial !== undefined || field.default !== undefined || field.required;
      box.addEventListener('change', () => (touched = true));
      return {
        element: wrap(field, path, box, false),
        read: () => (touched ? (box as unknown as { checked: boolean }).checked : undefined),
        localProblems: () => [],
      };
    }
    case 'choice':
      return renderChoice(field, path, initial);
    case 'multiChoice': {
      const select = h(
        'vscode-multi-select',
        { id: idFor(path) },
        ...field.options.map((o, i) => h('vscode-option', { value: String(i), description: o.description }, o.label)),
      );
      const chosen = Array.isArray(initial ?? field.default) ? ((initial ?? field.default) as JsonValue[]) : [];
      queueMicrotask(
        () =>
          ((select as unknown as { value: string[] }).value = field.options.flatMap((o, i) =>
            chosen.some((c) => same(c, o.value)) ? [String(i)] : [],
          )),
      );
      return {
        element: wrap(field, path, select),
        read: () => {
          const picked = (select as unknown as { value: string[] }).value.map((i) => field.options[Number(i)].value);
          return picked.length || field.required ? picked : undefined;
        },
        localProblems: () => [],
      };
    }
    case 'array':
      return renderArray(field, path, initial);
    case 'alternatives':
      return renderAlternatives(field, path, initial);
    case 'json':
      return renderJson(field, path, initial);
  }
}

function renderObject(
  field: Extract<FormField, { kind: 'object' }>,
  path: string,
  initial: JsonValue | undefined,
  isRoot: boolean,
): Rendered {
  const values = isObject(initial) ? initial : isObject(field.default) ? field.default : {};
  const children = field.fields.map((child) => ({
    name: lastSegment(child.path),
    rendered: renderField(child, `${path}/${lastSegment(child.path)}`, values[unescape(lastSegment(child.path))]),
  }));
  const body = h('div', { class: 'object-fields' }, ...children.map((c) => c.rendered.element));
  const element = isRoot ? body : wrapGroup(field, path, body);
  return {
    element,
    read: () => {
      const out: { [key: string]: JsonValue } = {};
      for (const { name, rendered } of children) {
        const value = rendered.read();
        if (value !== undefined) out[unescape(name)] = value;
      }
      return isRoot || field.required || Object.keys(out).length ? out : undefined;
    },
    localProblems: () => children.flatMap((c) => c.rendered.localProblems()),
  };
}

function renderString(
  field: Extract<FormField, { kind: 'string' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  const start = typeof (initial ?? field.default) === 'string' ? String(initial ?? field.default) : '';
  const type =
    { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'datetime-local', time: 'time' }[
      field.format ?? ''
    ] ?? 'text';
  const input = field.multiline
    ? h('vscode-textarea', { value: start, id: idFor(path), rows: 3, resize: 'vertical' })
    : h('vscode-textfield', {
        value: type === 'datetime-local' ? start.slice(0, 16) : start,
        type,
        id: idFor(path),
        placeholder: field.format ?? '',
      });
  return {
    element: wrap(field, path, input),
    read: () => {
      const value = (input as unknown as { value: string }).value;
      // An empty input is an absent value: the schema's `required` says whether that is allowed.
      if (value === '') return undefined;
      // datetime-local has no zone: send it as UTC, the form the schema's date-time expects.
      return type === 'datetime-local' && value ? new Date(value).toISOString() : value;
    },
    localProblems: () => [],
  };
}

function renderNumber(
  field: Extract<FormField, { kind: 'number' | 'integer' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  const start = typeof (initial ?? field.default) === 'number' ? String(initial ?? field.default) : '';
  const input = h('vscode-textfield', {
    value: start,
    type: 'number',
    id: idFor(path),
    min: field.minimum,
    max: field.maximum,
    step: field.kind === 'integer' ? 1 : 'any',
  });
  const text = () => (input as unknown as { value: string }).value.trim();
  return {
    element: wrap(field, path, input),
    read: () => {
      const value = text();
      if (value === '') return undefined;
      const parsed = Number(value);
      return Number.isFinite(parsed) ? parsed : value;
    },
    localProblems: () =>
      text() !== '' && !Number.isFinite(Number(text())) ? [{ path, message: 'Must be a number.' }] : [],
  };
}

function renderChoice(
  field: Extract<FormField, { kind: 'choice' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  const current = initial ?? field.default;
  const selected = field.options.findIndex((o) => same(o.value, current));
  const blank = !field.required || selected < 0;
  const select = h(
    'vscode-single-select',
    { id: idFor(path) },
    blank ? h('vscode-option', { value: '' }, field.required ? 'Choose…' : '(none)') : undefined,
    ...field.options.map((o, i) =>
      h('vscode-option', { value: String(i), description: o.description, selected: i === selected }, o.label),
    ),
  );
  return {
    element: wrap(field, path, select),
    read: () => {
      const value = (select as unknown as { value: string }).value;
      return value === '' ? undefined : field.options[Number(value)].value;
    },
    localProblems: () => [],
  };
}

function renderArray(
  field: Extract<FormField, { kind: 'array' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  const list = h('div', { class: 'array-items' });
  let items: Rendered[] = [];
  const build = (values: (JsonValue | undefined)[]) => {
    items = values.map((value, index) => renderField(field.items, `${path}/${index}`, value));
    list.replaceChildren(
      ...items.map((item, index) => {
        const remove = h(
          'vscode-button',
          { secondary: true, class: 'remove', 'aria-label': `Remove item ${index + 1}` },
          'Remove',
        );
        remove.addEventListener('click', () => {
          const kept = items.map((i) => i.read());
          kept.splice(index, 1);
          build(kept);
          changed();
        });
        return h('div', { class: 'array-item' }, item.element, remove);
      }),
    );
  };
  const start = Array.isArray(initial ?? field.default) ? ((initial ?? field.default) as JsonValue[]) : [];
  build(start);
  const add = h('vscode-button', { secondary: true, class: 'add' }, 'Add item');
  add.addEventListener('click', () => {
    build([...items.map((i) => i.read()), undefined]);
    changed();
  });
  return {
    element: wrapGroup(field, path, h('div', {}, list, add)),
    read: () => {
      const values = items.map((i) => i.read()).filter((v): v is JsonValue => v !== undefined);
      return values.length || field.required ? values : undefined;
    },
    localProblems: () => items.flatMap((i) => i.localProblems()),
  };
}

function renderAlternatives(
  field: Extract<FormField, { kind: 'alternatives' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  // The control inside carries the field's id (its label points there); the switch has its own.
  const picker = h(
    'vscode-single-select',
    { id: `${idFor(path)}__alternative`, 'aria-label': `Kind of value for ${field.label}` },
    ...field.alternatives.map((a, i) => h('vscode-option', { value: String(i) }, a.label)),
  );
  const holder = h('div', { class: 'alternative' });
  // A value given before (a default, or the user's after a Deny) picks the alternative it fits.
  const first = Math.max(
    0,
    field.alternatives.findIndex((a) => fits(a.field, initial ?? field.default)),
  );
  let current = renderField(field.alternatives[first].field, path, initial);
  holder.replaceChildren(current.element);
  queueMicrotask(() => ((picker as unknown as { value: string }).value = String(first)));
  picker.addEventListener('change', () => {
    current = renderField(
      field.alternatives[Number((picker as unknown as { value: string }).value)].field,
      path,
      undefined,
    );
    holder.replaceChildren(current.element);
  });
  return {
    element: wrapGroup(field, path, h('div', {}, picker, holder)),
    read: () => current.read(),
    localProblems: () => current.localProblems(),
  };
}

function fits(field: FormField, value: JsonValue | undefined): boolean {
  if (value === undefined) return false;
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
    case 'integer':
      return typeof value === 'number';
    case 'choice':
      return field.options.some((o) => same(o.value, value));
    case 'array':
    case 'multiChoice':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

function renderJson(
  field: Extract<FormField, { kind: 'json' }>,
  path: string,
  initial: JsonValue | undefined,
): Rendered {
  const start = initial ?? field.default;
  const input = h('vscode-textarea', {
    value: start === undefined ? '' : JSON.stringify(start, null, 2),
    id: idFor(path),
    rows: 4,
    placeholder: `JSON: ${field.reason}`,
    class: 'json',
  });
  const text = () => (input as unknown as { value: string }).value.trim();
  const parse = (): { ok: true; value: JsonValue | undefined } | { ok: false; message: string } => {
    if (text() === '') return { ok: true, value: undefined };
    try {
      return { ok: true, value: JSON.parse(text()) as JsonValue };
    } catch (error) {
      return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
    }
  };
  return {
    element: wrap(field, path, input),
    read: () => {
      const parsed = parse();
      return parsed.ok ? parsed.value : undefined;
    },
    localProblems: () => {
      const parsed = parse();
      return parsed.ok ? [] : [{ path, message: parsed.message }];
    },
  };
}

function wrap(field: FormField, path: string, control: HTMLElement, withLabel = true): HTMLElement {
  return h(
    'div',
    { class: 'field', 'data-path': path },
    withLabel ? h('label', { for: idFor(path), class: field.required ? 'required' : '' }, field.label) : undefined,
    control,
    field.description ? h('div', { class: 'hint' }, field.description) : undefined,
    constraintsHint(field),
    h('div', { class: 'problem', 'data-problem-for': path, role: 'alert' }),
  );
}

function wrapGroup(field: FormField, path: string, body: HTMLElement): HTMLElement {
  return h(
    'fieldset',
    { class: 'field group', 'data-path': path },
    h('legend', { class: field.required ? 'required' : '' }, field.label),
    field.description ? h('div', { class: 'hint' }, field.description) : undefined,
    body,
    h('div', { class: 'problem', 'data-problem-for': path, role: 'alert' }),
  );
}

function constraintsHint(field: FormField): HTMLElement | undefined {
  const parts: string[] = [];
  if (field.kind === 'number' || field.kind === 'integer') {
    if (field.minimum !== undefined) parts.push(`min ${field.minimum}`);
    if (field.exclusiveMinimum !== undefined) parts.push(`> ${field.exclusiveMinimum}`);
    if (field.maximum !== undefined) parts.push(`max ${field.maximum}`);
    if (field.exclusiveMaximum !== undefined) parts.push(`< ${field.exclusiveMaximum}`);
    if (field.kind === 'integer') parts.push('whole number');
  }
  if (field.kind === 'string') {
    if (field.minLength !== undefined && field.minLength > 1) parts.push(`at least ${field.minLength} characters`);
    if (field.maxLength !== undefined) parts.push(`at most ${field.maxLength} characters`);
    // A format says it better than the regex a schema generator adds next to it.
    if (field.pattern && !field.format) parts.push(`pattern ${field.pattern}`);
  }
  if (field.kind === 'multiChoice' || field.kind === 'array') {
    if (field.minItems !== undefined) parts.push(`at least ${field.minItems}`);
    if (field.maxItems !== undefined) parts.push(`at most ${field.maxItems}`);
  }
  return parts.length ? h('div', { class: 'constraints' }, parts.join(' · ')) : undefined;
}

const idFor = (path: string) => `field${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const isObject = (v: unknown): v is { [key: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const DESCRIPTION_LINES = 6;

/** A long description (some tools bring 60 lines) is folded after a few lines, so the form stays in view. */
export function renderDescription(text: string): HTMLElement {
  const paragraph = h('p', { class: 'description', id: 'description' }, text);
  const long = text.split('\n').length > DESCRIPTION_LINES || text.length > DESCRIPTION_LINES * 100;
  if (!long) return paragraph;
  paragraph.classList.add('folded');
  const more = h(
    'vscode-button',
    { id: 'description-toggle', secondary: true, 'aria-expanded': 'false', 'aria-controls': 'description' },
    'More',
  );
  more.addEventListener('click', () => {
    const folded = paragraph.classList.toggle('folded');
    more.textContent = folded ? 'More' : 'Less';
    more.setAttribute('aria-expanded', String(!folded));
  });
  return h('div', { class: 'description-block' }, paragraph, more);
}
