import { clientLibrary } from '../lazyLibraries';
import type { ServerStatus } from './serverSnapshot';

/** A request failed; the message names the server, and `code` keeps the JSON-RPC or SDK code. */
export class McpRequestError extends Error {
  constructor(
    readonly serverId: string,
    message: string,
    readonly code?: number | string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'McpRequestError';
  }
}

export class ServerUnavailableError extends McpRequestError {
  constructor(serverId: string, status: ServerStatus, reason?: string) {
    super(
      serverId,
      `MCP server "${serverId}" is not running (${status}${reason ? `: ${reason}` : ''}).`,
      'SERVER_NOT_RUNNING',
    );
    this.name = 'ServerUnavailableError';
  }
}

/**
 * A time limit a request ran out of, as the user set it: the idle one (`requestTimeoutMs`, no
 * answer or progress for that long) or the total cap (`maxTotalTimeoutMs`, however lively).
 */
export interface RequestTimeLimit {
  readonly ms: number;
  readonly setting: 'requestTimeoutMs' | 'maxTotalTimeoutMs';
}

/**
 * `limit`: the limit a request the library timed out ran out of (the library holds only the total
 * cap; the idle timeout is the host's own). `stopping`: why the server is being stopped, when it
 * is (told to a request the stop ends).
 */
export function describeRequestError(
  serverId: string,
  label: string,
  error: unknown,
  limit: RequestTimeLimit,
  cancelled = false,
  stopping?: string,
): McpRequestError {
  if (error instanceof McpRequestError) return error;
  // The SDK reports a caller's abort like a timeout; the caller's signal tells them apart.
  if (cancelled)
    return new McpRequestError(serverId, `${label} on MCP server "${serverId}" was cancelled.`, 'CANCELLED', {
      cause: error,
    });
  const e = error as { name?: string; message?: string; code?: number | string };
  const { SdkError, SdkErrorCode } = clientLibrary();
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
        return new McpRequestError(
          serverId,
          `MCP server "${serverId}" stopped before answering ${label}${stopping ? `: ${stopping}` : ''}.`,
          error.code,
          { cause: error },
        );
      case SdkErrorCode.RequestTimeout:
        return new McpRequestError(
          serverId,
          `MCP server "${serverId}" did not answer ${label} within ${Math.round(limit.ms / 1000)} s${limit.setting === 'maxTotalTimeoutMs' ? ' in all' : ''} ("${limit.setting}"); the request was cancelled.`,
          error.code,
          { cause: error },
        );
    }
  }
  return new McpRequestError(
    serverId,
    `MCP server "${serverId}": ${label} failed: ${e?.message ?? String(error)}`,
    e?.code,
    { cause: error },
  );
}

/**
 * A `resources/read` error that says the resource does not exist, in words that name the server
 * and the URI: -32002 up to 2025-11-25, -32602 from 2026-07-28 (which still accepts -32002).
 */
export function resourceNotFound(serverId: string, uri: string, error: unknown): McpRequestError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code !== -32002 && code !== -32602) return undefined;
  return new McpRequestError(
    serverId,
    `MCP server "${serverId}" has no resource ${uri} (error ${code}: ${((error as { cause?: Error }).cause ?? (error as Error)).message}).`,
    code,
    { cause: error },
  );
}
