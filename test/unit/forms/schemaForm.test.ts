import * as assert from 'node:assert/strict';
import { buildArgumentsForm, hasNoParameters } from '../../../src/core/forms/schemaForm';
import { validateAgainstSchema } from '../../../src/core/forms/schemaValidation';
import type { FormField } from '../../../src/shared/protocol/formModel';

const field = (form: { fields: readonly FormField[] }, path: string) => {
  const found = form.fields.find((f) => f.path === path);
  assert.ok(found, `no field ${path} in ${form.fields.map((f) => f.path).join(', ')}`);
  return found;
};

describe('schema → form model', () => {
  const schema = {
    type: 'object',
    properties: {
      guest: { type: 'string', minLength: 1, description: 'Who.' },
      room: { type: 'string', enum: ['Ada', 'Grace'] },
      legacyRoom: { type: 'string', enum: ['a', 'g'], enumNames: ['Ada', 'Grace'] },
      size: {
        type: 'string',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
      },
      nights: { type: 'integer', minimum: 1, maximum: 14, default: 1 },
      price: { type: 'number', exclusiveMinimum: 0 },
      email: { type: 'string', format: 'email' },
      code: { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 3 },
      notes: { type: 'string', maxLength: 2000 },
      name: { type: 'string' },
      breakfast: { type: 'boolean', default: false },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
      extras: {
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        maxItems: 3,
      },
      contact: { $ref: '#/$defs/contact' },
      target: {
        oneOf: [
          { type: 'object', title: 'By id', properties: { id: { type: 'integer' } } },
          { type: 'string', title: 'By name' },
        ],
      },
      nullable: { type: ['string', 'null'] },
      free: { type: 'object', additionalProperties: true },
      anything: {},
      tree: { $ref: '#/$defs/tree' },
    },
    required: ['guest', 'room'],
    $defs: {
      contact: { type: 'object', title: 'Contact', properties: { phone: { type: 'string' } }, required: ['phone'] },
      tree: { type: 'object', properties: { child: { $ref: '#/$defs/tree' } } },
    },
  };
  const form = buildArgumentsForm(schema);

  it('marks required fields and keeps descriptions', () => {
    assert.deepEqual(
      form.fields.filter((f) => f.required).map((f) => f.path),
      ['/guest', '/room'],
    );
    assert.equal(field(form, '/guest').description, 'Who.');
  });

  it('renders enums, legacy enumNames and const alternatives as choices with labels', () => {
    assert.deepEqual(field(form, '/room'), {
      kind: 'choice',
      path: '/room',
      label: 'room',
      description: undefined,
      required: true,
      default: undefined,
      options: [
        { value: 'Ada', label: 'Ada' },
        { value: 'Grace', label: 'Grace' },
      ],
    });
    const legacy = field(form, '/legacyRoom');
    assert.equal(legacy.kind, 'choice');
    assert.deepEqual(legacy.kind === 'choice' && legacy.options.map((o) => [o.value, o.label]), [
      ['a', 'Ada'],
      ['g', 'Grace'],
    ]);
    const size = field(form, '/size');
    assert.deepEqual(size.kind === 'choice' && size.options.map((o) => [o.value, o.label]), [
      ['s', 'Small'],
      ['l', 'Large'],
    ]);
  });

  it('keeps bounds, defaults, formats and patterns', () => {
    assert.deepEqual(field(form, '/nights'), {
      kind: 'integer',
      path: '/nights',
      label: 'nights',
      description: undefined,
      required: false,
      default: 1,
      minimum: 1,
      maximum: 14,
      exclusiveMinimum: undefined,
      exclusiveMaximum: undefined,
    });
    const price = field(form, '/price');
    assert.equal(price.kind === 'number' && price.exclusiveMinimum, 0);
    const email = field(form, '/email');
    assert.equal(email.kind === 'string' && email.format, 'email');
    const code = field(form, '/code');
    assert.deepEqual(code.kind === 'string' && [code.pattern, code.maxLength, code.multiline], [
      '^[A-Z]{3}$',
      3,
      false,
    ]);
    const notes = field(form, '/notes');
    assert.equal(notes.kind === 'string' && notes.multiline, true);
    const name = field(form, '/name');
    assert.equal(name.kind === 'string' && name.multiline, false);
    assert.deepEqual(field(form, '/breakfast'), {
      kind: 'boolean',
      path: '/breakfast',
      label: 'breakfast',
      description: undefined,
      required: false,
      default: false,
    });
  });

  it('turns arrays of choices into a multi-select and other arrays into item forms', () => {
    const tags = field(form, '/tags');
    assert.deepEqual(tags.kind === 'multiChoice' && [tags.options.length, tags.minItems, tags.maxItems], [3, 1, 2]);
    const extras = field(form, '/extras');
    assert.equal(extras.kind, 'array');
    assert.ok(extras.kind === 'array' && extras.items.kind === 'object' && extras.items.path === '/extras/*');
    assert.deepEqual(
      extras.kind === 'array' && extras.items.kind === 'object' && extras.items.fields.map((f) => [f.path, f.required]),
      [['/extras/*/name', true]],
    );
  });

  it('resolves local $ref and shows oneOf schemas as alternatives', () => {
    const contact = field(form, '/contact');
    assert.equal(contact.label, 'Contact');
    assert.deepEqual(contact.kind === 'object' && contact.fields.map((f) => [f.path, f.kind, f.required]), [
      ['/contact/phone', 'string', true],
    ]);
    const target = field(form, '/target');
    assert.equal(target.kind, 'alternatives');
    assert.deepEqual(target.kind === 'alternatives' && target.alternatives.map((a) => [a.label, a.field.kind]), [
      ['By id', 'object'],
      ['By name', 'string'],
    ]);
  });

  it('falls back to JSON text for what a form cannot express, saying why', () => {
    assert.equal(field(form, '/nullable').kind, 'string');
    assert.deepEqual(
      [field(form, '/free').kind, (field(form, '/free') as { reason: string }).reason],
      ['json', 'an object with free-form keys'],
    );
    assert.equal(field(form, '/anything').kind, 'json');
    const tree = field(form, '/tree');
    assert.ok(tree.kind === 'object');
    const child = tree.kind === 'object' ? tree.fields[0] : undefined;
    assert.deepEqual(child && child.kind === 'json' && child.reason, 'recursive definition #/$defs/tree');
  });

  it('knows when a tool takes no parameters', () => {
    assert.equal(hasNoParameters({ type: 'object' }), true);
    assert.equal(hasNoParameters({ type: 'object', properties: {} }), true);
    assert.equal(hasNoParameters(undefined), true);
    assert.equal(hasNoParameters(schema), false);
  });
});

