import type { PromptArgument } from '@modelcontextprotocol/client';

export interface ParsedPromptArguments {
  readonly values: Record<string, string>;
  /** Required arguments the text did not give: ask for them. */
  readonly missing: readonly PromptArgument[];
  /** Problems to show the user (unknown names, too many positional values). */
  readonly problems: readonly string[];
}

/**
 * Reads prompt arguments from the text after a slash command: `name=value` pairs (values may be
 * quoted) and positional values filling the declared arguments in order.
 */
export function parsePromptArguments(text: string, declared: readonly PromptArgument[]): ParsedPromptArguments {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  const positional: string[] = [];
  const names = new Set(declared.map((a) => a.name));
  for (const token of tokenize(text)) {
    const eq = token.named ? token.text.indexOf('=') : -1;
    if (eq > 0 && names.has(token.text.slice(0, eq))) {
      values[token.text.slice(0, eq)] = unquote(token.text.slice(eq + 1));
    } else if (eq > 0 && /^[A-Za-z_][\w.-]*$/.test(token.text.slice(0, eq))) {
      problems.push(
        `Unknown argument "${token.text.slice(0, eq)}" (this prompt takes ${declared.map((a) => a.name).join(', ') || 'no arguments'}).`,
      );
    } else {
      positional.push(unquote(token.text));
    }
  }
  const open = declared.filter((a) => values[a.name] === undefined);
  positional.forEach((value, i) => {
    const argument = open[i];
    if (argument) values[argument.name] = value;
  });
  if (positional.length > open.length) {
    // The last open argument takes the rest, so a free-text argument does not need quotes.
    const last = open[open.length - 1];
    if (last) values[last.name] = positional.slice(open.length - 1).join(' ');
    else problems.push(`This prompt takes no more arguments; ignored "${positional.join(' ')}".`);
  }
  const missing = declared.filter(
    (a) => a.required === true && (values[a.name] === undefined || values[a.name] === ''),
  );
  return { values, missing, problems };
}

interface Token {
  readonly text: string;
  /** False when the whole token was quoted, so `"a=b"` stays a positional value. */
  readonly named: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /(?:[^\s"']+|"(?:[^"\\]|\\.)*"?|'[^']*'?)+/g;
  for (const match of text.matchAll(pattern)) {
    tokens.push({ text: match[0], named: !/^["']/.test(match[0]) });
  }
  return tokens;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  return value;
}
