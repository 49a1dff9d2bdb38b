import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { ConvertedServer, McpJsonConversion } from './vscodeMcpJson';
import { convertVsCodeMcpJson, safeServerId } from './vscodeMcpJson';
import { programName } from './serverDefinition';

/** The hosts whose MCP configuration files MCP Host can import. */
export type OtherHost =
  | 'vscode'
  | 'claude-desktop'
  | 'cursor'
  | 'claude-code'
  | 'copilot-cli'
  | 'gemini-cli'
  | 'windsurf'
  | 'cline'
  | 'codex'
  | 'zed';

export const HOST_NAMES: Readonly<Record<OtherHost, string>> = {
  vscode: "VS Code's mcp.json",
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  'claude-code': 'Claude Code',
  'copilot-cli': 'Copilot CLI',
  'gemini-cli': 'Gemini CLI',
  windsurf: 'Windsurf',
  cline: 'Cline',
  codex: 'Codex',
  zed: 'Zed',
};

const GENERAL_SETTINGS: ReadonlySet<OtherHost> = new Set(['gemini-cli', 'codex', 'zed']);

/** Where each host keeps its servers in its file, and how one of its entries reads as a common one. */
const SERVERS_KEY: Readonly<Record<Exclude<OtherHost, 'vscode'>, string>> = {
  'claude-desktop': 'mcpServers',
  cursor: 'mcpServers',
  'claude-code': 'mcpServers',
  'copilot-cli': 'mcpServers',
  'gemini-cli': 'mcpServers',
  windsurf: 'mcpServers',
  cline: 'mcpServers',
  codex: 'mcp_servers',
  zed: 'context_servers',
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
  if (host === 'vscode') return convertVsCode(text);
  let root: unknown;
  if (host === 'codex') {
    try {
      root = parseToml(text);
    } catch (error) {
      return { servers: [], problems: [`not valid TOML: ${(error as Error).message.split('\n')[0]}`] };
    }
  } else {
    const errors: ParseError[] = [];
    root = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
    if (errors.length > 0)
      return {
        servers: [],
        problems: [`not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`],
      };
  }
  const key = SERVERS_KEY[host];
  const servers = (root as Record<string, unknown> | undefined)?.[key];
  // VS Code 1.140 writes a workspace's servers to .mcp.json in its own shape ("servers"), where Claude Code's has "mcpServers".
  if (
    host === 'claude-code' &&
    servers === undefined &&
    typeof (root as { servers?: unknown } | undefined)?.servers === 'object'
  )
    return convertVsCode(text);
  // A general settings file (Gemini CLI's, Codex's, Zed's) without servers is no problem: it has none.
  if (servers === undefined && GENERAL_SETTINGS.has(host)) return { servers: [], problems: [] };
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    return { servers: [], problems: [`it has no "${key}" ${host === 'codex' ? 'table' : 'object'}`] };
  return {
    servers: Object.entries(servers as Record<string, unknown>).map(([name, raw]) =>
      convertServer(host, name, commonEntry(host, raw)),
    ),
    problems: [],
  };
}

function convertVsCode(text: string): HostConfigConversion {
  const converted: McpJsonConversion = convertVsCodeMcpJson(text);
  return { problems: converted.problems, servers: converted.servers.map((server) => ({ ...server, secrets: {} })) };
}

/**
 * A host's entry in the fields the others share (`command`, `args`, `env`, `url`, `headers`,
 * `type`): Gemini CLI's `httpUrl` (Streamable HTTP) and `url` (SSE), Windsurf's `serverUrl`,
 * Copilot CLI's `"type": "local"`, Codex's `bearer_token_env_var`, Zed's `command` object.
 * Fields that mean nothing here are left for `convertServer` to name.
 */