describe('argument validation', () => {
  const schema = {
    type: 'object',
    properties: {
      guest: { type: 'string', minLength: 1 },
      room: { type: 'string', enum: ['Ada', 'Grace'] },
      nights: { type: 'integer', minimum: 1, maximum: 14 },
      email: { type: 'string', format: 'email' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 1 },
      contact: {
        type: 'object',
        properties: { phone: { type: 'string' } },
        required: ['phone'],
        additionalProperties: false,
      },
    },
    required: ['guest', 'room'],
  };

  it('accepts a valid value', () => {
    assert.deepEqual(validateAgainstSchema(schema, { guest: 'Ann', room: 'Ada', nights: 3 }), []);
  });

  it('reports every problem at its field in plain words', () => {
    const problems = validateAgainstSchema(schema, {
      room: 'Kitchen',
      nights: 40,
      email: 'not-an-email',
      code: 'abc',
      tags: ['a', 'b'],
      contact: { fax: '1' },
    });
    assert.deepEqual(problems.map((p) => `${p.path}: ${p.message}`).sort(), [
      '/code: Must match the pattern ^[A-Z]{3}$.',
      '/contact/fax: Not allowed here.',
      '/contact/phone: Required.',
      '/email: Must be a valid email.',
      '/guest: Required.',
      '/nights: Must be at most 14.',
      '/room: Must be one of: "Ada", "Grace".',
      '/tags: Choose at most 1.',
    ]);
  });

  it('reports a wrong type and an empty required string', () => {
    assert.deepEqual(validateAgainstSchema(schema, { guest: '', room: 'Ada', nights: 'two' }), [
      { path: '/guest', message: 'Required.' },
      { path: '/nights', message: 'Must be an integer.' },
    ]);
  });

  it('uses draft-07 for schemas that say so and 2020-12 otherwise', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: false,
    };
    assert.deepEqual(validateAgainstSchema(draft07, ['a']), []);
    assert.equal(validateAgainstSchema(draft07, ['a', 'b']).length, 1);
    const modern = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    assert.deepEqual(validateAgainstSchema(modern, ['a']), []);
    assert.equal(validateAgainstSchema(modern, ['a', 1]).length, 1);
  });

  it('throws a clear error for a schema that cannot be compiled', () => {
    assert.throws(
      () => validateAgainstSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, {}),
      /The schema cannot be used/,
    );
  });

  describe('schema → form model: type unions and generated bounds', () => {
    it('offers each type of a union as an alternative with its own control, the first type first (server-sequential-thinking)', () => {
      const form = buildArgumentsForm({
        type: 'object',
        properties: {
          nextThoughtNeeded: { type: ['boolean', 'string'], description: 'Whether another thought step is needed' },
          maybe: { type: ['string', 'null'] },
        },
        required: ['nextThoughtNeeded'],
      });
      const union = field(form, '/nextThoughtNeeded');
      assert.equal(union.kind, 'alternatives');
      assert.ok(union.kind === 'alternatives');
      assert.deepEqual(
        union.alternatives.map((a) => [a.label, a.field.kind, a.field.path, a.field.required]),
        [
          ['Yes / no (boolean)', 'boolean', '/nextThoughtNeeded', true],
          ['Text (string)', 'string', '/nextThoughtNeeded', true],
        ],
      );
      assert.equal(union.description, 'Whether another thought step is needed');
      assert.equal(field(form, '/maybe').kind, 'string', 'a nullable type stays one control');
      // What either control produces passes the schema; a value of neither type does not.
      const schema = { type: 'object', properties: { v: { type: ['boolean', 'string'] } }, required: ['v'] };
      assert.deepEqual(validateAgainstSchema(schema, { v: true }), []);
      assert.deepEqual(validateAgainstSchema(schema, { v: 'yes' }), []);
      assert.notDeepEqual(validateAgainstSchema(schema, { v: 3 }), []);
    });

    it('leaves out integer bounds at the safe-integer limit (they mean no bound) and keeps real ones', () => {
      const form = buildArgumentsForm({
        type: 'object',
        properties: {
          thoughtNumber: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
          any: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        },
      });
      const thought = field(form, '/thoughtNumber');
      assert.ok(thought.kind === 'integer');
      assert.equal(thought.minimum, 1);
      assert.equal(thought.maximum, undefined);
      const any = field(form, '/any');
      assert.ok(any.kind === 'integer');
      assert.deepEqual([any.minimum, any.maximum], [undefined, undefined]);
    });
  });
});
