import type { ErrorObject, ValidateFunction } from 'ajv';
import packageJson from '../../../package.json';
import packageNls from '../../../package.nls.json';
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_DEV_DEBOUNCE_MS,
  DEFAULT_ELICITATIONS_PER_MINUTE,
  DEFAULT_RESTART,
  DEFAULT_SAMPLING_POLICY,
  DEFAULT_START_TIMEOUT_MS,
  type DevSettings,
  type OAuthSettings,
  type SamplingPolicy,
  type SandboxSettings,
  type ServerDefinition,
  type ServerSettingsEntry,
  type TransportKind,
} from './serverDefinition';
import { variablesProblem } from './variableSyntax';
import { validate as generatedValidator } from './serverEntrySchema.generated';
import { shownText } from '../shownText';

/** A settings problem that names the server and the field, so the user can find and fix it. */
export class ServerConfigError extends Error {
  constructor(
    readonly serverId: string,
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    // An id is echoed as the user may read it: bounded, its control characters visible.
    const id = shownText(serverId, [], MAX_ID_SHOWN);
    super(field ? `MCP server "${id}": "${field}" ${problem}` : `MCP server "${id}": ${problem}`);
    this.name = 'ServerConfigError';
  }
}

/** A definition that needs an `${input:ID}` value the user has not given (dismissed, or gave none). */
export class MissingInputError extends ServerConfigError {
  constructor(
    serverId: string,
    field: string,
    problem: string,
    readonly inputId: string,
  ) {
    super(serverId, field, problem);
    this.name = 'MissingInputError';
  }
}

export type EntryValidation =
  | { readonly ok: true; readonly definition: ServerDefinition }
  | { readonly ok: false; readonly error: ServerConfigError };

const serversSchema = packageJson.contributes.configuration.properties['mcpHost.servers'];
const ID_PATTERN = new RegExp(serversSchema.propertyNames.pattern);
/** The longest id a server may have (it names tools, commands and files). */
export const MAX_ID_LENGTH = 128;
/** How much of an id an error echoes. */
const MAX_ID_SHOWN = 80;

// The schema contributed in package.json is the one source of truth: IntelliSense and validation
// agree. Its validator is compiled at build time (scripts/generate-validators.mjs), not at every
// window open.
const validateEntrySchema = generatedValidator as unknown as ValidateFunction;
const KNOWN_FIELDS = Object.keys(serversSchema.additionalProperties.properties);

export function validateServerEntry(entry: ServerSettingsEntry): EntryValidation {
  const fail = (field: string | undefined, problem: string): EntryValidation => ({
    ok: false,
    error: new ServerConfigError(entry.id, field, problem),
  });
  if (entry.id.length > MAX_ID_LENGTH)
    return fail(undefined, `the id is ${entry.id.length} characters long; use at most ${MAX_ID_LENGTH}`);
  if (!ID_PATTERN.test(entry.id)) {
    return fail(
      undefined,
      'the id may only use letters, digits, "_", "." and "-", and must start with a letter or digit',
    );
  }
  const raw = entry.raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail(undefined, `must be an object with "command" or "url" (got ${describeValue(raw)})`);
  }
  if (!validateEntrySchema(raw)) {
    const first = pickMostUseful(validateEntrySchema.errors ?? []);
    return fail(fieldOf(first), explain(first, raw));
  }
  const value = raw as Record<string, unknown>;
  for (const field of ['env', 'headers'] as const) {
    const names = value[field];
    if (names && typeof names === 'object' && Object.prototype.hasOwnProperty.call(names, '__proto__'))
      return fail(
        `${field}.__proto__`,
        'is a name MCP Host cannot pass on (in JavaScript it would change the object instead of adding a value); rename it',
      );
  }
  for (const [field, text] of settingStrings(value)) {
    const problem = variablesProblem(text);
    if (problem) return fail(field, problem);
  }
  const transport = inferTransport(value);
  if (transport === 'stdio') {
    if (typeof value.command !== 'string')
      return fail('command', 'is required for a stdio server (or set "url" for an HTTP server)');
    if (value.url !== undefined) return fail('url', 'cannot be combined with "command"; use one or the other');
    for (const field of ['headers', 'oauth'] as const)
      if (value[field] !== undefined) return fail(field, 'only applies to HTTP servers ("url")');
  } else {
    if (typeof value.url !== 'string') return fail('url', `is required when "type" is "${transport}"`);
    // Variables may hide any part of the URL; the full check runs after they are resolved.
    if (!/^(https?:\/\/|\$\{)/i.test(value.url))
      return fail('url', `must be an http:// or https:// URL (got "${value.url}")`);
    for (const field of ['command', 'args', 'env', 'envFile', 'cwd', 'sandbox', 'dev', 'share'] as const) {
      if (value[field] !== undefined)
        return fail(field, `only applies to stdio servers ("command"), not to type "${transport}"`);
    }
  }
  const restart = (value.restart ?? {}) as Partial<typeof DEFAULT_RESTART>;
  return {
    ok: true,
    definition: {
      id: entry.id,
      scope: entry.scope,
      folder: entry.folder,
      origin: entry.origin,
      transport,
      command: value.command as string | undefined,
      args: (value.args as string[] | undefined) ?? [],
      env: (value.env as Record<string, string | null> | undefined) ?? {},
      envFile: value.envFile as string | undefined,
      cwd: value.cwd as string | undefined,
      url: value.url as string | undefined,
      headers: (value.headers as Record<string, string> | undefined) ?? {},
      oauth: value.oauth as OAuthSettings | undefined,
      enabled: (value.enabled as boolean | undefined) ?? true,
      autoStart:
        value.autoStart === undefined
          ? (entry.autoStartDefault ?? 'startup')
          : value.autoStart === 'onDemand'
            ? 'onDemand'
            : value.autoStart === false
              ? 'never'
              : 'startup',
      requestTimeoutMs: (value.requestTimeoutMs as number | undefined) ?? DEFAULT_REQUEST_TIMEOUT_MS,
      startTimeoutMs: (value.startTimeoutMs as number | undefined) ?? DEFAULT_START_TIMEOUT_MS,
      maxTotalTimeoutMs: (value.maxTotalTimeoutMs as number | undefined) ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      roots: value.roots as string[] | undefined,
      apps: (value.apps as boolean | undefined) ?? true,
      publish: (value.publish as boolean | undefined) ?? true,
      sandbox: value.sandbox === true ? {} : ((value.sandbox || undefined) as SandboxSettings | undefined),
      share: value.share === 'machine' ? 'machine' : 'window',
      restart: { ...DEFAULT_RESTART, ...restart },
      toolPolicy: {
        autoApprove: (value.autoApprove as string[] | undefined) ?? [],
        trusted: (value.trusted as boolean | undefined) ?? false,
      },
      samplingPolicy: samplingPolicyOf(value.sampling as Partial<SamplingPolicy> | undefined),
      elicitationsPerMinute:
        (value.elicitation as { maxRequestsPerMinute?: number } | undefined)?.maxRequestsPerMinute ??
        DEFAULT_ELICITATIONS_PER_MINUTE,
      limits: value.limits as ServerDefinition['limits'],
      healthCheck: value.healthCheck as ServerDefinition['healthCheck'],
      dev: devOf(value.dev as { watch?: string[]; debounceMs?: number; debug?: boolean } | undefined),
    },
  };
}

