import type { FetchLike } from '@modelcontextprotocol/client';
import { definitionHash } from '../../../src/core/config/definitionHash';
import type { ResolvedRoot, ResolvedServerDefinition } from '../../../src/core/config/serverDefinition';
import { InMemoryEraPinStore } from '../../../src/core/connection/eraPins';
import { ExecutableResolver } from '../../../src/core/process/executableResolver';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { ProcessLedger } from '../../../src/core/process/processLedger';
import type { ProcessSandbox } from '../../../src/core/process/processSandbox';
import type { StartSlots } from '../../../src/core/connection/startSlots';
import { RecordingLog } from './fixtures';

const resolver = new ExecutableResolver();
const connections: ServerConnection[] = [];

/** A ServerConnection over a real server, disposed after each test of the file that uses it. */
export function connect(
  def: ResolvedServerDefinition,
  opts: {
    pins?: InMemoryEraPinStore;
    log?: RecordingLog;
    roots?: () => ResolvedRoot[];
    ledger?: ProcessLedger;
    sandbox?: ProcessSandbox;
    fetch?: FetchLike;
    onDebuggerListening?: (address: string) => void;
    startSlots?: StartSlots;
  } = {},
) {
  const log = opts.log ?? new RecordingLog();
  const connection = new ServerConnection(def, definitionHash(def), def.command ?? def.url ?? '', {
    clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
    resolver,
    eraPins: opts.pins ?? new InMemoryEraPinStore(),
    log,
    roots: opts.roots ?? (() => [{ uri: 'file:///work/project', name: 'project' }]),
    ledger: opts.ledger,
    sandbox: opts.sandbox,
    fetch: opts.fetch,
    onDebuggerListening: opts.onDebuggerListening,
    startSlots: opts.startSlots,
  });
  connections.push(connection);
  return { connection, log };
}

export async function disposeConnections(): Promise<void> {
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
}
