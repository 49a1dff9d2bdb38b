/** "1 tool", "3 tools": a count with its noun in English singular or plural. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
