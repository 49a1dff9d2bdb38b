import * as assert from 'node:assert/strict';
import { EMPTY_TREE, rowsToRedraw, type DrawnTree } from '../../../src/core/view/rowRedraws';

/** A tree from `key: look > child child` lines; the first line's keys are the roots. */
function tree(roots: string, ...lines: string[]): DrawnTree {
  const rows = new Map<string, { look: string; children: string[] }>();
  for (const line of lines) {
    const [head, children = ''] = line.split('>');
    const [key, look] = head.split(':').map((s) => s.trim());
    rows.set(key, { look, children: children.split(' ').filter(Boolean) });
  }
  return { roots: roots.split(' ').filter(Boolean), rows };
}

/** The same tree with one row looking otherwise. */
const withLook = (drawn: DrawnTree, key: string, look: string): DrawnTree => ({
  ...drawn,
  rows: new Map([...drawn.rows, [key, { ...drawn.rows.get(key)!, look }]]),
});

const servers = (a: string, tools: string, b = 'running') =>
  tree(
    'a b',
    `a: ${a} > a/tools`,
    `a/tools: Tools > ${tools}`,
    'a/tools/echo: echo on',
    'a/tools/add: add on',
    'a/tools/sum: sum on',
    `b: ${b} > b/tools`,
    'b/tools: Tools > b/tools/x',
    'b/tools/x: x on',
  );

describe('rowsToRedraw', () => {
  it('redraws nothing when nothing a row shows changed', () => {
    assert.deepEqual(
      rowsToRedraw(servers('running', 'a/tools/echo a/tools/add'), servers('running', 'a/tools/echo a/tools/add')),
      [],
    );
  });

  it('redraws only the server whose row changed, not the other servers or their tools', () => {
    assert.deepEqual(
      rowsToRedraw(
        servers('running', 'a/tools/echo a/tools/add'),
        servers('running', 'a/tools/echo a/tools/add', 'restarting'),
      ),
      ['b'],
    );
  });

  it('redraws one tool row when only its check box changed', () => {
    const before = servers('running', 'a/tools/echo a/tools/add');
    assert.deepEqual(rowsToRedraw(before, withLook(before, 'a/tools/add', 'add off')), ['a/tools/add']);
  });

  it('redraws the group when its children changed (a tool added, removed or moved), and nothing below it', () => {
    assert.deepEqual(
      rowsToRedraw(
        servers('running', 'a/tools/echo a/tools/add'),
        servers('running', 'a/tools/echo a/tools/add a/tools/sum'),
      ),
      ['a/tools'],
    );
    assert.deepEqual(rowsToRedraw(servers('running', 'a/tools/echo a/tools/add'), servers('running', 'a/tools/echo')), [
      'a/tools',
    ]);
    assert.deepEqual(
      rowsToRedraw(servers('running', 'a/tools/echo a/tools/add'), servers('running', 'a/tools/add a/tools/echo')),
      ['a/tools'],
    );
  });

  it('redraws a server and not also its rows below when both changed', () => {
    const after = withLook(servers('error', 'a/tools/echo a/tools/add'), 'a/tools/echo', 'echo off');
    assert.deepEqual(rowsToRedraw(servers('running', 'a/tools/echo a/tools/add'), after), ['a']);
  });

  it('redraws everything when servers came, went or moved', () => {
    assert.equal(rowsToRedraw(EMPTY_TREE, servers('running', 'a/tools/echo')), 'all');
    assert.equal(rowsToRedraw(servers('running', 'a/tools/echo'), EMPTY_TREE), 'all');
    const swapped = servers('running', 'a/tools/echo');
    assert.equal(rowsToRedraw(servers('running', 'a/tools/echo'), { ...swapped, roots: ['b', 'a'] }), 'all');
  });
});
