import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Messages an app may send in one second before the rest of that second is dropped. */
export const MAX_APP_MESSAGES_PER_SECOND = 200;
/** The largest message an app may send (a tool call's arguments, a context update). */
export const MAX_APP_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The bridge's side of the app's `postMessage` channel, relayed through the panel's webview:
 * `post` delivers to the app, `receive` takes what the app sent. What the app sends is checked
 * and bounded here, so a flooding or garbled app costs the host a counter, not a queue.
 */
export class AppRelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private windowStart = 0;
  private inWindow = 0;
  private floodReported = false;
  private closed = false;
  /** What the app sent before the bridge started listening (the page may be quicker than the host). */
  private early: JSONRPCMessage[] | undefined = [];

  constructor(
    private readonly post: (message: JSONRPCMessage) => void,
    /** Told once when the app floods (its later messages in that second are dropped). */
    private readonly flooded: (reason: string) => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async start(): Promise<void> {
    const early = this.early ?? [];
    this.early = undefined;
    for (const message of early) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.closed) this.post(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  receive(message: unknown): void {
    if (this.closed) return;
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > MAX_APP_MESSAGES_PER_SECOND) {
      if (!this.floodReported) {
        this.floodReported = true;
        this.flooded(
          `The app sent more than ${MAX_APP_MESSAGES_PER_SECOND} messages in a second; MCP Host drops what comes beyond that.`,
        );
      }
      return;
    }
    if (!isJsonRpc(message)) {
      this.onerror?.(new Error(`the app sent something that is not a JSON-RPC 2.0 message: ${preview(message)}`));
      return;
    }
    if (JSON.stringify(message).length > MAX_APP_MESSAGE_BYTES) {
      this.onerror?.(
        new Error(
          `the app sent a message over ${MAX_APP_MESSAGE_BYTES / 1048576} MB (${(message as { method?: string }).method ?? 'a response'}); it was dropped.`,
        ),
      );
      return;
    }
    if (this.early) {
      if (this.early.length < MAX_EARLY_MESSAGES) this.early.push(message);
      return;
    }
    this.onmessage?.(message);
  }
}

/** Messages kept from before the bridge started; an app says little before its handshake. */
const MAX_EARLY_MESSAGES = 32;

function isJsonRpc(message: unknown): message is JSONRPCMessage {
  if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0')
    return false;
  const m = message as { method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined) return typeof m.method === 'string';
  return (typeof m.id === 'string' || typeof m.id === 'number') && (m.result !== undefined || m.error !== undefined);
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
