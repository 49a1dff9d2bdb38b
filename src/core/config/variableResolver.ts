import { MissingInputError, parseHttpUrl, ServerConfigError } from './validateServerEntry';
import type {
  FolderRef,
  OAuthSettings,
  SandboxSettings,
  ResolvedRoot,
  ResolvedServerDefinition,
  ServerDefinition,
} from './serverDefinition';
import { parseEnvFile } from './envFile';
import { holdsShellVariable, unknownVariable, VARIABLE } from './variableSyntax';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';

/** What `${...}` variables resolve against. The editor supplies it; tests build it by hand. */
export interface VariableContext {
  readonly workspaceFolders: readonly FolderRef[];
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Asks for (or recalls) the secret value of `${input:ID}`; rejects when the user gives none. */
  input(id: string, serverId: string): Promise<string>;
  readFile(filePath: string): Promise<string>;
}

/** Resolves every variable in a definition. Errors name the server and the field. */
export async function resolveDefinition(
  def: ServerDefinition,
  ctx: VariableContext,
): Promise<ResolvedServerDefinition> {
  const resolve = (value: string, field: string) => resolveString(value, field, def, ctx);
  const args: string[] = [];
  for (const [i, arg] of def.args.entries()) args.push(await resolve(arg, `args[${i}]`));

  const env: Record<string, string | null> = {};
  if (def.envFile !== undefined) {
    const file = await resolve(def.envFile, 'envFile');
    let text: string;
    try {
      text = await ctx.readFile(file);
    } catch (error) {
      throw new ServerConfigError(def.id, 'envFile', `cannot be read: ${(error as Error).message}`);
    }
    Object.assign(env, parseEnvFile(text));
  }
  for (const [name, value] of Object.entries(def.env)) {
    env[name] = value === null ? null : await resolve(value, `env.${name}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(def.headers)) headers[name] = await resolve(value, `headers.${name}`);
  // Read from the values as written, never as resolved: a value read from the environment stays unseen.
  const unexpanded = [
    ...Object.entries(def.env).flatMap(([name, value]) =>
      value !== null && holdsShellVariable(value) ? [`env.${name}`] : [],
    ),
    ...Object.entries(def.headers).flatMap(([name, value]) => (holdsShellVariable(value) ? [`headers.${name}`] : [])),
  ];

  let roots: ResolvedRoot[] | undefined;
  if (def.roots !== undefined) {
    roots = [];
    for (const [i, root] of def.roots.entries()) roots.push(toRoot(await resolve(root, `roots[${i}]`)));
  }
  const oauth = def.oauth && (await resolveOAuth(def.oauth, resolve));
  const sandbox = def.sandbox && (await resolveSandbox(def.sandbox, resolve));
  const url = def.url !== undefined ? await resolve(def.url, 'url') : undefined;
  if (url !== undefined && parseHttpUrl(url) === undefined) {
    throw new ServerConfigError(
      def.id,
      'url',
      `must be an http:// or https:// URL once variables are resolved (got "${def.url}")`,
    );
  }
  const cwd = def.cwd !== undefined ? await resolve(def.cwd, 'cwd') : defaultCwd(def, ctx);
  return {
    ...def,
    command: def.command !== undefined ? await resolve(def.command, 'command') : undefined,
    args,
    env,
    envFile: def.envFile,
    cwd,
    url,
    headers,
    oauth,
    sandbox,
    roots,
    ...(unexpanded.length ? { unexpanded } : {}),
  };
}

/** The `sandbox` object with its paths resolved (`~` stays for the sandbox runtime to expand). */
async function resolveSandbox(
  sandbox: SandboxSettings,
  resolve: (value: string, field: string) => Promise<string>,
): Promise<SandboxSettings> {
  const filesystem: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(sandbox.filesystem ?? {})) {
    filesystem[name] = [];
    for (const [i, text] of (list as readonly string[]).entries())
      filesystem[name].push(await resolve(text, `sandbox.filesystem.${name}[${i}]`));
  }
  return { ...sandbox, filesystem };
}

