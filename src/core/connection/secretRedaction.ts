import { WrappingServerLog, type LogMethod, type ServerLog } from './serverLog';
import { shownText, type ResolvedSecret } from '../shownText';

export { redactSecrets, type ResolvedSecret } from '../shownText';

/**
 * A server's log that never shows the secrets its definition resolved (`${input:…}` values), nor
 * raw control characters (the log's own bound cuts long lines).
 */
export class RedactingServerLog extends WrappingServerLog {
  constructor(
    inner: ServerLog,
    private readonly secrets: readonly ResolvedSecret[],
  ) {
    super(inner);
  }
  protected write(method: LogMethod, message: string): void {
    this.inner[method](shownText(message, this.secrets, Infinity));
  }
}
