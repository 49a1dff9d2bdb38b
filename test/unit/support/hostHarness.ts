import type { HostAuthorization } from '../../../src/core/auth/hostAuthorization';
import type { ProcessLedger } from '../../../src/core/process/processLedger';
import * as sinon from 'sinon';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerSettingsEntry } from '../../../src/core/config/serverDefinition';
import { InMemoryEraPinStore } from '../../../src/core/connection/eraPins';
import { ExecutableResolver } from '../../../src/core/process/executableResolver';
import type { MachineShare } from '../../../src/core/connection/machineShare';
import type { StartSlots } from '../../../src/core/connection/startSlots';
import { McpHost } from '../../../src/core/host/mcpHost';
import type { LastRuns } from '../../../src/core/host/lastRuns';
import type { ConsentRecord, HostEnvironment, StartConsentRequest } from '../../../src/core/host/ports';
import type { SamplingRouter } from '../../../src/core/sampling/samplingRouter';
import type { ElicitationRouter } from '../../../src/core/elicitation/elicitationRouter';
import { fixture, RecordingLog, waitFor } from './fixtures';
import type { TaskTracker } from '../../../src/core/tasks/taskTracker';
import { tempDir } from '../../support/tempDir';
import type { McpPolicy } from '../../../src/core/config/mcpPolicy';

// A real McpHost over real fixture servers, with the user's answers given by the test.
export const node = process.execPath;
export const workspace = tempDir('mcp-ws-');
export const app = path.join(workspace, 'app');
export const lib = path.join(workspace, 'lib');
/** The user's home folder, where a server shared between windows runs unless it sets `cwd`. */
export const home = tempDir('mcp-home-');
mkdirSync(app);
mkdirSync(lib);
export const uri = (p: string) => pathToFileURL(p).toString();
export const legacy = (extra: Record<string, unknown> = {}) => ({
  command: node,
  args: [fixture('legacyStdio')],
  ...extra,
});
export const modern = (extra: Record<string, unknown> = {}) => ({
  command: node,
  args: [fixture('modernStdio')],
  ...extra,
});

export function harness(
  options: {
    trusted?: boolean;
    consent?: (requests: readonly StartConsentRequest[]) => string[];
    sampling?: SamplingRouter;
    elicitation?: ElicitationRouter;
    authorization?: HostAuthorization;
    tasks?: TaskTracker;
    apps?: boolean;
    lastRuns?: LastRuns;
    startSlots?: StartSlots;
    share?: MachineShare;
    /** Answers `${input:ID}` (the default gives `secret-ID`). */
    input?: (id: string) => Promise<string>;
    /** The editor's MCP policies, read at each application of the settings (change `current` and reapply). */
    policy?: { current: McpPolicy };
    /** Where started processes are recorded (and the record of spawns kept). */
    ledger?: ProcessLedger;
  } = {},
) {
  const consentAnswers = new Map<string, ConsentRecord>();
  const declines = new Map<string, string>();
  const confirm = sinon.spy(
    async (requests: readonly StartConsentRequest[]) =>
      new Set(options.consent ? options.consent(requests) : requests.map((r) => r.serverId)),
  );
  const showConfigError = sinon.spy();
  const logs = new Map<string, RecordingLog>();
  const env: HostEnvironment = {
    dialogs: { confirmWorkspaceServers: confirm, showConfigError },
    consent: {
      allowed: (key) => consentAnswers.get(key),
      allow: (key, record) => void consentAnswers.set(key, record),
      declined: (key) => declines.get(key),
      decline: (key, hash) => void (hash === undefined ? declines.delete(key) : declines.set(key, hash)),
    },
    trust: { isTrusted: options.trusted ?? true },
    policy: options.policy,
    variableContext: () => ({
      workspaceFolders: [{ name: 'app', path: app }],
      userHome: home,
      env: {},
      input: options.input ?? (async (id) => `secret-${id}`),
      readFile: (file) => readFile(file, 'utf8'),
    }),
    logFor: (id) => logs.get(id) ?? logs.set(id, new RecordingLog()).get(id)!,
    hostLog: new RecordingLog(),
  };
  const host = new McpHost({
    clientInfo: { name: 'test', version: '0' },
    resolver: new ExecutableResolver(),
    eraPins: new InMemoryEraPinStore(),
    env,
    sampling: options.sampling,
    elicitation: options.elicitation,
    authorization: options.authorization,
    tasks: options.tasks,
    apps: () => options.apps ?? false,
    lastRuns: options.lastRuns,
    startSlots: options.startSlots,
    share: options.share,
    ledger: options.ledger,
  });
  return { host, confirm, showConfigError, env, logs };
}

export const hosts: McpHost[] = [];

export function entries(
  servers: Record<string, unknown>,
  scope: ServerSettingsEntry['scope'] = 'user',
): ServerSettingsEntry[] {
  return Object.entries(servers).map(([id, raw]) => ({ id, scope, raw }));
}

export async function running(host: McpHost, id: string) {
  return waitFor(
    `${id} running`,
    () => {
      const s = host.server(id);
      if (s?.status === 'error') throw new Error(s.reason);
      return s?.status === 'running' && s.tools.length > 0 && s;
      // A loaded 2-core machine can take long to start node servers (server-everything most).
    },
    25_000,
  );
}
