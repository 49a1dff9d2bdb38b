import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ConvertedServer, McpJsonConversion } from './vscodeMcpJson';
import { convertVsCodeMcpJson, safeServerId } from './vscodeMcpJson';

/** The hosts whose MCP configuration files MCP Host can import. */
export type OtherHost = 'vscode' | 'claude-desktop' | 'cursor' | 'claude-code';

export const HOST_NAMES: Readonly<Record<OtherHost, string>> = {
  vscode: "VS Code's mcp.json",
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  'claude-code': 'Claude Code',
};

const CARRIED = ['command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers'] as const;
/** Environment variables and headers whose literal values are secrets by their name. */
const SECRET_NAME = /(key|token|secret|passw(or)?d|auth|credential|cookie)/i;

/** A converted server, with the literal secrets it carried taken out of its settings entry. */
export interface ImportedServer extends ConvertedServer {
  /** `${input:ID}` ids the entry now uses, with the values to keep in secret storage. */
  readonly secrets: Readonly<Record<string, string>>;
}

export interface HostConfigConversion {
  readonly servers: readonly ImportedServer[];
  readonly problems: readonly string[];
}
/** Strings that carry variables in each host's own syntax. */
const VARIABLE = /\$\{([^}]*)\}/g;

/**
 * Converts one host's configuration file into `mcpHost.servers` entries, faithfully: the same
 * command, arguments, environment, URL and headers, with each host's variables rewritten into
 * MCP Host's (`${VAR}` of Claude Code → `${env:VAR}`; Cursor's are MCP Host's already). What
 * cannot be carried over is named per server, never silently dropped or changed.
 */
export function convertHostConfig(host: OtherHost, text: string): HostConfigConversion {
  if (host === 'vscode') {
    const converted: McpJsonConversion = convertVsCodeMcpJson(text);
    return { problems: converted.problems, servers: converted.servers.map((server) => ({ ...server, secrets: {} })) };
  }
  const errors: ParseError[] = [];
  const root = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) return { servers: [], problems: [`not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`] };
  const servers = (root as { mcpServers?: unknown } | undefined)?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return { servers: [], problems: ['it has no "mcpServers" object'] };
  return { servers: Object.entries(servers as Record<string, unknown>).map(([name, raw]) => convertServer(host, name, raw)), problems: [] };
}

function convertServer(host: Exclude<OtherHost, 'vscode'>, name: string, raw: unknown): ImportedServer {
  const id = safeServerId(name);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { id, entry: {}, skipped: [`"${name}" is not an object`], secrets: {} };
  const source = raw as Record<string, unknown>;
  const skipped: string[] = [];
  const blocking: string[] = [];
  const entry: Record<string, unknown> = {};
  for (const field of CARRIED) {
    if (source[field] !== undefined) entry[field] = translate(host, source[field], field, blocking);
  }
  // A server with one value MCP Host would read differently is left out whole: half a command line
  // would run something else.
  // Claude Code and Cursor name the transport; "streamable-http" and "http" are the same here.
  const type = source.type ?? source.transport;
  if (type === 'sse') entry.type = 'sse';
  else if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp') entry.type = 'http';
  else if (type !== undefined && type !== 'stdio') blocking.push(`"type": ${JSON.stringify(type)} is not a transport MCP Host knows`);
  if (blocking.length > 0) return { id, entry: {}, skipped: [...blocking.map((b) => `${b}; the server was not imported`), ...skipped], secrets: {} };
  const secrets = takeSecrets(id, entry);
  if (entry.command === undefined && entry.url === undefined) skipped.push('it has neither "command" nor "url"');
  if (source.disabled === true) entry.enabled = false;
  for (const field of Object.keys(source)) {
    if (!(CARRIED as readonly string[]).includes(field) && !['type', 'transport', 'disabled'].includes(field)) skipped.push(`"${field}" has no equivalent in MCP Host`);
  }
  return { id, entry: entry.command === undefined && entry.url === undefined ? {} : entry, skipped, secrets };
}

/** Literal secrets in `env` and `headers` become `${input:ID}`, their values kept apart. */
function takeSecrets(serverId: string, entry: Record<string, unknown>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const field of ['env', 'headers'] as const) {
    const values = entry[field] as Record<string, string | null> | undefined;
    for (const [name, value] of Object.entries(values ?? {})) {
      if (typeof value !== 'string' || value === '' || value.includes('${') || !SECRET_NAME.test(name)) continue;
      const inputId = `${serverId}.${name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
      secrets[inputId] = value;
      values![name] = `\${input:${inputId}}`;
    }
  }
  return secrets;
}

/** A field's value with its strings' variables in MCP Host's syntax; what cannot be goes to `blocking`. */
function translate(host: Exclude<OtherHost, 'vscode'>, value: unknown, field: string, blocking: string[]): unknown {
  if (typeof value === 'string') return translateString(host, value, field, blocking);
  if (Array.isArray(value)) return value.map((v, i) => translateString(host, String(v), `${field}[${i}]`, blocking));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, v === null ? null : translateString(host, String(v), `${field}.${key}`, blocking)]));
  }
  blocking.push(`"${field}" is not text`);
  return undefined;
}

function translateString(host: Exclude<OtherHost, 'vscode'>, text: string, field: string, blocking: string[]): string {
  let problem: string | undefined;
  const converted = text.replace(VARIABLE, (whole, inner: string) => {
    switch (host) {
      case 'claude-code': {
        // ${VAR} and ${VAR:-default}: environment variables; a default has no equivalent.
        const match = /^([A-Za-z_][A-Za-z0-9_]*)(:-.*)?$/.exec(inner);
        if (!match) problem = `"${field}" uses ${whole}, which MCP Host cannot read`;
        else if (match[2] !== undefined) problem = `"${field}" uses ${whole}: MCP Host has no default values for variables`;
        return match ? `\${env:${match[1]}}` : whole;
      }
      case 'cursor':
        if (/^(env:[A-Za-z_][A-Za-z0-9_]*|userHome|workspaceFolder|workspaceFolderBasename|pathSeparator)$/.test(inner)) return whole;
        problem = `"${field}" uses ${whole}, which MCP Host does not have`;
        return whole;
      case 'claude-desktop':
        // Claude Desktop has no variables: the text is literal, which MCP Host would read as one.
        problem = `"${field}" holds ${whole}, which MCP Host would read as a variable`;
        return whole;
    }
  });
  if (problem) blocking.push(problem);
  return converted;
}

/** The parts that make two entries the same server: what runs (program and arguments) or where it is. */
export interface ServerIdentity {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly url?: string;
}

/**
 * Whether two entries start the same server: the same URL (ignoring a trailing slash and the
 * case of the host), or the same program (by its file name, so `npx` and `/usr/bin/npx` agree)
 * with the same arguments.
 */
export function sameServer(a: ServerIdentity, b: ServerIdentity): boolean {
  if (a.url !== undefined || b.url !== undefined) return a.url !== undefined && b.url !== undefined && normalUrl(a.url) === normalUrl(b.url);
  if (a.command === undefined || b.command === undefined) return false;
  const program = (command: string) => command.split(/[\\/]/).pop()!.replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
  const argsA = a.args ?? [];
  const argsB = b.args ?? [];
  return program(a.command) === program(b.command) && argsA.length === argsB.length && argsA.every((arg, i) => arg === argsB[i]);
}

function normalUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}
