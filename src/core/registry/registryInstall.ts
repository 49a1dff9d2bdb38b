import { RUNNERS, splitCommandLine } from '../config/newServerEntry';
import { variablesProblem } from '../config/variableSyntax';
import type {
  RegistryArgument,
  RegistryInput,
  RegistryKeyValue,
  RegistryPackage,
  RegistryServer,
  RegistryTransport,
} from './registryServer';

/** One way to run a registry server: one of its packages or remotes, or why MCP Host cannot. */
export interface InstallChoice {
  readonly label: string;
  readonly detail: string;
  readonly source:
    | { readonly kind: 'package'; readonly pkg: RegistryPackage }
    | { readonly kind: 'remote'; readonly remote: RegistryTransport };
  /** Set when this way cannot be written as an `mcpHost.servers` entry. */
  readonly unsupported?: string;
}

/** A value the user gives: an argument, an environment variable, a header or a URL variable. */
export interface InstallField {
  /** Unique within one choice. */
  readonly key: string;
  /** The name the user knows it by (`GITHUB_TOKEN`, `--port`, `directory`). */
  readonly label: string;
  readonly where: 'argument' | 'environment variable' | 'header' | 'URL variable';
  readonly description?: string;
  readonly required: boolean;
  readonly secret: boolean;
  readonly default?: string;
  readonly placeholder?: string;
  readonly choices?: readonly string[];
  readonly format: 'string' | 'number' | 'boolean' | 'filepath';
  /** Several values, separated by spaces (quotes as in a shell). */
  readonly repeated: boolean;
}

/** The entry to write, and the secrets to keep (by `${input:}` id) before it is written. */
export interface RegistryEntry {
  readonly entry: Record<string, unknown>;
  readonly secrets: Readonly<Record<string, string>>;
}

/** The ways `server` can run, packages first, each with what it needs or why it cannot. */
export function installChoices(server: RegistryServer): InstallChoice[] {
  const packages = server.packages.map((pkg): InstallChoice => {
    const runner = runnerOf(pkg);
    const unsupported =
      pkg.transport.type !== 'stdio'
        ? `it runs its own ${pkg.transport.type} server on this machine; start it yourself and add its URL`
        : !runner
          ? `MCP Host cannot run ${pkg.registryType} packages yet; add its command with "Command"`
          : fixedValueProblem(pkgInputs(pkg));
    return {
      label: `${pkg.registryType} ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`,
      detail: runner ? `runs with ${runner} over stdio` : `a ${pkg.registryType} package`,
      source: { kind: 'package', pkg },
      unsupported,
    };
  });
  const remotes = server.remotes.map((remote): InstallChoice => ({
    label: `${remote.type === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'} ${remote.url}`,
    detail: 'a remote server',
    source: { kind: 'remote', remote },
    unsupported: fixedValueProblem([
      { name: 'url', value: remote.url, variables: remote.variables },
      ...(remote.headers ?? []),
    ]),
  }));
  return [...packages, ...remotes];
}

/** What the user is asked for `choice`: every input without a fixed value, and the variables of fixed ones. */
export function installFields(choice: InstallChoice): InstallField[] {
  const fields: InstallField[] = [];
  const add = (key: string, label: string, where: InstallField['where'], input: RegistryInput, repeated = false) => {
    if (input.value !== undefined) {
      for (const [name, variable] of Object.entries(input.variables ?? {})) {
        if (variable.value === undefined && input.value.includes(`{${name}}`))
          add(`${key}{${name}}`, name, where, variable);
      }
      return;
    }
    fields.push({
      key,
      label,
      where,
      description: input.description,
      required: input.isRequired === true,
      secret: input.isSecret === true,
      default: input.default,
      placeholder: input.placeholder,
      choices: input.choices?.length ? input.choices : undefined,
      format: input.format ?? 'string',
      repeated,
    });
  };
  if (choice.source.kind === 'package') {
    const { pkg } = choice.source;
    for (const [list, args] of [
      ['runtime', pkg.runtimeArguments],
      ['package', pkg.packageArguments],
    ] as const) {
      (args ?? []).forEach((arg, i) =>
        add(`${list}.${i}`, argumentLabel(arg), 'argument', arg, arg.isRepeated === true),
      );
    }
    for (const env of pkg.environmentVariables ?? []) add(`env.${env.name}`, env.name, 'environment variable', env);
  } else {
    const { remote } = choice.source;
    add('url', 'url', 'URL variable', { value: remote.url, variables: remote.variables });
    for (const header of remote.headers ?? []) add(`header.${header.name}`, header.name, 'header', header);
  }
  return fields;
}

