import { safeServerId } from './vscodeMcpJson';

/** What "MCP Host: Add Server…" can add. */
export type NewServerKind = 'npm' | 'pypi' | 'docker' | 'command' | 'http';

/** The answers of the Add Server flow. */
export interface NewServerAnswers {
  readonly kind: NewServerKind;
  /** The package, image, command line or URL. */
  readonly target: string;
  /** More arguments after the package or image, as a command line. */
  readonly extraArgs?: string;
  /** Environment variables (stdio) or one header (HTTP) whose values are secrets. */
  readonly secretNames?: readonly string[];
}

/** The program each kind runs, to look for on PATH before anything is written. */
export const RUNNERS: Readonly<Record<Exclude<NewServerKind, 'command' | 'http'>, string>> = {
  npm: 'npx',
  pypi: 'uvx',
  docker: 'docker',
};

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[^\s@/]+)?$/;
const PYPI_NAME =
  /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?(\[[A-Za-z0-9,._-]+\])?((==|>=|<=|~=|!=|>|<)[A-Za-z0-9.*+!_-]+)?$/;
const DOCKER_IMAGE =
  /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*(:[\w][\w.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why `text` cannot be what `kind` asks for, or undefined when it can. */
export function targetProblem(kind: NewServerKind, text: string): string | undefined {
  const value = text.trim();
  if (value === '')
    return kind === 'http'
      ? "Enter the server's URL."
      : kind === 'command'
        ? 'Enter the command that starts the server.'
        : `Enter the ${kind === 'docker' ? 'image' : 'package'} name.`;
  switch (kind) {
    case 'npm':
      return NPM_NAME.test(value)
        ? undefined
        : `"${value}" is not an npm package name (lower case, optionally @scope/ and @version, e.g. @modelcontextprotocol/server-everything).`;
    case 'pypi':
      return PYPI_NAME.test(value)
        ? undefined
        : `"${value}" is not a Python package name (letters, digits, ".", "_", "-", optionally ==version, e.g. mcp-server-fetch).`;
    case 'docker':
      return DOCKER_IMAGE.test(value)
        ? undefined
        : `"${value}" is not a Docker image reference (lower case, e.g. mcp/fetch or ghcr.io/owner/server:1.2).`;
    case 'command': {
      const parsed = splitCommandLine(value);
      return typeof parsed === 'string' ? parsed : undefined;
    }
    case 'http': {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return `"${value}" is not a URL (e.g. https://example.com/mcp).`;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return `"${url.protocol}" URLs cannot reach an MCP server: use https:// (or http:// on this machine).`;
      if (url.username || url.password)
        return 'Leave credentials out of the URL: MCP Host signs in to the server, or asks for a header below.';
      return undefined;
    }
  }
}

/** Why a list of secret names cannot be used, or undefined. */
export function secretNamesProblem(kind: NewServerKind, names: readonly string[]): string | undefined {
  const pattern = kind === 'http' ? HEADER_NAME : ENV_NAME;
  const bad = names.filter((n) => !pattern.test(n));
  if (kind === 'http' && names.length > 1) return 'Name one header (e.g. Authorization).';
  return bad.length === 0
    ? undefined
    : `Not ${kind === 'http' ? 'a header name' : 'an environment variable name'}: ${bad.join(', ')}.`;
}

/** The names typed in one box: separated by spaces or commas. */
export function parseNames(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((n) => n !== ''))];
}

/**
 * A command line split into words the way a POSIX shell would for plain words and quotes
 * ('…', "…", backslash escapes); a string says what is wrong (an unclosed quote).
 */
export function splitCommandLine(text: string): string[] | string {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return `The quote ${quote} is not closed.`;
  if (inWord) words.push(word);
  return words.length === 0 ? 'Enter the command that starts the server.' : words;
}

/** A server id for the entry, from the package, image, command or host, not among `taken`. */
export function suggestServerId(kind: NewServerKind, target: string, taken: ReadonlySet<string> = new Set()): string {
  const value = target.trim();
  let base: string;
  if (kind === 'http') {
    try {
      base = new URL(value).hostname.replace(/^(www|api|mcp)\./, '').replace(/\.[a-z]+$/, '');
    } catch {
      base = 'server';
    }
  } else if (kind === 'command') {
    const words = splitCommandLine(value);
    const program =
      typeof words === 'string'
        ? 'server'
        : (words.find((w, i) => i > 0 && !w.startsWith('-') && /[A-Za-z]/.test(w)) ?? words[0]);
    base = program
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(m?js|py|ts|exe)$/, '');
  } else {
    const withoutVersion =
      kind === 'npm'
        ? value.replace(/(.)@[^@/]*$/, '$1')
        : kind === 'pypi'
          ? value.replace(/[[=<>!~].*$/, '')
          : value.replace(/@sha256:.*$/, '').replace(/:[\w][\w.-]*$/, '');
    base = withoutVersion.split('/').pop()!;
  }
  const trimmed = base.replace(/^(mcp-server-|server-|mcp-)/, '').replace(/(-mcp-server|-mcp|-server)$/, '') || base;
  const id = safeServerId(trimmed.toLowerCase());
  if (!taken.has(id)) return id;
  for (let n = 2; ; n++) if (!taken.has(`${id}-${n}`)) return `${id}-${n}`;
}

/** The `mcpHost.servers` entry for the answers; secrets become `${input:<id>.<NAME>}`. */
export function newServerEntry(id: string, answers: NewServerAnswers): Record<string, unknown> {
  const target = answers.target.trim();
  const extra = answers.extraArgs?.trim() ? splitCommandLine(answers.extraArgs) : [];
  if (typeof extra === 'string') throw new Error(`The arguments cannot be read: ${extra}`);
  const problem = targetProblem(answers.kind, target);
  if (problem) throw new Error(problem);
  const secrets = answers.secretNames ?? [];
  const secretProblem = secretNamesProblem(answers.kind, secrets);
  if (secretProblem) throw new Error(secretProblem);
  const inputs = Object.fromEntries(secrets.map((name) => [name, `\${input:${id}.${name}}`]));
  const env = secrets.length ? { env: inputs } : {};
  switch (answers.kind) {
    case 'npm':
      return { command: RUNNERS.npm, args: ['-y', target, ...extra], ...env };
    case 'pypi':
      return { command: RUNNERS.pypi, args: [target, ...extra], ...env };
    case 'docker':
      // -i keeps stdin open (the server's stdio); each secret is passed through by name only.
      return {
        command: RUNNERS.docker,
        args: ['run', '-i', '--rm', ...secrets.flatMap((n) => ['-e', n]), target, ...extra],
        ...env,
      };
    case 'command': {
      const [command, ...args] = splitCommandLine(target) as string[];
      return { command, args: [...args, ...extra], ...env };
    }
    case 'http':
      return { url: target, ...(secrets.length ? { headers: inputs } : {}) };
  }
}
