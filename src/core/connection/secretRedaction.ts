import { WrappingServerLog, type LogMethod, type ServerLog } from './serverLog';

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

/** A server's log that never shows the secrets its definition resolved (`${input:…}` values). */
export class RedactingServerLog extends WrappingServerLog {
  constructor(
    inner: ServerLog,
    private readonly secrets: readonly ResolvedSecret[],
  ) {
    super(inner);
  }
  protected write(method: LogMethod, message: string): void {
    this.inner[method](redactSecrets(message, this.secrets));
  }
}
