import type { UriTemplate } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';

/**
 * A resource template's URI template (RFC 6570, through the SDK's implementation): its variables
 * in order, and the URI they expand to. A template the SDK cannot parse is reported by name.
 */
export class ResourceUriTemplate {
  private readonly parsed: UriTemplate;

  constructor(readonly source: string) {
    try {
      this.parsed = new (clientLibrary().UriTemplate)(source);
    } catch (error) {
      throw new Error(`The URI template ${JSON.stringify(source)} is not valid: ${(error as Error).message}`);
    }
  }

  /** Each variable once, in the order the template names them. */
  get variables(): string[] {
    return [...new Set(this.parsed.variableNames)];
  }

  /** The URI for these values (reserved characters escaped as the operator requires). */
  expand(values: Readonly<Record<string, string>>): string {
    return this.parsed.expand({ ...values });
  }
}
