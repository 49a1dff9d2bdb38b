import { ProtocolError, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/client';
import { isModelAllowed, selectModel, type ModelChoice, type ModelInfo } from './modelSelection';
import { SamplingRateLimiter } from './samplingRateLimiter';
import { SamplingRequestError, validateSamplingMessages } from './samplingValidation';

export type SamplingParams = CreateMessageRequest['params'];

/** A server's sampling policy, from its settings. */
export interface SamplingPolicy {
  readonly mode: 'ask' | 'allowAlways' | 'deny';
  /** Allowed model ids or families; empty allows every model. */
  readonly models: readonly string[];
  readonly maxRequestsPerMinute?: number;
}

/** The editor's language models. */
export interface SamplingBackend {
  models(): Promise<ModelInfo[]>;
  complete(model: ModelInfo, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

/** The user's say on one request: approve (possibly edited, possibly another model) or reject. */
export type SamplingDecision = { readonly approved: false } | { readonly approved: true; readonly params: SamplingParams; readonly model: ModelInfo };

export interface SamplingApprovalPort {
  review(request: { serverId: string; params: SamplingParams; choice: ModelChoice; models: readonly ModelInfo[] }, signal: AbortSignal): Promise<SamplingDecision>;
}

export interface SamplingRecord {
  readonly serverId: string;
  readonly at: number;
  readonly outcome: 'answered' | 'rejected' | 'refused' | 'failed';
  readonly model?: string;
  readonly detail?: string;
}

export const USER_REJECTED = -1;

/**
 * Answers servers' sampling requests: checks the server's policy and rate limit and the spec's
 * message rules, picks a model from the server's preferences, asks the user (unless the policy
 * allows always), runs the model, and keeps a history. Every request ends with a result or an
 * error the server can read.
 */
export class SamplingRouter {
  private readonly limiter: SamplingRateLimiter;
  private readonly records: SamplingRecord[] = [];

  constructor(
    private readonly backend: SamplingBackend,
    private readonly approval: SamplingApprovalPort,
    private readonly policyFor: (serverId: string) => SamplingPolicy,
    private readonly now: () => number = Date.now,
    private readonly historySize = 100,
  ) {
    this.limiter = new SamplingRateLimiter(now);
  }

  history(): readonly SamplingRecord[] {
    return this.records;
  }

  async handle(serverId: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult> {
    const policy = this.policyFor(serverId);
    try {
      if (policy.mode === 'deny') throw this.refuse(serverId, USER_REJECTED, `Sampling is turned off for MCP server "${serverId}" (sampling.mode is "deny").`);
      if (!this.limiter.tryAcquire(serverId, policy.maxRequestsPerMinute)) {
        const wait = Math.ceil(this.limiter.retryAfterMs(serverId, policy.maxRequestsPerMinute!) / 1000);
        throw this.refuse(serverId, -32603, `Sampling rate limit reached for MCP server "${serverId}": at most ${policy.maxRequestsPerMinute} per minute (next in ${wait} s).`);
      }
      try {
        validateSamplingMessages(params.messages as never);
      } catch (error) {
        if (error instanceof SamplingRequestError) throw this.refuse(serverId, error.code, error.message);
        throw error;
      }
      const models = (await this.backend.models()).filter((m) => isModelAllowed(m, policy.models));
      const choice = selectModel(models, params.modelPreferences);
      if (!choice) {
        throw this.refuse(serverId, -32603, policy.models.length
          ? `No allowed language model is available for MCP server "${serverId}" (sampling.models: ${policy.models.join(', ')}).`
          : 'No language model is available in the editor to answer the sampling request.');
      }
      let model = choice.model;
      let approved = params;
      if (policy.mode === 'ask') {
        const decision = await this.approval.review({ serverId, params, choice, models }, signal);
        if (!decision.approved) {
          this.record({ serverId, at: this.now(), outcome: 'rejected', model: model.id });
          throw new ProtocolError(USER_REJECTED, 'User rejected sampling request');
        }
        model = decision.model;
        approved = decision.params;
      }
      const result = await this.backend.complete(model, approved, signal);
      this.record({ serverId, at: this.now(), outcome: 'answered', model: model.id, detail: result.stopReason });
      return result;
    } catch (error) {
      if (!(error instanceof ProtocolError)) {
        this.record({ serverId, at: this.now(), outcome: 'failed', detail: (error as Error).message });
        throw new ProtocolError(-32603, `Sampling failed: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  private refuse(serverId: string, code: number, message: string): ProtocolError {
    this.record({ serverId, at: this.now(), outcome: 'refused', detail: message });
    return new ProtocolError(code, message);
  }

  private record(entry: SamplingRecord): void {
    this.records.push(entry);
    if (this.records.length > this.historySize) this.records.shift();
  }
}
