import type { ValidateFunction } from 'ajv';
import { ajvLibrary } from '../lazyLibraries';

/**
 * What MCP Host reads of the MCP Registry's API (`GET /v0/servers`, `/v0/servers/{name}/versions`,
 * OpenAPI "MCP Server Registry API"): a server's `server.json` and the registry's metadata.
 * Only the fields the Add Server flow uses are typed; the rest is kept as the registry sent it.
 */
export interface RegistryInput {
  readonly description?: string;
  readonly isRequired?: boolean;
  readonly format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** A fixed value (not for the user to change); `{name}` refers to `variables`. */
  readonly value?: string;
  readonly isSecret?: boolean;
  readonly default?: string;
  readonly placeholder?: string;
  readonly choices?: readonly string[];
  readonly variables?: Readonly<Record<string, RegistryInput>>;
}

export interface RegistryArgument extends RegistryInput {
  readonly type: 'positional' | 'named';
  /** The flag, with its dashes (named arguments). */
  readonly name?: string;
  /** What a positional argument is, for the user (positional arguments). */
  readonly valueHint?: string;
  readonly isRepeated?: boolean;
}

/** An environment variable or a header. */
export interface RegistryKeyValue extends RegistryInput {
  readonly name: string;
}

export interface RegistryTransport {
  readonly type: 'stdio' | 'streamable-http' | 'sse';
  readonly url?: string;
  readonly headers?: readonly RegistryKeyValue[];
  /** URL variables (remotes). */
  readonly variables?: Readonly<Record<string, RegistryInput>>;
}

export interface RegistryPackage {
  readonly registryType: string;
  readonly registryBaseUrl?: string;
  readonly identifier: string;
  readonly version?: string;
  readonly runtimeHint?: string;
  readonly transport: RegistryTransport;
  readonly runtimeArguments?: readonly RegistryArgument[];
  readonly packageArguments?: readonly RegistryArgument[];
  readonly environmentVariables?: readonly RegistryKeyValue[];
}

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** One version of a server, as a registry lists it. */
export interface RegistryServer {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly version: string;
  readonly websiteUrl?: string;
  readonly repositoryUrl?: string;
  readonly packages: readonly RegistryPackage[];
  readonly remotes: readonly RegistryTransport[];
  /** The official registry's metadata, when the registry sends it. */
  readonly status?: RegistryStatus;
  readonly statusMessage?: string;
  readonly isLatest?: boolean;
  readonly publishedAt?: string;
}

export interface RegistryPage {
  readonly servers: readonly RegistryServer[];
  /** Where the next page starts, when there is one. */
  readonly nextCursor?: string;
  /** Entries left out because they do not have the shape of a server.json. */
  readonly skipped: number;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

const input = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    isRequired: { type: 'boolean' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    value: { type: 'string' },
    isSecret: { type: 'boolean' },
    default: { type: 'string' },
    placeholder: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
    variables: { type: 'object', additionalProperties: { $ref: '#/$defs/input' } },
  },
};
const keyValue = {
  allOf: [{ $ref: '#/$defs/input' }],
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 } },
};
const argument = {
  allOf: [{ $ref: '#/$defs/input' }],
  required: ['type'],
  properties: {
    type: { enum: ['positional', 'named'] },
    name: { type: 'string' },
    valueHint: { type: 'string' },
    isRepeated: { type: 'boolean' },
  },
  if: { properties: { type: { const: 'named' } } },
  then: { required: ['name'] },
};
const transport = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['stdio', 'streamable-http', 'sse'] },
    url: { type: 'string' },
    headers: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
    variables: { type: 'object', additionalProperties: { $ref: '#/$defs/input' } },
  },
};
/** A `ServerResponse` of the registry's OpenAPI, as far as MCP Host relies on it. */
const serverResponse = {
  type: 'object',
  required: ['server'],
  properties: {
    server: {
      type: 'object',
      required: ['name', 'description', 'version'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        title: { type: 'string' },
        description: { type: 'string' },
        version: { type: 'string', minLength: 1 },
        websiteUrl: { type: 'string' },
        repository: { type: 'object', properties: { url: { type: 'string' } } },
        packages: {
          type: 'array',
          items: {
            type: 'object',
            required: ['registryType', 'identifier', 'transport'],
            properties: {
              registryType: { type: 'string' },
              registryBaseUrl: { type: 'string' },
              identifier: { type: 'string', minLength: 1 },
              version: { type: 'string' },
              runtimeHint: { type: 'string' },
              transport: { $ref: '#/$defs/transport' },
              runtimeArguments: { type: 'array', items: { $ref: '#/$defs/argument' } },
              packageArguments: { type: 'array', items: { $ref: '#/$defs/argument' } },
              environmentVariables: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
            },
          },
        },
        remotes: {
          type: 'array',
          items: {
            allOf: [{ $ref: '#/$defs/transport' }],
            required: ['url'],
            properties: { type: { enum: ['streamable-http', 'sse'] } },
          },
        },
      },
    },
    _meta: { type: 'object' },
  },
  $defs: { input, keyValue, argument, transport },
};

// Compiled with the first response, not when the extension loads: a compile costs tens of ms of
// CPU at every window open, and the registry is browsed rarely.
let validResponse: ValidateFunction | undefined;

interface RawResponse {
  server: Omit<RegistryServer, 'packages' | 'remotes' | 'repositoryUrl' | 'status'> & {
    packages?: RegistryPackage[];
    remotes?: RegistryTransport[];
    repository?: { url?: string };
  };
  _meta?: Record<string, unknown>;
}

/** One `ServerResponse`, or undefined when it does not have the shape of one. */
export function parseServerResponse(value: unknown): RegistryServer | undefined {
  validResponse ??= new (ajvLibrary().Ajv)({ strict: false, allErrors: false }).compile(serverResponse);
  if (!validResponse(value)) return undefined;
  const { server, _meta } = value as unknown as RawResponse;
  const official = (_meta?.[OFFICIAL] ?? {}) as Record<string, unknown>;
  const status = ['active', 'deprecated', 'deleted'].includes(official.status as string)
    ? (official.status as RegistryStatus)
    : undefined;
  return {
    name: server.name,
    title: server.title,
    description: server.description,
    version: server.version,
    websiteUrl: server.websiteUrl,
    repositoryUrl: server.repository?.url,
    packages: server.packages ?? [],
    remotes: server.remotes ?? [],
    status,
    statusMessage: typeof official.statusMessage === 'string' ? official.statusMessage : undefined,
    isLatest: typeof official.isLatest === 'boolean' ? official.isLatest : undefined,
    publishedAt: typeof official.publishedAt === 'string' ? official.publishedAt : undefined,
  };
}

/**
 * A `ServerList`: its servers (deleted ones left out; entries of another shape counted, not
 * fatal) and the cursor of the next page. Undefined when it is not a server list at all.
 */
export function parseServerList(value: unknown): RegistryPage | undefined {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { servers?: unknown }).servers))
    return undefined;
  const list = value as { servers: unknown[]; metadata?: { nextCursor?: unknown; next_cursor?: unknown } };
  const servers: RegistryServer[] = [];
  let skipped = 0;
  for (const entry of list.servers) {
    const server = parseServerResponse(entry);
    if (!server) skipped++;
    else if (server.status !== 'deleted') servers.push(server);
  }
  // The generic API's older examples spell it next_cursor.
  const cursor = list.metadata?.nextCursor ?? list.metadata?.next_cursor;
  return { servers, nextCursor: typeof cursor === 'string' && cursor !== '' ? cursor : undefined, skipped };
}
