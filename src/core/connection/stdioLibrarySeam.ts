import type { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * The one place MCP Host reaches into the client library's `StdioClientTransport` beyond its
 * public API. The host keeps the library's class (on it the library probes the protocol era and
 * the SDK's tests run) and changes four things through these members:
 *
 * - `_readBuffer`: the line buffer, replaced by a linear one (the library's copies the whole
 *   buffer per line: quadratic in a big message);
 * - `processReadBuffer`: the method its stdout handler calls on `this`, replaced by a reader that
 *   yields to the event loop every few milliseconds (a storm of messages never stalls the host);
 * - `_process`: the child, to write with one shared `drain` wait and to watch the process;
 * - `_serverParams`: its spawn parameters, whose environment is dropped once spawned.
 *
 * `test/unit/connection/stdioLibrarySeam.test.ts` fails when a library update renames or drops
 * any of them, before the host silently loses what it gains here.
 */
export interface StdioInternals {
  _readBuffer?: { append(chunk: Buffer): void; readMessage(): JSONRPCMessage | null; clear(): void };
  processReadBuffer: () => void;
  _process?: ChildProcess;
  _serverParams?: { command: string; env?: Record<string, string> };
}

export function stdioInternals(transport: StdioClientTransport): StdioInternals {
  return transport as unknown as StdioInternals;
}
