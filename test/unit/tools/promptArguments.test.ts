import * as assert from 'node:assert/strict';
import { parsePromptArguments } from '../../../src/core/prompts/promptArguments';

const declared = [
  { name: 'city', required: true },
  { name: 'state', required: false },
];

describe('slash command arguments', () => {
  it('reads name=value pairs, quoted or not', () => {
    assert.deepEqual(parsePromptArguments('city="New York" state=NY', declared), {
      values: { city: 'New York', state: 'NY' },
      missing: [],
      problems: [],
    });
  });

  it('fills positional values in declared order, the last argument taking the rest', () => {
    assert.deepEqual(parsePromptArguments('Paris', declared).values, { city: 'Paris' });
    assert.deepEqual(parsePromptArguments("'San Jose' California coast", declared).values, {
      city: 'San Jose',
      state: 'California coast',
    });
    assert.deepEqual(parsePromptArguments('state=TX Austin', declared).values, { state: 'TX', city: 'Austin' });
  });

  it('reports missing required arguments so they can be asked for', () => {
    const parsed = parsePromptArguments('state=NY', declared);
    assert.deepEqual(
      parsed.missing.map((a) => a.name),
      ['city'],
    );
  });

  it('names unknown arguments and keeps quoted text with "=" as a value', () => {
    const parsed = parsePromptArguments('town=Paris "a=b"', declared);
    assert.deepEqual(parsed.problems, ['Unknown argument "town" (this prompt takes city, state).']);
    assert.deepEqual(parsed.values, { city: 'a=b' });
  });

  it('says so when a prompt without arguments gets some', () => {
    assert.deepEqual(parsePromptArguments('extra words', []).problems, [
      'This prompt takes no more arguments; ignored "extra words".',
    ]);
  });
});
