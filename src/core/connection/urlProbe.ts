import type { FetchLike } from '@modelcontextprotocol/client';
import { readBoundedBody } from './boundedBody';
import { describeStartFailure } from './startFailure';

/** What a URL said to an MCP `initialize`: whether it is worth adding, and in the user's words. */
export interface UrlProbeResult {
  readonly ok: boolean;
  /** "answers as an MCP server", "needs sign-in …", or why it is not one. */
  readonly summary: string;
}

const BODY_LIMIT = 64 * 1024;

/**
 * Asks `url` what an MCP client's first request asks (a Streamable HTTP `initialize`) and reads
 * the answer: JSON-RPC or an event stream is an MCP server, 401 one that needs sign-in (MCP Host
 * signs in when it starts), anything else is named. A session it opened is ended again.
 */
export async function probeMcpUrl(url: string, fetch: FetchLike, timeoutMs = 10_000): Promise<UrlProbeResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'mcp-host-url-check', version: '1' },
        },
      }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { ok: false, summary: `${url} did not answer within ${Math.round(timeoutMs / 1000)} s` };
    return {
      ok: false,
      summary: describeStartFailure(error, { kind: 'http', url, stderrTail: [], startTimeoutMs: timeoutMs }),
    };
  }
  const type = response.headers.get('content-type') ?? '';
  const session = response.headers.get('mcp-session-id');
  const body = type.includes('text/event-stream') ? '' : (await readBoundedBody(response, BODY_LIMIT)).text;
  if (session) void fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }).catch(() => undefined);
  if (response.status === 401) {
    const bearer = /^\s*bearer\b/i.test(response.headers.get('www-authenticate') ?? '');
    return {
      ok: true,
      summary: bearer
        ? `${url} is an MCP server that needs sign-in: MCP Host asks you to sign in when it starts`
        : `${url} needs credentials (HTTP 401): give a header below`,
    };
  }
  if (type.includes('text/event-stream') || isJsonRpc(body))
    return { ok: true, summary: `${url} answers as an MCP server` };
  if (response.status >= 400) {
    return {
      ok: false,
      summary: describeStartFailure(Object.assign(new Error(`HTTP ${response.status}`), { status: response.status }), {
        kind: 'http',
        url,
        stderrTail: [],
        startTimeoutMs: timeoutMs,
      }),
    };
  }
  return {
    ok: false,
    summary: `${url} answered HTTP ${response.status} with ${type.split(';')[0] || 'no content type'}, not as an MCP server; is this the server's MCP endpoint (often …/mcp)?`,
  };
}

function isJsonRpc(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { jsonrpc?: unknown } | { jsonrpc?: unknown }[];
    return (Array.isArray(parsed) ? parsed[0] : parsed)?.jsonrpc === '2.0';
  } catch {
    return false;
  }
}
