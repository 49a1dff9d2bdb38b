import type { FetchLike } from '@modelcontextprotocol/client';
import { rootCertificates } from 'node:tls';
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { undiciLibrary } from '../lazyLibraries';

/** How HTTP servers are reached: the editor's `http.*` settings (or the proxy environment variables). */
export interface NetworkSettings {
  /** `http://[user:password@]host:port` of the proxy; none connects directly. */
  readonly proxy?: string;
  /** A `Proxy-Authorization` value (`http.proxyAuthorization`), used instead of credentials in the URL. */
  readonly proxyAuthorization?: string;
  /** Hosts reached without the proxy: `example.com` (and its subdomains), `.example.com`, `host:port`, `*`. */
  readonly noProxy: readonly string[];
  /** Whether certificates are verified (`http.proxyStrictSSL`). */
  readonly strictSSL: boolean;
  /** PEM certificates trusted besides Node's own roots: the system store, `NODE_EXTRA_CA_CERTS`. */
  readonly extraCertificates: readonly string[];
}

export const DIRECT: NetworkSettings = { noProxy: [], strictSSL: true, extraCertificates: [] };

/**
 * A `fetch` for the client library's HTTP transports and sign-in that honours a proxy, the hosts
 * that bypass it and the certificates to trust. Settings are read per request, so a change in
 * the editor (a new settings object) applies to the next request without restarting anything.
 */
export class NetworkFetch {
  private built?: { settings: NetworkSettings; direct: Agent; proxied?: ProxyAgent };

  constructor(private readonly settings: () => NetworkSettings) {}

  readonly fetch: FetchLike = async (url, init) => {
    const target = new URL(url);
    const dispatcher = this.dispatcherFor(target);
    try {
      return (await undiciLibrary().fetch(target, { ...(init as object), dispatcher })) as unknown as Response;
    } catch (error) {
      const status = dispatcher === this.built?.proxied ? proxyRefusal(error) : undefined;
      if (status !== undefined)
        throw new ProxyRefusedError(new URL(this.settings().proxy!).host, target.host, status, error);
      throw error;
    }
  };

  /** Whether a request to `url` goes through the proxy (for log lines and tests). */
  usesProxy(url: URL): boolean {
    const settings = this.settings();
    return settings.proxy !== undefined && settings.proxy !== '' && !bypassesProxy(url, settings.noProxy);
  }

  async dispose(): Promise<void> {
    const built = this.built;
    this.built = undefined;
    await Promise.all([built?.direct.close(), built?.proxied?.close()]);
  }

  private dispatcherFor(url: URL): Dispatcher {
    const settings = this.settings();
    // The same settings object until they change: agents (and their connections) are kept.
    if (this.built?.settings !== settings) {
      void this.dispose();
      const tls = {
        ca: settings.extraCertificates.length > 0 ? [...rootCertificates, ...settings.extraCertificates] : undefined,
        rejectUnauthorized: settings.strictSSL,
      };
      this.built = {
        settings,
        direct: new (undiciLibrary().Agent)({ connect: tls }),
        proxied: settings.proxy ? proxyAgent(settings, tls) : undefined,
      };
    }
    return this.usesProxy(url) && this.built.proxied ? this.built.proxied : this.built.direct;
  }
}

/** The proxy answered the tunnel request with an error status: the message says which and what to do. */
export class ProxyRefusedError extends Error {
  constructor(proxy: string, target: string, status: number, cause: unknown) {
    const hint =
      status === 407
        ? ': it wants credentials; put them in "http.proxy" (http://user:password@host:port) or "http.proxyAuthorization"'
        : '';
    super(`the proxy at ${proxy} refused to connect to ${target} (HTTP ${status})${hint}`, { cause });
    this.name = 'ProxyRefusedError';
  }
}

/** The status of undici's "Proxy response (407) !== 200 when HTTP Tunneling", anywhere in the cause chain. */
function proxyRefusal(error: unknown): number | undefined {
  for (
    let node = error as { message?: unknown; cause?: unknown } | undefined, depth = 0;
    node && depth < 8;
    node = node.cause as typeof node, depth++
  ) {
    const match = typeof node.message === 'string' ? /Proxy response \((\d{3})\)/.exec(node.message) : null;
    if (match) return Number(match[1]);
  }
  return undefined;
}

function proxyAgent(settings: NetworkSettings, tls: { ca?: string[]; rejectUnauthorized: boolean }): ProxyAgent {
  const uri = new URL(settings.proxy!);
  let token = settings.proxyAuthorization;
  if (!token && uri.username)
    token = `Basic ${Buffer.from(`${decodeURIComponent(uri.username)}:${decodeURIComponent(uri.password)}`).toString('base64')}`;
  uri.username = '';
  uri.password = '';
  return new (undiciLibrary().ProxyAgent)({ uri: uri.href, token, requestTls: tls, proxyTls: tls });
}

/** `NO_PROXY` matching as curl does it: exact host, domain suffix, optional port, `*` for all. */
export function bypassesProxy(url: URL, noProxy: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    if (entry === '') return false;
    const { name, entryPort } = splitHostPort(entry);
    if (entryPort && entryPort !== port) return false;
    const domain = (name ?? '').replace(/^\*?\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address. */
function splitHostPort(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1], entryPort: bracketed[2] };
  const colons = entry.split(':').length - 1;
  if (colons === 1) {
    const [name, entryPort] = entry.split(':');
    return { name, entryPort };
  }
  return { name: entry };
}
