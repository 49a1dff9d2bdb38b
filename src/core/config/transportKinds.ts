/** How the host reaches a server: a process it runs (stdio), or a URL (Streamable HTTP, legacy SSE). */
export type TransportKind = 'stdio' | 'http' | 'sse';

/**
 * What differs between the transports, in one record per kind: a new transport is one entry here
 * plus its connector (`createTransport` in connection/transportFactory.ts) and its `type` value in
 * package.json's schema.
 */
export interface TransportTraits {
  /** How the log and the views name it. */
  readonly label: string;
  /**
   * MCP Host starts a process for it: the server takes a turn among the window's starts, has a
   * pid and a process tree to end, may be sandboxed or run in dev mode, and consent shows its
   * command line; otherwise it is reached at a URL, may need sign-in, and consent shows the URL.
   */
  readonly spawnsProcess: boolean;
  /** A first POST refused with a 4xx other than 401/403 tries the legacy HTTP+SSE transport. */
  readonly fallsBackToSse: boolean;
}

export const TRANSPORTS: { readonly [K in TransportKind]: TransportTraits } = {
  stdio: { label: 'stdio', spawnsProcess: true, fallsBackToSse: false },
  http: { label: 'Streamable HTTP', spawnsProcess: false, fallsBackToSse: true },
  sse: { label: 'HTTP+SSE', spawnsProcess: false, fallsBackToSse: false },
};

/** Whether MCP Host starts a process for a server of this transport (see {@link TransportTraits.spawnsProcess}). */
export const spawnsProcess = (kind: TransportKind): boolean => TRANSPORTS[kind].spawnsProcess;
