import { readFile } from 'node:fs/promises';
import type {
  OAuthClientInformation,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from '@modelcontextprotocol/client';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** A workload token is a JWT of a few kilobytes; a file much larger is not one. */
const MAX_ASSERTION_BYTES = 64 * 1024;

export interface WorkloadIdentityOptions {
  readonly clientId: string;
  readonly clientName: string;
  /** The workload's JWT itself, or… */
  readonly assertion?: string;
  /** …the file its platform keeps it in, read at every token request (such tokens rotate). */
  readonly assertionFile?: string;
  readonly scope?: string;
}

/**
 * The workload-identity grant (RFC 7523 JWT bearer, SEP-1933): the JWT a workload's platform
 * issues it (a Kubernetes service-account token, a CI job's OIDC token) is its credential at the
 * authorization server; no browser, no client secret. The client library's `auth()` does the
 * discovery and the token request; this provider supplies the assertion. A rejected assertion is
 * not retried with it, nor with another grant.
 */
export class WorkloadIdentityProvider implements OAuthClientProvider {
  private current?: OAuthTokens;

  constructor(private readonly options: WorkloadIdentityOptions) {
    if (!options.assertion && !options.assertionFile)
      throw new Error('"oauth.assertion" or "oauth.assertionFile" is required for the workloadIdentity grant');
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformation {
    return { client_id: this.options.clientId };
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('the workloadIdentity grant signs in without a browser');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('the workloadIdentity grant uses no PKCE code verifier');
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: await this.assertion() });
    const wanted = scope ?? this.options.scope;
    if (wanted) params.set('scope', wanted);
    return params;
  }

  private async assertion(): Promise<string> {
    if (this.options.assertion) return this.options.assertion.trim();
    const file = this.options.assertionFile!;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(
        `cannot read the workload's token from "oauth.assertionFile" (${file}): ${(error as Error).message}`,
      );
    }
    const token = text.trim();
    if (!token || Buffer.byteLength(token) > MAX_ASSERTION_BYTES || token.split('.').length !== 3) {
      throw new Error(
        `"oauth.assertionFile" (${file}) does not hold a JWT (three dot-separated parts, at most ${MAX_ASSERTION_BYTES / 1024} KB)`,
      );
    }
    return token;
  }
}
