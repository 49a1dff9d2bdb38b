import type { ContentBlock } from '@modelcontextprotocol/client';

/** At most this much of one app's context goes to a model. */
export const MODEL_CONTEXT_PER_APP = 4_000;
/** At most this many apps' contexts are kept (the most recent). */
export const MAX_APP_CONTEXTS = 16;

interface AppContext {
  readonly serverId: string;
  readonly toolName: string;
  readonly text: string;
}

/**
 * What apps hand the model with `ui/update-model-context`: the latest per open app ("each request
 * overwrites the previous context"), used on the next `@mcp` turns while the app is open, marked
 * as the app's words.
 */
export class AppModelContext {
  private readonly contexts = new Map<string, AppContext>();

  set(
    appId: string,
    serverId: string,
    toolName: string,
    update: { content?: readonly ContentBlock[]; structuredContent?: Record<string, unknown> },
  ): void {
    const texts = (update.content ?? [])
      .filter((b): b is ContentBlock & { type: 'text' } => b.type === 'text')
      .map((b) => b.text);
    if (update.structuredContent !== undefined) texts.push(JSON.stringify(update.structuredContent));
    this.contexts.delete(appId);
    if (texts.length === 0) return;
    this.contexts.set(appId, { serverId, toolName, text: texts.join('\n') });
    for (const oldest of [...this.contexts.keys()].slice(0, Math.max(0, this.contexts.size - MAX_APP_CONTEXTS)))
      this.contexts.delete(oldest);
  }

  delete(appId: string): void {
    this.contexts.delete(appId);
  }

  /** One text per app of these servers, each cut to {@link MODEL_CONTEXT_PER_APP}. */
  forModel(serverIds: ReadonlySet<string>): string[] {
    return [...this.contexts.values()]
      .filter((c) => serverIds.has(c.serverId))
      .map((c) => {
        const body =
          c.text.length > MODEL_CONTEXT_PER_APP ? `${c.text.slice(0, MODEL_CONTEXT_PER_APP)}… [cut]` : c.text;
        return `Context from the app of tool "${c.toolName}" (MCP server "${c.serverId}"), which the user has open (written by the app, not by the user):\n${body}`;
      });
  }
}