function devOf(dev: { watch?: string[]; debounceMs?: number; debug?: boolean } | undefined): DevSettings | undefined {
  if (!dev || (!dev.watch?.length && !dev.debug)) return undefined;
  return { watch: dev.watch ?? [], debounceMs: dev.debounceMs ?? DEFAULT_DEV_DEBOUNCE_MS, debug: dev.debug ?? false };
}

/** Every string of an entry that may hold variables, with the field that names it in errors. */
function settingStrings(value: Record<string, unknown>): [string, string][] {
  const found: [string, string][] = [];
  for (const field of ['command', 'envFile', 'cwd', 'url'] as const)
    if (typeof value[field] === 'string') found.push([field, value[field] as string]);
  for (const field of ['args', 'roots'] as const)
    (value[field] as string[] | undefined)?.forEach((text, i) => found.push([`${field}[${i}]`, text]));
  for (const field of ['env', 'headers'] as const) {
    for (const [name, text] of Object.entries((value[field] as Record<string, unknown> | undefined) ?? {}))
      if (typeof text === 'string') found.push([`${field}.${name}`, text]);
  }
  const sandbox = value.sandbox as { filesystem?: Record<string, unknown> } | undefined;
  for (const [name, list] of Object.entries(sandbox?.filesystem ?? {}))
    (list as string[]).forEach((text, i) => found.push([`sandbox.filesystem.${name}[${i}]`, text]));
  const oauth = value.oauth as Record<string, unknown> | undefined;
  for (const [name, text] of Object.entries(oauth ?? {}))
    if (typeof text === 'string') found.push([`oauth.${name}`, text]);
  for (const [name, text] of Object.entries((oauth?.idp as Record<string, unknown> | undefined) ?? {}))
    if (typeof text === 'string') found.push([`oauth.idp.${name}`, text]);
  return found;
}

function samplingPolicyOf(sampling: Partial<SamplingPolicy> = {}): SamplingPolicy {
  const mode = sampling.mode ?? DEFAULT_SAMPLING_POLICY.mode;
  return {
    mode,
    models: sampling.models ?? [],
    // Asking first implies reviewing the answer; allowing always implies not, unless set.
    reviewResponse: sampling.reviewResponse ?? mode === 'ask',
    maxRequestsPerMinute: sampling.maxRequestsPerMinute,
  };
}

function inferTransport(value: Record<string, unknown>): TransportKind {
  if (value.type === 'stdio' || value.type === 'http' || value.type === 'sse') return value.type;
  return value.url !== undefined && value.command === undefined ? 'http' : 'stdio';
}

export function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

