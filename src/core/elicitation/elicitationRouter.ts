import type { ElicitRequest, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/client';
import { protocolError } from '../lazyLibraries';
import type { FieldProblem, ObjectField } from '../../shared/protocol/formModel';
import { buildArgumentsForm } from '../forms/schemaForm';
import { validateAgainstSchema } from '../forms/schemaValidation';
import { RequestRateLimiter } from '../requestRateLimiter';
import { EarlyCompletions } from './earlyCompletions';
import { restrictedSchemaProblem } from './restrictedSchema';
import { inspectUrl, type UrlInspection } from './urlSafety';

export type ElicitParams = ElicitRequest['params'];

export interface FormElicitation {
  readonly serverId: string;
  /** The server's message: plain text, never rendered as links. */
  readonly message: string;
  readonly form: ObjectField;
  /** The host's check of an answer against the requested schema. */
  validate(content: Record<string, unknown>): FieldProblem[];
}

export interface UrlElicitation {
  readonly serverId: string;
  readonly message: string;
  readonly elicitationId: string;
  readonly inspection: UrlInspection;
}

/** The user's side of elicitation (forms, consent to open a URL, waiting for an out-of-band flow). */
export interface ElicitationPort {
  /** Shows the form; resolves with the user's answer (`accept` content already checked by `validate`). */
  askForm(request: FormElicitation, signal: AbortSignal): Promise<ElicitResult>;
  /** Asks consent and, when given, opens the URL outside the editor. */
  askUrl(request: UrlElicitation, signal: AbortSignal): Promise<'accept' | 'decline' | 'cancel'>;
  /**
   * Says the server waits for the user to finish in the browser; resolves `retry` or `cancel` when
   * the user chooses. Aborting `signal` (every flow reported complete) closes it.
   */
  awaitBrowser(serverId: string, pending: number, signal: AbortSignal): Promise<'retry' | 'cancel'>;
}

export const DEFAULT_ELICITATIONS_PER_MINUTE = 30;
const INVALID_PARAMS = -32602;

/**
 * Answers servers' `elicitation/create` (legacy requests and 2026-07-28 input requests): a form
 * for the restricted schema, or consent to open a URL. Also runs the URL elicitations a
 * `-32042` error asks for, and hears `notifications/elicitation/complete` (ignoring unknown or
 * finished ids, as the spec requires). Every request ends with accept, decline, cancel or an error.
 */
export class ElicitationRouter {
  private readonly limiter = new RequestRateLimiter();
  /** URL flows the user started and the server has not yet reported complete, per server. */
  private readonly open = new Map<string, Map<string, () => void>>();
  private readonly early = new EarlyCompletions();

  constructor(
    private readonly port: ElicitationPort,
    private readonly perMinute: (serverId: string) => number = () => DEFAULT_ELICITATIONS_PER_MINUTE,
  ) {}

  async handle(serverId: string, params: ElicitParams, signal: AbortSignal): Promise<ElicitResult> {
    const limit = this.perMinute(serverId);
    const wait = this.limiter.refusal(serverId, limit);
    if (wait !== undefined)
      throw protocolError(
        -32603,
        `Elicitation rate limit reached for MCP server "${serverId}": at most ${limit} requests for input per minute (next in ${wait} s).`,
      );
    if (params.mode === 'url') {
      const answer = await this.askUrl(serverId, params, signal);
      return { action: answer };
    }
    const schema = (params as { requestedSchema?: unknown }).requestedSchema;
    const problem = restrictedSchemaProblem(schema);
    if (problem)
      throw protocolError(
        INVALID_PARAMS,
        `MCP server "${serverId}" asked for input with a schema outside the spec's restricted subset: ${problem}.`,
      );
    const validate = (content: Record<string, unknown>) => validateAgainstSchema(schema, content);
    const result = await this.port.askForm(
      { serverId, message: params.message, form: buildArgumentsForm(schema), validate },
      signal,
    );
    if (result.action === 'accept') {
      // The form checks as the user types; the host checks again before anything leaves.
      const problems = validate(result.content ?? {});
      if (problems.length)
        throw protocolError(
          -32603,
          `The answer does not match the requested schema: ${problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`,
        );
      return { action: 'accept', content: result.content ?? {} };
    }
    return { action: result.action };
  }

  /**
   * `notifications/elicitation/complete`: ends the wait for that flow. Unknown or finished ids are
   * ignored, but an unknown one is remembered briefly in case the error that lists it comes next.
   */
  complete(serverId: string, elicitationId: string): void {
    const done = this.open.get(serverId)?.get(elicitationId);
    if (!done) {
      this.early.remember(serverId, elicitationId);
      return;
    }
    this.open.get(serverId)!.delete(elicitationId);
    done();
  }

  /**
   * A call failed with -32042: asks consent for each listed URL elicitation, then waits until the
   * server reports every one complete or the user presses Retry. True when the call should be
   * retried, false when the user declined or cancelled.
   */
  async satisfy(
    serverId: string,
    elicitations: readonly ElicitRequestURLParams[],
    signal: AbortSignal,
  ): Promise<boolean> {
    // The ids the error lists are known from now on: a completion that arrives while the user is
    // still reading the consent (or as the page opens) counts, rather than being ignored as unknown.
    const flows = this.open.get(serverId) ?? new Map<string, () => void>();
    this.open.set(serverId, flows);
    const completions = Promise.all(
      elicitations.map(
        (e) =>
          new Promise<void>((resolve) =>
            this.early.take(serverId, e.elicitationId) ? resolve() : flows.set(e.elicitationId, resolve),
          ),
      ),
    );
    let reported = false;
    void completions.then(() => (reported = true));
    const allDone = new AbortController();
    try {
      for (const elicitation of elicitations) {
        if ((await this.askUrl(serverId, elicitation, signal)) !== 'accept') return false;
      }
      if (reported) return true; // the server was done before the user finished consenting
      const outcome = await Promise.race([
        completions.then(() => 'retry' as const),
        this.port.awaitBrowser(serverId, elicitations.length, AbortSignal.any([signal, allDone.signal])),
      ]);
      if (signal.aborted) throw signal.reason ?? new Error('Cancelled');
      return outcome === 'retry';
    } finally {
      allDone.abort(); // closes the "finish in your browser" notice
      for (const e of elicitations) flows.delete(e.elicitationId);
    }
  }

  private async askUrl(
    serverId: string,
    params: { message: string; url: string; elicitationId: string },
    signal: AbortSignal,
  ): Promise<'accept' | 'decline' | 'cancel'> {
    const inspection = inspectUrl(params.url);
    if (inspection.refusal)
      throw protocolError(
        INVALID_PARAMS,
        `MCP server "${serverId}" asked to open ${JSON.stringify(params.url)}, which the host will not open: ${inspection.refusal}.`,
      );
    return this.port.askUrl(
      { serverId, message: params.message, elicitationId: params.elicitationId, inspection },
      signal,
    );
  }
}