/** Why an answer to `field` cannot be used, or undefined. */
export function answerProblem(field: InstallField, answer: string): string | undefined {
  const value = answer.trim();
  if (value === '') return field.required ? `${field.label} is required.` : undefined;
  if (field.choices && !field.choices.includes(value)) return `${field.label} is one of: ${field.choices.join(', ')}.`;
  if (field.format === 'number' && !Number.isFinite(Number(value))) return `${field.label} is a number.`;
  if (field.format === 'boolean' && value !== 'true' && value !== 'false') return `${field.label} is true or false.`;
  if (field.repeated && typeof splitCommandLine(value) === 'string') return splitCommandLine(value) as string;
  // A secret's value goes to the secret storage as it is; anything else is read by settings.
  if (!field.secret) {
    const problem = variablesProblem(value);
    if (problem) return `${field.label} ${problem}.`;
  }
  return undefined;
}

/**
 * The `mcpHost.servers` entry for `choice` with the user's `answers` (by field key). Secrets
 * become `${input:<id>.<name>}`, their values returned to be stored; optional fields left empty
 * are left out. Throws, naming the field, when a required one has no answer.
 */
export function registryEntry(
  id: string,
  choice: InstallChoice,
  answers: Readonly<Record<string, string>>,
): RegistryEntry {
  if (choice.unsupported) throw new Error(`${choice.label} cannot be added: ${choice.unsupported}.`);
  const fields = new Map(installFields(choice).map((f) => [f.key, f]));
  const secrets: Record<string, string> = {};
  /** The answer to a field, or the `${input:}` that will hold it; undefined when left empty. */
  const answer = (key: string): string | undefined => {
    const field = fields.get(key)!;
    const given = (answers[key] ?? field.default ?? '').trim();
    const problem = answerProblem(field, given);
    if (problem) throw new Error(problem);
    if (given === '') return undefined;
    if (!field.secret) return given;
    const inputId = `${id}.${field.label.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[-_.]+/, '')}`;
    secrets[inputId] = given;
    return `\${input:${inputId}}`;
  };
  /** A fixed value with its `{variables}` filled in. */
  const fixed = (key: string, input: RegistryInput): string =>
    input.value!.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const variable = input.variables?.[name];
      if (!variable) return whole;
      return variable.value ?? answer(`${key}{${name}}`) ?? '';
    });
  const valueOf = (key: string, input: RegistryInput): string | undefined =>
    input.value !== undefined ? fixed(key, input) : answer(key);

  if (choice.source.kind === 'remote') {
    const { remote } = choice.source;
    const headers = Object.fromEntries(
      (remote.headers ?? []).flatMap((h) => {
        const value = valueOf(`header.${h.name}`, h);
        return value === undefined ? [] : [[h.name, value]];
      }),
    );
    return {
      entry: {
        url: fixed('url', { value: remote.url, variables: remote.variables }),
        ...(remote.type === 'sse' ? { type: 'sse' } : {}),
        ...(Object.keys(headers).length ? { headers } : {}),
      },
      secrets,
    };
  }

  const { pkg } = choice.source;
  const args = (list: 'runtime' | 'package', items: readonly RegistryArgument[] | undefined) =>
    (items ?? []).flatMap((arg, i) => {
      const value = valueOf(`${list}.${i}`, arg);
      if (arg.type === 'positional')
        return value === undefined
          ? []
          : arg.isRepeated && arg.value === undefined
            ? (splitCommandLine(value) as string[])
            : [value];
      if (value === undefined) return [];
      if (arg.format === 'boolean' && arg.value === undefined) return value === 'true' ? [arg.name!] : [];
      return [arg.name!, value];
    });
  const env = Object.fromEntries(
    (pkg.environmentVariables ?? []).flatMap((e) => {
      const value = valueOf(`env.${e.name}`, e);
      return value === undefined ? [] : [[e.name, value]];
    }),
  );
  const runtime = args('runtime', pkg.runtimeArguments);
  const packageArgs = args('package', pkg.packageArguments);
  const runner = runnerOf(pkg)!;
  let commandArgs: string[];
  switch (pkg.registryType) {
    case 'npm':
      commandArgs = [
        '-y',
        ...registryFlag('--registry', pkg.registryBaseUrl, 'https://registry.npmjs.org'),
        ...runtime,
        pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier,
        ...packageArgs,
      ];
      break;
    case 'pypi':
      commandArgs = [
        ...registryFlag('--index-url', pkg.registryBaseUrl, 'https://pypi.org'),
        ...runtime,
        pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier,
        ...packageArgs,
      ];
      break;
    default:
      // -i keeps the container's stdin (the server's stdio) open; environment variables pass by name.
      commandArgs = [
        'run',
        '-i',
        '--rm',
        ...runtime,
        ...Object.keys(env).flatMap((name) => ['-e', name]),
        ociImage(pkg),
        ...packageArgs,
      ];
  }
  return { entry: { command: runner, args: commandArgs, ...(Object.keys(env).length ? { env } : {}) }, secrets };
}

