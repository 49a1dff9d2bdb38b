import * as assert from 'node:assert/strict';
import { sameEntries } from '../../../src/core/view/sameEntries';

describe('sameEntries', () => {
  const same = (a: number, b: number) => a === b;
  it('holds for the same keys in the same order with equal values', () => {
    assert.equal(
      sameEntries(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['a', 1],
          ['b', 2],
        ],
        same,
      ),
      true,
    );
    assert.equal(sameEntries([], [], same), true);
  });
  it('fails on another value, another order, or another length', () => {
    assert.equal(
      sameEntries(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['a', 1],
          ['b', 3],
        ],
        same,
      ),
      false,
    );
    assert.equal(
      sameEntries(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['b', 2],
          ['a', 1],
        ],
        same,
      ),
      false,
    );
    assert.equal(
      sameEntries(
        [['a', 1]],
        [
          ['a', 1],
          ['b', 2],
        ],
        same,
      ),
      false,
    );
  });
});
