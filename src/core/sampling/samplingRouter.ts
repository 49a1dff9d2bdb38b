import { clientLibrary, protocolError } from '../lazyLibraries';
import { untilAborted } from '../abortWith';
import type { SamplingPolicy } from '../config/serverDefinition';
import type { ModelPart } from '../models/modelMessages';
import { isModelAllowed, selectModel, type ModelChoice, type ModelInfo } from './modelSelection';
import {
  SamplingAnswer,
  toSamplingConversation,
  type SamplingConversation,
  type SamplingParams,
  type SamplingResult,
} from './samplingConversation';
import { RequestRateLimiter } from '../requestRateLimiter';
import { blocksOf, SamplingRequestError, validateSamplingMessages } from './samplingValidation';

export type { SamplingPolicy };

/** The editor's language models. */
export interface SamplingBackend {
  models(): Promise<ModelInfo[]>;
  /**
   * Streams the model's answer to a conversation. Aborting the signal cancels the model request,
   * and so does the reader stopping early (returning from the iteration).
   */
  stream(model: ModelInfo, conversation: SamplingConversation, signal: AbortSignal): AsyncIterable<ModelPart>;
}

/** The user's say on one request: approve (possibly edited, possibly another model) or reject. */
export type SamplingDecision =
  | { readonly approved: false }
  | { readonly approved: true; readonly params: SamplingParams; readonly model: ModelInfo };

export interface SamplingReviewRequest {
  readonly serverId: string;
  readonly params: SamplingParams;
  readonly choice: ModelChoice;
  readonly models: readonly ModelInfo[];
  /** Whether the user approves the request before it runs (policy `ask`). */
  readonly askFirst: boolean;
  /** Whether the user reviews the answer before it goes back. */
  readonly reviewResponse: boolean;
}

/** One request in front of the user, from approval to answer. */
export interface SamplingReview {
  /** The user's decision on the request (only called when `askFirst`). */
  decide(): Promise<SamplingDecision>;
  /** The answer's text so far, while the model streams. */
  streaming(text: string): void;
  /** The answer to send (possibly edited), or undefined when the user discards it. */
  reviewAnswer(result: SamplingResult, dropped: readonly string[]): Promise<SamplingResult | undefined>;
  /** The request has ended: answered (no failure), failed (the message) or cancelled by the server. */
  close(failure?: string): void;
  /** Aborts when the user cancels while the model answers (Cancel, or closing the panel). */
  readonly userCancel: AbortSignal;
}

export interface SamplingApprovalPort {
  /** Shows a request to the user; `signal` aborts when the server cancels it. */
  open(request: SamplingReviewRequest, signal: AbortSignal): SamplingReview;
}

export interface SamplingRecord {
  readonly serverId: string;
  readonly at: number;
  readonly outcome: 'answered' | 'rejected' | 'refused' | 'failed' | 'cancelled';
  /** The start of the last user text, to tell requests apart. */
  readonly summary: string;
  readonly durationMs: number;
  readonly model?: string;
  readonly detail?: string;
}

export interface SamplingRouterOptions {
  readonly backend: SamplingBackend;
  readonly approval: SamplingApprovalPort;
  readonly policyFor: (serverId: string) => SamplingPolicy;
  /** Tells the user about a problem they can fix (no language model installed). */
  readonly notify?: (message: string) => void;
  readonly now?: () => number;
  readonly historySize?: number;
}

export const USER_REJECTED = -1;
const INTERNAL_ERROR = -32603;

/**
 * Answers servers' sampling requests: checks the server's policy and rate limit and the spec's
 * message rules, picks a model from the server's preferences, asks the user (unless the policy
 * allows always), runs the model, lets the user review the answer, and keeps a history. Every
 * request ends with a result or an error the server can read.
 */
export class SamplingRouter {
  private readonly limiter: RequestRateLimiter;
  private readonly records: SamplingRecord[] = [];
  /** The model the user last picked for each server, preferred when the server expresses no preference. */
  private readonly userChoice = new Map<string, string>();
  private readonly now: () => number;

  constructor(private readonly options: SamplingRouterOptions) {
    this.now = options.now ?? Date.now;
    this.limiter = new RequestRateLimiter(this.now);
  }

  history(): readonly SamplingRecord[] {
    return this.records;
  }