function runnerOf(pkg: RegistryPackage): string | undefined {
  if (pkg.registryType === 'npm') return RUNNERS.npm;
  if (pkg.registryType === 'pypi') return RUNNERS.pypi;
  if (pkg.registryType === 'oci' || pkg.registryType === 'docker') return RUNNERS.docker;
  return undefined;
}

function argumentLabel(arg: RegistryArgument): string {
  return arg.type === 'named' ? arg.name! : (arg.valueHint ?? 'argument');
}

function pkgInputs(pkg: RegistryPackage): RegistryInput[] {
  return [...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? []), ...(pkg.environmentVariables ?? [])];
}

/**
 * A fixed value from the registry that MCP Host's settings would read as a variable (`${env:…}`
 * in a header would send the user's environment to the server): refused, not written.
 */
function fixedValueProblem(inputs: readonly (RegistryInput | RegistryKeyValue)[]): string | undefined {
  const all = (input: RegistryInput): string[] => [
    input.value ?? '',
    ...Object.values(input.variables ?? {}).flatMap(all),
  ];
  const bad = inputs.flatMap(all).find((v) => v.includes('${'));
  return bad === undefined
    ? undefined
    : `its fixed value "${bad}" has a "\${", which settings would read as a variable; add it by hand`;
}

function registryFlag(flag: string, url: string | undefined, official: string): string[] {
  return url && url.replace(/\/+$/, '') !== official ? [flag, url] : [];
}

/** The image reference: the identifier with its tag or digest, else with `:version`. */
function ociImage(pkg: RegistryPackage): string {
  const last = pkg.identifier.split('/').pop()!;
  const tagged = last.includes(':') || pkg.identifier.includes('@sha256:');
  let image = tagged || !pkg.version ? pkg.identifier : `${pkg.identifier}:${pkg.version}`;
  const host = pkg.registryBaseUrl ? URL.parse(pkg.registryBaseUrl)?.host : undefined;
  if (host && host !== 'docker.io' && !image.startsWith(`${host}/`)) image = `${host}/${image}`;
  return image;
}
