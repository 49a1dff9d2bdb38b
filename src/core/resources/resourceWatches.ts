import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { ResourceUpdateStream } from './resourceUpdateStream';

export interface ResourceWatchDeps {
  /** The live session's client when the server takes resource subscriptions, else undefined. */
  readonly client: () => Client | undefined;
  /** Runs a request with the connection's timeouts; errors name the server. */
  readonly request: <T>(label: string, run: (client: Client, options: RequestOptions) => Promise<T>) => Promise<T>;
  /** Turns a failure into an error naming the server and what was attempted. */
  readonly describe: (label: string, error: unknown) => Error;
  readonly timeoutMs: number;
  readonly warn: (message: string) => void;
}

/**
 * The resources someone wants `notifications/resources/updated` about (open editors), for one
 * server, kept across its sessions: `resources/subscribe` in the 2025 era, one
 * `subscriptions/listen` stream with `resourceSubscriptions` in 2026-07-28.
 */
export class ResourceWatches {
  private readonly uris = new Set<string>();
  /** The stream of the current session's client (a new session's client gets a new one). */
  private stream: { client: Client; stream: ResourceUpdateStream } | undefined;

  constructor(private readonly deps: ResourceWatchDeps) {}

  async watch(uri: string): Promise<void> {
    this.uris.add(uri);
    await this.apply([uri], true);
  }

  async unwatch(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return;
    await this.apply([uri], false);
  }

  /** A new session: everything still watched is subscribed to again. */
  renew(): void {
    if (this.uris.size === 0) return;
    this.apply([...this.uris], true).catch((error) =>
      this.deps.warn(`Could not subscribe to open resources again: ${(error as Error).message}`),
    );
  }

  private async apply(uris: readonly string[], on: boolean): Promise<void> {
    const client = this.deps.client();
    if (!client) return;
    if (client.getProtocolEra() === 'legacy') {
      for (const uri of uris) {
        await this.deps.request(`resources/${on ? 'subscribe' : 'unsubscribe'} "${uri}"`, (c, options) =>
          on ? c.subscribeResource({ uri }, options) : c.unsubscribeResource({ uri }, options),
        );
      }
      return;
    }
    const stream = this.streamOf(client);
    try {
      await (on ? stream.add(...uris) : stream.remove(...uris));
    } catch (error) {
      throw this.deps.describe(`subscriptions/listen for ${uris.map((u) => `"${u}"`).join(', ')}`, error);
    }
  }

  private streamOf(client: Client): ResourceUpdateStream {
    if (this.stream?.client !== client) {
      this.stream = {
        client,
        stream: new ResourceUpdateStream((uris) =>
          client.listen({ resourceSubscriptions: [...uris] }, { timeout: this.deps.timeoutMs }),
        ),
      };
    }
    return this.stream.stream;
  }
}
