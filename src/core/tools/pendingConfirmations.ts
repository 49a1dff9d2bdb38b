import { untilAborted } from '../abortWith';
import { canonicalJson } from '../config/definitionHash';
import type { ConfirmationAnswer, ToolConfirmationPort, ToolConfirmationRequest } from './toolConfirmation';

/**
 * The confirmations waiting for the user, so that one question is asked once (an app polling a
 * tool): a call identical to one waiting (same server, tool, caller and arguments) waits for the
 * same answer instead of queueing a dialog of its own; the dialogs of one tool are shown one after
 * the other, and a call whose tool an earlier answer allowed (this session, the workspace, always)
 * goes ahead without one. Nothing stale is left on screen: modal dialogs cannot be taken back.
 */
export class PendingConfirmations {
  /** The answer awaited per tool and arguments. */
  private readonly waiting = new Map<string, Promise<ConfirmationAnswer>>();
  /** The last confirmation of each tool, which the next one waits for. */
  private readonly lastOfTool = new Map<string, Promise<unknown>>();

  constructor(private readonly confirmation: ToolConfirmationPort) {}

  /**
   * `identity` names the server and what it runs (an approval's key); `stillAsked` tells whether
   * the call still needs the user once the dialogs before it are answered; `remember` keeps an
   * approval for a scope, before the next dialog of the tool is decided on.
   */
  async confirm(
    identity: string,
    request: ToolConfirmationRequest,
    signal: AbortSignal,
    stillAsked: () => boolean,
    remember: (scope: Exclude<ConfirmationAnswer, 'once' | 'deny'>) => Promise<void>,
  ): Promise<ConfirmationAnswer> {
    const tool = `${identity}\u0001${request.tool.name}\u0001${request.origin}`;
    const call = `${tool}\u0001${canonicalJson(request.args)}`;
    const same = this.waiting.get(call);
    if (same) return untilAborted(same, signal);
    const before = this.lastOfTool.get(tool) ?? Promise.resolve();
    const answer = (async (): Promise<ConfirmationAnswer> => {
      await untilAborted(
        before.catch(() => undefined),
        signal,
      );
      if (!stillAsked()) return 'once';
      const given = await this.confirmation.confirm(request, signal);
      if (given !== 'once' && given !== 'deny') await remember(given);
      return given;
    })();
    this.waiting.set(call, answer);
    this.lastOfTool.set(tool, answer);
    try {
      return await answer;
    } finally {
      if (this.waiting.get(call) === answer) this.waiting.delete(call);
      if (this.lastOfTool.get(tool) === answer) this.lastOfTool.delete(tool);
    }
  }
}
