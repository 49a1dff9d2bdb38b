/** A secret value a definition resolved, and the placeholder it was written as. */
export interface ResolvedSecret {
  readonly value: string;
  readonly placeholder: string;
}

// Shorter values would turn ordinary words into placeholders.
const MIN_SECRET_LENGTH = 4;

/** Puts each secret's placeholder back wherever its value appears (in errors, echoed URLs, logs). */
export function redactSecrets(text: string, secrets: readonly ResolvedSecret[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret.value).join(secret.placeholder);
    // Servers echo URLs: the encoded form of a secret counts too.
    const encoded = encodeURIComponent(secret.value);
    if (encoded !== secret.value) out = out.split(encoded).join(secret.placeholder);
  }
  return out;
}

/**
 * The most of a server's text (an error page, a list's failure, a reason) that a row, a tooltip,
 * an error or a log line shows; the rest is cut with a note of how much.
 */
export const MAX_SHOWN_CHARS = 2_000;

/**
 * A terminal's control sequences (colours, bold, cursor moves: `ESC [ … m`) taken out of a
 * program's output: programs colour what they write for a terminal, and neither a row nor an
 * output channel draws colours. (Other text keeps them, made visible by {@link shownText}.)
 */
export function withoutTerminalStyles(text: string): string {
  return text.includes('\u001b') ? text.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '') : text;
}

/**
 * Any text a server (or its transport) produced, as the user may see it: each resolved secret
 * replaced by its placeholder, control characters other than line breaks and tabs made visible
 * (`\u001b`), and at most `maxChars` characters, with a note of how many were cut. Every list
 * problem, call error, state reason and log line of a server goes through here.
 */
export function shownText(
  text: string,
  secrets: readonly ResolvedSecret[] = [],
  maxChars: number = MAX_SHOWN_CHARS,
): string {
  // Redact the whole text first: a secret that straddles the cut must not leave half of itself.
  const redacted = redactSecrets(text, secrets);
  const visible = redacted.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (visible.length <= maxChars) return visible;
  const cut = visible.length - maxChars;
  return `${visible.slice(0, maxChars)}… (${cut.toLocaleString('en-US')} more characters cut)`;
}
