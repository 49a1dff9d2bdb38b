import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** One server of VS Code's `.vscode/mcp.json`, converted to an `mcpHost.servers` entry. */
export interface ConvertedServer {
  readonly id: string;
  readonly entry: Record<string, unknown>;
  /** Fields that were left out, with why. */
  readonly skipped: readonly string[];
}

export interface McpJsonConversion {
  readonly servers: readonly ConvertedServer[];
  /** Problems with the file as a whole. */
  readonly problems: readonly string[];
}

// VS Code's server fields that mean the same here, with the same `${…}` variables.
const CARRIED = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers'] as const;
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Converts the `servers` of VS Code's `mcp.json` (JSON with comments) faithfully: the same
 * command, arguments, environment, URL and headers; `${input:ID}` keeps its id (MCP Host asks
 * once and keeps the value in secret storage). Ids this host cannot take are renamed, and what
 * cannot be carried over is named.
 */
export function convertVsCodeMcpJson(text: string): McpJsonConversion {
  const errors: ParseError[] = [];
  const root = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    return {
      servers: [],
      problems: [`not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`],
    };
  }
  const servers = (root as { servers?: unknown } | undefined)?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    return { servers: [], problems: ['it has no "servers" object'] };
  const converted: ConvertedServer[] = [];
  for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      converted.push({ id: safeServerId(name), entry: {}, skipped: [`"${name}" is not an object`] });
      continue;
    }
    const source = raw as Record<string, unknown>;
    const entry: Record<string, unknown> = {};
    for (const field of CARRIED) if (source[field] !== undefined) entry[field] = source[field];
    if (entry.type === 'stdio') delete entry.type;
    const skipped = Object.keys(source)
      .filter((field) => !(CARRIED as readonly string[]).includes(field))
      .map((field) => `"${field}" has no equivalent in MCP Host`);
    converted.push({ id: safeServerId(name), entry, skipped });
  }
  return { servers: converted, problems: [] };
}

/** A server name as an id MCP Host takes: the name itself, or with the characters it cannot take replaced. */
/** Whether `name` can be a server id as it is (letters, digits, ".", "_", "-"). */
export function isServerId(name: string): boolean {
  return ID.test(name);
}

export function safeServerId(name: string): string {
  if (ID.test(name)) return name;
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return cleaned === '' ? 'server' : cleaned;
}