  async handle(serverId: string, params: SamplingParams, signal: AbortSignal): Promise<SamplingResult> {
    const started = this.now();
    const record = (outcome: SamplingRecord['outcome'], model?: string, detail?: string) => {
      this.records.push({
        serverId,
        at: started,
        outcome,
        summary: summarize(params),
        durationMs: this.now() - started,
        model,
        detail,
      });
      if (this.records.length > (this.options.historySize ?? 100)) this.records.shift();
    };
    const refuse = (code: number, message: string) => {
      record('refused', undefined, message);
      return protocolError(code, message);
    };
    const policy = this.options.policyFor(serverId);
    if (policy.mode === 'deny')
      throw refuse(USER_REJECTED, `Sampling is turned off for MCP server "${serverId}" (sampling.mode is "deny").`);
    const wait = this.limiter.refusal(serverId, policy.maxRequestsPerMinute);
    if (wait !== undefined)
      throw refuse(
        INTERNAL_ERROR,
        `Sampling rate limit reached for MCP server "${serverId}": at most ${policy.maxRequestsPerMinute} per minute (next in ${wait} s).`,
      );
    try {
      validateSamplingMessages(params.messages);
    } catch (error) {
      if (error instanceof SamplingRequestError) throw refuse(error.code, error.message);
      throw error;
    }
    const models = (await this.options.backend.models()).filter((m) => isModelAllowed(m, policy.models));
    const choice = selectModel(models, params.modelPreferences, this.userChoice.get(serverId));
    if (!choice) {
      const message = policy.models.length
        ? `No allowed language model is available for MCP server "${serverId}" (sampling.models: ${policy.models.join(', ')}).`
        : 'No language model is available in the editor to answer the sampling request.';
      this.options.notify?.(
        `MCP server "${serverId}" asked for a completion. ${message} Install or sign in to a chat model provider${policy.models.length ? ", or change the server's sampling.models setting" : ''}, then retry.`,
      );
      throw refuse(INTERNAL_ERROR, message);
    }
    const askFirst = policy.mode === 'ask';
    const review =
      askFirst || policy.reviewResponse
        ? this.options.approval.open(
            { serverId, params, choice, models, askFirst, reviewResponse: policy.reviewResponse },
            signal,
          )
        : undefined;
    let model = choice.model;
    /** Shown in the panel when the request fails for a reason of the host's or the model's. */
    let failure: string | undefined;
    try {
      let approved = params;
      if (review && askFirst) {
        const decision = await untilAborted(review.decide(), signal);
        if (!decision.approved) {
          record('rejected', model.id);
          throw protocolError(USER_REJECTED, 'User rejected sampling request');
        }
        model = decision.model;
        approved = decision.params;
        if (model.id !== choice.model.id) this.userChoice.set(serverId, model.id);
      }
      const { result, dropped } = await this.run(
        model,
        approved,
        review ? AbortSignal.any([signal, review.userCancel]) : signal,
        review,
      );
      const final =
        review && policy.reviewResponse ? await untilAborted(review.reviewAnswer(result, dropped), signal) : result;
      if (!final) {
        record('rejected', model.id, 'answer discarded');
        throw protocolError(USER_REJECTED, "User rejected sampling request (the model's answer was discarded)");
      }
      record('answered', model.id, [final.stopReason, ...dropped].filter(Boolean).join('; '));
      return final;
    } catch (error) {
      if (error instanceof clientLibrary().ProtocolError) throw error;
      if (review?.userCancel.aborted && !signal.aborted) {
        record('rejected', model.id, 'cancelled while the model answered');
        throw protocolError(USER_REJECTED, 'User rejected sampling request (cancelled while the model was answering)');
      }
      if (signal.aborted) {
        record('cancelled', model.id, 'cancelled by the server');
        throw error;
      }
      failure = `Sampling failed: ${(error as Error).message}`;
      record('failed', model.id, (error as Error).message);
      throw protocolError(INTERNAL_ERROR, failure);
    } finally {
      review?.close(failure);
    }
  }

  /** Streams the model's answer (stopping at a stop sequence) into a result. */
  private async run(model: ModelInfo, params: SamplingParams, signal: AbortSignal, review: SamplingReview | undefined) {
    const conversation = toSamplingConversation(params);
    const answer = new SamplingAnswer(conversation.stopSequences);
    // Leaving the loop early ends the backend's stream, and with it the model request.
    for await (const part of this.options.backend.stream(model, conversation, signal)) {
      if (signal.aborted) break;
      const more = answer.add(part);
      if (part.kind === 'text') review?.streaming(answer.textSoFar);
      if (!more) break;
    }
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Cancelled');
    return answer.result(model.id, conversation.tools.length > 0 || 'tools' in params);
  }
}

function summarize(params: SamplingParams): string {
  const last = [...params.messages].reverse().find((m) => m.role === 'user') ?? params.messages.at(-1);
  const text = last
    ? blocksOf(last)
        .map((b) => (b.type === 'text' ? String(b.text ?? '') : `[${b.type}]`))
        .join(' ')
    : '';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
