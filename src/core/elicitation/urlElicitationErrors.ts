import type { ElicitRequestURLParams } from '@modelcontextprotocol/client';
import { clientLibrary } from '../lazyLibraries';

/** How many times a tool call is retried after the user completed the URL elicitations it asked for. */
export const MAX_URL_ELICITATION_ROUNDS = 3;

/** The URL elicitations a -32042 error lists, or undefined for any other error. */
export function urlElicitationsOf(error: unknown): ElicitRequestURLParams[] | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  if (cause instanceof clientLibrary().UrlElicitationRequiredError) return cause.elicitations;
  const e = cause as { code?: unknown; data?: { elicitations?: unknown } };
  return e?.code === -32042 && Array.isArray(e.data?.elicitations)
    ? (e.data.elicitations as ElicitRequestURLParams[])
    : undefined;
}

/**
 * Runs `call`; when it fails with -32042 (URL elicitations required first) and `satisfy` gets the
 * user through the listed URLs (true: completed, or the user pressed Retry), runs it again, at
 * most {@link MAX_URL_ELICITATION_ROUNDS} times more. Without `satisfy` the error stands.
 */
export async function retryAfterUrlElicitations<T>(
  call: () => Promise<T>,
  satisfy?: (elicitations: ElicitRequestURLParams[]) => Promise<boolean>,
): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await call();
    } catch (error) {
      const elicitations = urlElicitationsOf(error);
      if (!elicitations || !satisfy || round > MAX_URL_ELICITATION_ROUNDS || !(await satisfy(elicitations)))
        throw error;
    }
  }
}