/** The `oauth` object with its strings resolved (secrets usually come from `${input:}`). */
async function resolveOAuth(
  oauth: OAuthSettings,
  resolve: (value: string, field: string) => Promise<string>,
): Promise<OAuthSettings> {
  const text = async (value: string | undefined, field: string) =>
    value === undefined ? undefined : resolve(value, `oauth.${field}`);
  return {
    ...oauth,
    clientId: await text(oauth.clientId, 'clientId'),
    clientSecret: await text(oauth.clientSecret, 'clientSecret'),
    clientMetadataUrl: await text(oauth.clientMetadataUrl, 'clientMetadataUrl'),
    privateKey: await text(oauth.privateKey, 'privateKey'),
    assertion: await text(oauth.assertion, 'assertion'),
    assertionFile: await text(oauth.assertionFile, 'assertionFile'),
    idp: oauth.idp && {
      tokenEndpoint: await resolve(oauth.idp.tokenEndpoint, 'oauth.idp.tokenEndpoint'),
      clientId: await resolve(oauth.idp.clientId, 'oauth.idp.clientId'),
      clientSecret: await text(oauth.idp.clientSecret, 'idp.clientSecret'),
      idToken: await resolve(oauth.idp.idToken, 'oauth.idp.idToken'),
    },
  };
}

/** Replaces variables in one string; `${input:...}` values are fetched through the context. */
export async function resolveString(
  value: string,
  field: string,
  def: ServerDefinition,
  ctx: VariableContext,
): Promise<string> {
  const replacements = new Map<string, string>();
  for (const match of value.matchAll(VARIABLE)) {
    const name = match[1];
    if (!replacements.has(name)) replacements.set(name, await resolveVariable(name, field, def, ctx));
  }
  return value.replace(VARIABLE, (_, name: string) => replacements.get(name) ?? '');
}

async function resolveVariable(
  name: string,
  field: string,
  def: ServerDefinition,
  ctx: VariableContext,
): Promise<string> {
  const fail = (problem: string): never => {
    throw new ServerConfigError(def.id, field, problem);
  };
  if (name === 'workspaceFolder') {
    return defaultFolder(def, ctx)?.path ?? fail('uses ${workspaceFolder} but no folder is open');
  }
  if (name.startsWith('workspaceFolder:')) {
    const folderName = name.slice('workspaceFolder:'.length);
    const folder = ctx.workspaceFolders.find((f) => f.name === folderName);
    return folder?.path ?? fail(`uses \${${name}} but no open folder is named "${folderName}"`);
  }
  if (name === 'workspaceFolderBasename') {
    return defaultFolder(def, ctx)?.name ?? fail('uses ${workspaceFolderBasename} but no folder is open');
  }
  if (name === 'userHome') return ctx.userHome;
  if (name === 'pathSeparator') return path.sep;
  if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? '';
  if (name.startsWith('input:')) {
    const id = name.slice(6);
    if (id.length === 0) fail('uses ${input:} without an id');
    try {
      return await ctx.input(id, def.id);
    } catch (error) {
      throw new MissingInputError(def.id, field, `needs \${input:${id}}: ${(error as Error).message}`, id);
    }
  }
  return fail(unknownVariable(name));
}

/**
 * Where a stdio server runs when its settings do not say: its workspace folder, else the first
 * one. A user server shared between windows runs in the home folder, the same for every window
 * (the first folder would differ from window to window, and so would the process).
 */
function defaultCwd(def: ServerDefinition, ctx: VariableContext): string | undefined {
  if (def.share === 'machine' && !def.folder) return ctx.userHome;
  return defaultFolder(def, ctx)?.path;
}

function defaultFolder(def: ServerDefinition, ctx: VariableContext): FolderRef | undefined {
  return def.folder ?? ctx.workspaceFolders[0];
}

function toRoot(value: string): ResolvedRoot {
  const uri = value.startsWith('file://') ? value : pathToFileURL(path.resolve(value)).toString();
  const name = decodeURIComponent(uri.replace(/\/+$/, '').split('/').pop() ?? uri);
  return { uri, name };
}

/** A context for showing a definition: secrets stay as their `${input:ID}` placeholders. */
export function displayContext(ctx: Omit<VariableContext, 'input'>): VariableContext {
  return { ...ctx, input: async (id) => `\${input:${id}}`, readFile: async () => '' };
}
