/** Whether two ordered lists of keyed values hold the same keys in the same order, with values that `same` finds equal. */
export function sameEntries<T>(
  a: readonly (readonly [string, T])[],
  b: readonly (readonly [string, T])[],
  same: (x: T, y: T) => boolean,
): boolean {
  return a.length === b.length && a.every(([key, value], i) => b[i][0] === key && same(value, b[i][1]));
}