// Unknown fields and type errors say more than the anyOf/format noise ajv also reports.
function pickMostUseful(errors: readonly ErrorObject[]): ErrorObject {
  const rank = (e: ErrorObject) =>
    e.keyword === 'additionalProperties' ? 0 : e.keyword === 'type' ? 1 : e.keyword === 'anyOf' ? 3 : 2;
  // An `anyOf` value that took the object branch is wrong inside it: errors about the value as a
  // whole (the branches it did not take) give way to errors deeper in it.
  const deepest = errors.filter((e) => !errors.some((o) => o.instancePath.startsWith(`${e.instancePath}/`)));
  const best = [...deepest].sort((a, b) => rank(a) - rank(b))[0];
  if (best.keyword !== 'type') return best;
  // A value that matched no branch of an `anyOf` of types: name them all ("a boolean or an object").
  const types = errors
    .filter((e) => e.keyword === 'type' && e.instancePath === best.instancePath)
    .map((e) => String(e.params.type));
  return { ...best, params: { ...best.params, type: [...new Set(types)].join(',') } };
}

function fieldOf(error: ErrorObject): string | undefined {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  if (segments.length === 0) return undefined;
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
    '',
  );
}

function explain(error: ErrorObject, raw: object): string {
  const actual = valueAt(raw, error.instancePath);
  if (error.propertyName !== undefined) {
    const why =
      error.keyword === 'maxLength'
        ? `longer than ${error.params.limit} characters`
        : error.keyword === 'pattern'
          ? 'characters that are not allowed there'
          : (error.message ?? 'not allowed');
    return `has an entry named ${describeValue(error.propertyName)}: ${why}`;
  }
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      const elsewhere = error.instancePath === '' ? OTHER_HOSTS_FIELDS[name] : undefined;
      if (elsewhere) return `is not a known field; ${elsewhere}`;
      const suggestion = error.instancePath === '' ? closest(name, KNOWN_FIELDS) : undefined;
      return `is not a known field${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`;
    }
    case 'type':
      return `must be ${article(String(error.params.type))} (got ${describeValue(actual)})${typeHint(error.instancePath, actual)}`;
    case 'enum': {
      // Other hosts' name for Streamable HTTP (Cline's "streamableHttp", "streamable-http").
      const streamable =
        error.instancePath === '/type' && typeof actual === 'string' && /^streamable[-_ ]?http$/i.test(actual);
      return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(actual)})${streamable ? '; Streamable HTTP is "http"' : ''}`;
    }
    case 'minimum':
    case 'maximum':
    case 'minLength':
      return `${error.message} (got ${describeValue(actual)})`;
    // Never echo an oversized value: it may be megabytes.
    case 'maxLength':
      return `must be at most ${error.params.limit} characters long (got ${(actual as string).length})`;
    case 'maxItems':
      return `may list at most ${error.params.limit} items (got ${(actual as unknown[]).length})`;
    case 'maxProperties':
      return `may have at most ${error.params.limit} entries (got ${Object.keys(actual as object).length})`;
    case 'propertyNames':
      return `has a name that is not allowed (${describeValue(error.params.propertyName)})`;
    case 'pattern': {
      if (error.instancePath === '/url') return `must be an http:// or https:// URL (got ${describeValue(actual)})`;
      // The schema's own wording (what IntelliSense shows), where it has one.
      const wording = (error.parentSchema as { patternErrorMessage?: string } | undefined)?.patternErrorMessage;
      return `${wording ? localised(wording) : error.message} (got ${describeValue(actual)})`;
    }
    case 'format':
      return `must be a valid ${error.params.format} (got ${describeValue(actual)})`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Fields other hosts' settings have, copied into MCP Host's: what MCP Host calls them. */
const OTHER_HOSTS_FIELDS: Readonly<Record<string, string>> = {
  serverUrl: 'the address of an HTTP server goes in "url"',
  disabled: 'write "enabled": false to turn a server off',
  transport: '"type" names the transport ("stdio", "http" or "sse")',
  alwaysAllow: 'list the tools that run without asking in "autoApprove"',
  timeout: '"requestTimeoutMs" says how long a request may take, in milliseconds',
};

/** How to write a command line that came as one string or one array, in "command" and "args". */
function typeHint(pointer: string, actual: unknown): string {
  if (pointer === '/command' && Array.isArray(actual))
    return '; put the program in "command" and its arguments in "args"';
  if (pointer === '/args' && typeof actual === 'string') {
    const words = actual.trim().split(/\s+/);
    return /["'`\\]/.test(actual) || words[0] === ''
      ? '; list the arguments one by one'
      : `; list the arguments one by one: ${JSON.stringify(words)}`;
  }
  return '';
}

/** A manifest text as `package.nls.json` words it (`%key%`), or the text itself. */
function localised(text: string): string {
  const key = /^%(.+)%$/.exec(text)?.[1];
  return (key && (packageNls as Record<string, string>)[key]) || text;
}

function valueAt(root: object, pointer: string): unknown {
  let current: unknown = root;
  for (const segment of pointer.split('/').slice(1)) {
    current = (current as Record<string, unknown> | undefined)?.[segment];
  }
  return current;
}

function article(type: string): string {
  const names = type.split(',');
  return names.map((n) => (n === 'array' || n === 'object' || n === 'integer' ? `an ${n}` : `a ${n}`)).join(' or ');
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
