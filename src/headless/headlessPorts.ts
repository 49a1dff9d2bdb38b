import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { WritingServerLog, type HostLogLevel, type LogMethod } from '../core/connection/serverLog';
import type { ElicitationPort, FormElicitation } from '../core/elicitation/elicitationRouter';
import type { HostEnvironment } from '../core/host/ports';
import type { FormField } from '../shared/protocol/formModel';

const ORDER: readonly LogMethod[] = ['trace', 'debug', 'info', 'warn', 'error'];
const THRESHOLD: Record<HostLogLevel, number> = { trace: 0, debug: 1, info: 2, warning: 3, error: 4, off: 5 };

/** A server log on stderr (stdout may belong to a protocol). */
export class StderrLog extends WritingServerLog {
  constructor(
    private readonly tag: string,
    readonly level: HostLogLevel = 'info',
  ) {
    super();
  }
  onDidChangeLevel(): { dispose(): void } {
    return { dispose: () => undefined };
  }
  protected write(method: LogMethod, message: string): void {
    if (ORDER.indexOf(method) >= THRESHOLD[this.level]) process.stderr.write(`[${this.tag}] ${method}: ${message}\n`);
  }
}

/**
 * The host's environment without an editor: user-scope servers only (no consent to ask), no
 * `${input:}` values to ask for, settings errors on stderr.
 */
export function headlessEnvironment(level: HostLogLevel = 'info'): HostEnvironment {
  const hostLog = new StderrLog('host', level);
  return {
    dialogs: {
      confirmWorkspaceServers: async () => new Set<string>(),
      showConfigError: (message) => hostLog.error(message),
    },
    consent: { allowed: () => undefined, allow: () => undefined, declined: () => undefined, decline: () => undefined },
    trust: { isTrusted: true },
    variableContext: () => ({
      workspaceFolders: [],
      userHome: homedir(),
      env: process.env,
      input: async (id) => {
        throw new Error(`\${input:${id}} has no value here: a headless client cannot ask for one`);
      },
      readFile: (file) => readFile(file, 'utf8'),
    }),
    logFor: (serverId) => new StderrLog(serverId, level),
    hostLog,
  };
}

/**
 * A user who accepts every form as the server proposes it (each field's default) and declines
 * URL flows: what an unattended client can honestly answer.
 */
export const acceptDefaultsElicitation: ElicitationPort = {
  askForm: async (request: FormElicitation): Promise<ElicitResult> => ({
    action: 'accept',
    content: defaultsOf(request.form.fields),
  }),
  askUrl: async () => 'decline',
  awaitBrowser: async () => 'cancel',
};

function defaultsOf(fields: readonly FormField[]): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  // Elicitation schemas are flat: strings, numbers, booleans and string lists only.
  for (const field of fields)
    if (field.default !== undefined && field.default !== null && typeof field.default !== 'object')
      content[field.path.split('/').pop() ?? field.path] = field.default;
  for (const field of fields)
    if (Array.isArray(field.default)) content[field.path.split('/').pop() ?? field.path] = field.default.map(String);
  return content;
}
