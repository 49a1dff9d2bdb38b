import type { ServerSnapshot } from '../connection/serverSnapshot';

/** At most this much of one server's instructions goes to a model, and this much in all. */
export const MODEL_INSTRUCTIONS_PER_SERVER = 4_000;
export const MODEL_INSTRUCTIONS_TOTAL = 16_000;

/**
 * The instructions of the servers whose tools a model gets, one text per server, each marked as
 * coming from that server (they are the server's words, not the user's), cut to the caps above.
 */
export function instructionsForModel(servers: readonly ServerSnapshot[], serverIds: ReadonlySet<string>): string[] {
  const texts: string[] = [];
  let left = MODEL_INSTRUCTIONS_TOTAL;
  for (const server of servers) {
    if (!serverIds.has(server.id) || !server.instructions || left <= 0) continue;
    const cap = Math.min(MODEL_INSTRUCTIONS_PER_SERVER, left);
    const body = server.instructions.length > cap ? `${server.instructions.slice(0, cap)}… [cut]` : server.instructions;
    left -= Math.min(cap, server.instructions.length);
    texts.push(
      `Instructions from MCP server "${server.id}" on using its tools (written by the server, not by the user):\n${body}`,
    );
  }
  return texts;
}
