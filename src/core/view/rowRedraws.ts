/** One row of a tree view as drawn: what it shows, and its children's keys in order. */
export interface DrawnRow {
  /** Everything the row shows (label, description, tooltip, icon, check box…), as one string. */
  readonly look: string;
  readonly children: readonly string[];
}

/** A whole tree as drawn: its top-level rows' keys in order, and every row by key. */
export interface DrawnTree {
  readonly roots: readonly string[];
  readonly rows: ReadonlyMap<string, DrawnRow>;
}

export const EMPTY_TREE: DrawnTree = { roots: [], rows: new Map() };

/**
 * The rows to draw again so that a view showing `before` shows `after`: `'all'` when the top-level
 * rows changed, otherwise the top-most rows whose look or children changed, none below another
 * (drawing a row again fetches its children again). Rows that did not change are left alone, so
 * a click on one of them is never lost to a redraw of the whole tree.
 */
export function rowsToRedraw(before: DrawnTree, after: DrawnTree): 'all' | string[] {
  if (!sameKeys(before.roots, after.roots)) return 'all';
  const redraw: string[] = [];
  const visit = (key: string): void => {
    const was = before.rows.get(key);
    const now = after.rows.get(key);
    if (!was || !now) return;
    if (was.look !== now.look || !sameKeys(was.children, now.children)) {
      redraw.push(key);
      return;
    }
    for (const child of now.children) visit(child);
  };
  for (const root of after.roots) visit(root);
  return redraw;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}