function commonEntry(host: Exclude<OtherHost, 'vscode'>, raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const entry: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  switch (host) {
    case 'gemini-cli':
      if (entry.httpUrl !== undefined) Object.assign(entry, { url: entry.httpUrl, type: 'http', httpUrl: undefined });
      else if (entry.url !== undefined && entry.type === undefined) entry.type = 'sse';
      break;
    case 'windsurf':
      if (entry.serverUrl !== undefined) Object.assign(entry, { url: entry.serverUrl, serverUrl: undefined });
      break;
    case 'copilot-cli':
      if (entry.type === 'local') entry.type = 'stdio';
      // "tools": ["*"] (every tool) is what MCP Host does anyway.
      if (Array.isArray(entry.tools) && entry.tools.length === 1 && entry.tools[0] === '*') entry.tools = undefined;
      break;
    case 'codex':
      if (typeof entry.bearer_token_env_var === 'string') {
        entry.headers = {
          ...(entry.http_headers as object | undefined),
          Authorization: `Bearer \${env:${entry.bearer_token_env_var}}`,
        };
        Object.assign(entry, { bearer_token_env_var: undefined, http_headers: undefined });
      } else if (entry.http_headers !== undefined)
        Object.assign(entry, { headers: entry.http_headers, http_headers: undefined });
      break;
    case 'zed': {
      const command = entry.command as { path?: unknown; args?: unknown; env?: unknown } | undefined;
      if (typeof command === 'object' && command !== null)
        Object.assign(entry, { command: command.path, args: command.args, env: command.env ?? entry.env });
      // "source": "custom" says the user wrote it; an extension's server runs only in Zed.
      if (entry.source === 'custom') entry.source = undefined;
      break;
    }
  }
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}

function convertServer(host: Exclude<OtherHost, 'vscode'>, name: string, raw: unknown): ImportedServer {
  const id = safeServerId(name);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { id, entry: {}, skipped: [`"${name}" is not an object`], secrets: {} };
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
  else if (type !== undefined && type !== 'stdio')
    blocking.push(`"type": ${JSON.stringify(type)} is not a transport MCP Host knows`);
  if (blocking.length > 0)
    return {
      id,
      entry: {},
      skipped: [...blocking.map((b) => `${b}; the server was not imported`), ...skipped],
      secrets: {},
    };
  const secrets = takeSecrets(id, entry);
  if (entry.command === undefined && entry.url === undefined) skipped.push('it has neither "command" nor "url"');
  if (source.disabled === true) entry.enabled = false;
  for (const field of Object.keys(source)) {
    if (!(CARRIED as readonly string[]).includes(field) && !['type', 'transport', 'disabled'].includes(field))
      skipped.push(`"${field}" has no equivalent in MCP Host`);
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
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, v]) => [
        key,
        v === null ? null : translateString(host, String(v), `${field}.${key}`, blocking),
      ]),
    );
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
        else if (match[2] !== undefined)
          problem = `"${field}" uses ${whole}: MCP Host has no default values for variables`;
        return match ? `\${env:${match[1]}}` : whole;
      }
      case 'cursor':
        if (/^(env:[A-Za-z_][A-Za-z0-9_]*|userHome|workspaceFolder|workspaceFolderBasename|pathSeparator)$/.test(inner))
          return whole;
        problem = `"${field}" uses ${whole}, which MCP Host does not have`;
        return whole;
      case 'windsurf':
        if (/^env:[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) return whole;
        problem = `"${field}" uses ${whole}, which MCP Host does not have`;
        return whole;
      case 'codex':
        // Codex reads its files literally; ${env:NAME} is what bearer_token_env_var became above.
        if (/^env:[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) return whole;
        problem = `"${field}" holds ${whole}, which MCP Host would read as a variable`;
        return whole;
      case 'copilot-cli':
      case 'gemini-cli': {
        const name = /^[A-Za-z_][A-Za-z0-9_]*$/.exec(inner);
        if (!name) problem = `"${field}" uses ${whole}, which MCP Host cannot read`;
        return name ? `\${env:${inner}}` : whole;
      }
      case 'claude-desktop':
      case 'cline':
      case 'zed':
        // These hosts have no variables: the text is literal, which MCP Host would read as one.
        problem = `"${field}" holds ${whole}, which MCP Host would read as a variable`;
        return whole;
    }
  });
  // Gemini CLI also expands $VAR without braces.
  if (host === 'gemini-cli' && /\$[A-Za-z_]/.test(converted))
    return converted.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, '\${env:$1}');
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
  if (a.url !== undefined || b.url !== undefined)
    return a.url !== undefined && b.url !== undefined && normalUrl(a.url) === normalUrl(b.url);
  if (a.command === undefined || b.command === undefined) return false;
  const argsA = a.args ?? [];
  const argsB = b.args ?? [];
  return (
    programName(a.command) === programName(b.command) &&
    argsA.length === argsB.length &&
    argsA.every((arg, i) => arg === argsB[i])
  );
}

function normalUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}
