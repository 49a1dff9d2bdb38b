import type { FetchLike } from '@modelcontextprotocol/client';
import { DEFAULT_REGISTRY_URL } from '../config/hostSettingKeys';
import { readBoundedBody } from '../connection/boundedBody';
import { parseServerList, parseServerResponse, type RegistryPage, type RegistryServer } from './registryServer';

/** A registry answer is read up to this size. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 15_000;
/** Servers asked for a page. */
export const PAGE_SIZE = 30;

/** Why a registry could not answer, in words that name it and say what to do. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/**
 * Reads an MCP registry over its published API (`/v0/servers` with `search` and `cursor`,
 * `/v0/servers/{name}/versions`): no credentials, answers bounded in size and time.
 */
export class RegistryClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly fetch: FetchLike,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {
    this.baseUrl = registryBaseUrl(baseUrl);
  }

  /** The latest version of each server whose name has `query` in it, one page at a time. */
  async search(query: string, cursor?: string, signal?: AbortSignal): Promise<RegistryPage> {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE), version: 'latest' });
    if (query.trim() !== '') params.set('search', query.trim());
    if (cursor) params.set('cursor', cursor);
    const page = parseServerList(await this.get(`/v0/servers?${params}`, signal));
    if (!page)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} sent something other than a server list for a search; check "mcpHost.registry.url".`,
      );
    return page;
  }

  /** Every version of one server, newest first as the registry lists them. */
  async versions(name: string, signal?: AbortSignal): Promise<readonly RegistryServer[]> {
    const page = parseServerList(await this.get(`/v0/servers/${encodeURIComponent(name)}/versions`, signal));
    if (!page)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} sent something other than a list of versions of ${name}.`,
      );
    return page.servers;
  }

  /** One version of a server (`latest` for the latest). */
  async version(name: string, version: string, signal?: AbortSignal): Promise<RegistryServer> {
    const server = parseServerResponse(
      await this.get(`/v0/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`, signal),
    );
    if (!server)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} sent something other than a server.json for ${name} ${version}.`,
      );
    return server;
  }

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const url = `${this.baseUrl}${path}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(url, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted)
        throw new RegistryError(
          `The MCP registry at ${this.baseUrl} did not answer within ${this.timeoutMs / 1000} s.`,
        );
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message}); check your network and "mcpHost.registry.url".`,
      );
    }
    const body = await readBoundedBody(response, MAX_RESPONSE_BYTES);
    if (response.status === 404)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} has no ${decodeURIComponent(path.split('?')[0])} (HTTP 404).`,
      );
    if (!response.ok)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} answered HTTP ${response.status}${errorText(body.text)}; try again later.`,
      );
    if (!body.complete)
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} sent more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB for one page; MCP Host reads no more.`,
      );
    try {
      return JSON.parse(body.text);
    } catch {
      throw new RegistryError(
        `The MCP registry at ${this.baseUrl} did not answer with JSON (is "mcpHost.registry.url" a registry?).`,
      );
    }
  }
}

/** The registry's base URL without a trailing slash or API version; throws a clear error when it is no http(s) URL. */
export function registryBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new RegistryError(
      `"mcpHost.registry.url" is not a URL: "${text}". Use the registry's address, e.g. ${DEFAULT_REGISTRY_URL}.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new RegistryError(`"mcpHost.registry.url" must be an https:// address (got ${url.protocol}).`);
  return url.href.replace(/\/+$/, '').replace(/\/v0(\.\d+)?$/, '');
}

function errorText(body: string): string {
  try {
    const error =
      (JSON.parse(body) as { error?: unknown; detail?: unknown }).error ??
      (JSON.parse(body) as { detail?: unknown }).detail;
    return typeof error === 'string' ? ` (${error.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}
