import { createHash } from 'node:crypto';
import { parseEnvFile } from './envFile';
import { plainPath } from './plainPath';
import { quoteArg, type ServerDefinition } from './serverDefinition';
import { displayContext, resolveString, type VariableContext } from './variableResolver';
import { spawnsProcess } from './transportKinds';

/**
 * One thing that decides what a server runs, as a consent dialog shows it. Values are shown as
 * written in settings (a `${env:…}` or `${input:…}` stays a placeholder), secrets masked.
 */
export interface RunField {
  /** `command`, `args`, `cwd`, `env.NAME`, `envFile`, `envFile.NAME`, `type`, `url`, `headers.NAME`. */
  readonly field: string;
  readonly shown: string;
  /** Why this field deserves a second look (it loads code or decides which programs run). */
  readonly warning?: string;
  /** Tells a change of a masked value apart without keeping the value. */
  readonly fingerprint: string;
}

/** A field that differs from what the user allowed before; `before`/`after` undefined when absent. */
export interface RunFieldChange {
  readonly field: string;
  readonly before?: string;
  readonly after?: string;
  readonly warning?: string;
}

// Variables through which an environment makes a process load code it was not asked to run,
// or find other programs than the ones named.
const CODE_LOADING: readonly [RegExp, string][] = [
  [/^PATH$/, 'decides which programs run'],
  [/^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*)$/, 'loads native code into the process'],
  [/^(NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|ELECTRON_RUN_AS_NODE)$/, 'loads code into Node.js'],
  [/^(PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONINSPECT)$/, 'loads code into Python'],
  [/^(PERL5OPT|PERL5LIB|PERLLIB)$/, 'loads code into Perl'],
  [/^(RUBYOPT|RUBYLIB)$/, 'loads code into Ruby'],
  [/^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH)$/, 'loads code into Java'],
  [/^(BASH_ENV|ENV|ZDOTDIR|PROMPT_COMMAND|SHELLOPTS|BASHOPTS)$/, 'runs code in shells'],
  [/^(GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_CONFIG_.*)$/, 'runs code through git'],
  [/^(npm_config_.*|NPM_CONFIG_.*)$/, 'changes what npm and npx install and run'],
];

const SECRET_NAME =
  /(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
const SECRET_VALUE = /^(sk-|ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|xox[abposr]-|AKIA|AIza|eyJ)|^[A-Za-z0-9+/_=-]{32,}$/;
const PLACEHOLDER_ONLY = /^(\$\{[^}]*\})+$/;

const SHELLS = /^(sh|bash|zsh|dash|ksh|fish|cmd|cmd\.exe|powershell|powershell\.exe|pwsh)$/i;
const ELEVATE = /^(sudo|doas|su|pkexec|runas)$/i;

/**
 * Why a command line deserves a second look before it runs (the specification's security best
 * practices ask a host to flag these): administrator rights, deleting files, a script downloaded
 * and run, a shell command line, a container with the host's rights, the whole home folder or
 * file system handed over. Undefined when nothing stands out.
 */
export function commandDanger(command: string, args: readonly string[]): string | undefined {
  const name = command.split(/[/\\]/).pop() ?? command;
  const line = [name, ...args].join(' ');
  const found: string[] = [];
  if (ELEVATE.test(name) || /(^|[\s;&|])(sudo|doas|pkexec)\s/.test(args.join(' ')))
    found.push('runs with administrator rights');
  if (
    /(^|[\s;&|])rm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r|--recursive)/.test(line) ||
    (name === 'rm' && args.some((a) => /^-[a-zA-Z]*r/.test(a)))
  )
    found.push('deletes files');
  if (/\b(curl|wget|iwr|Invoke-WebRequest)\b[^|]*\|\s*(sudo\s+)?(sh|bash|zsh|python3?|node|iex)\b/.test(line))
    found.push('runs a script it downloads');
  else if (SHELLS.test(name) && args.some((a) => /^(-c|\/c|-Command|-EncodedCommand)$/i.test(a)))
    found.push('runs a shell command line');
  if (
    /^(docker|podman)$/.test(name) &&
    args.some((a) => /^--(privileged|network=host|pid=host)$/.test(a) || a === 'host')
  )
    found.push("runs a container with the host's rights");
  if (args.some((a) => /^(~|\$HOME|\$\{userHome\}|\/|\/home|\/Users|[A-Za-z]:\\?)\/?$/.test(a)))
    found.push('is given your whole home folder or file system');
  return found.length ? found.join('; ') : undefined;
}

/** Why a server's URL deserves a second look: plain `http://` to a host that is not this machine. */
export function urlDanger(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // a URL made of variables is checked once they are resolved
  }
  const local = /^(localhost|127(\.\d+){3}|\[::1\])$/i.test(parsed.hostname);
  return parsed.protocol === 'http:' && !local
    ? 'not encrypted: plain http:// to a host that is not this machine'
    : undefined;
}

export function codeLoadingWarning(name: string): string | undefined {
  return CODE_LOADING.find(([pattern]) => pattern.test(name))?.[1];
}

/** Masks a value that looks like a secret; a value made only of `${…}` placeholders holds none. */
export function maskedValue(name: string, value: string): string {
  if (PLACEHOLDER_ONLY.test(value)) return value;
  if (SECRET_NAME.test(name) || SECRET_VALUE.test(value)) return `•••••• (hidden, ${value.length} characters)`;
  return value;
}

function fingerprint(value: string | null): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

function field(name: string, value: string | null, shown: string, warning?: string): RunField {
  return { field: name, shown, fingerprint: fingerprint(value), ...(warning ? { warning } : {}) };
}

function envField(prefix: string, name: string, value: string | null, shownWhenSafe: (v: string) => string): RunField {
  const warning = codeLoadingWarning(name);
  // A variable that loads code is shown in full, whatever it looks like: it is what to check.
  const shown = value === null ? '(removed)' : warning ? value : shownWhenSafe(value);
  return field(`${prefix}.${name}`, value, shown, warning);
}

/**
 * Everything that decides what a server runs, for consent: command, args, cwd, every env key,
 * the env file and the keys it sets; for URLs the transport, URL and header names. Reads the
 * env file (its contents come from the repository too).
 */
export async function summarizeWhatRuns(def: ServerDefinition, ctx: VariableContext): Promise<RunField[]> {
  if (!spawnsProcess(def.transport)) {
    return [
      field('type', def.transport, def.transport),
      field('url', def.url ?? '', def.url ?? '', urlDanger(def.url ?? '')),
      // Header values are credentials more often than not: names shown, a change still noticed.
      ...Object.entries(def.headers).map(([name, value]) =>
        field(`headers.${name}`, value, PLACEHOLDER_ONLY.test(value) ? value : '(value hidden)'),
      ),
    ];
  }
  const fields = [
    field(
      'command',
      def.command ?? '',
      def.command ?? '',
      [commandDanger(def.command ?? '', def.args), /[/\\]/.test(def.command ?? '') ? undefined : 'looked up on PATH']
        .filter(Boolean)
        .join('; ') || undefined,
    ),
    field('args', JSON.stringify(def.args), def.args.length ? def.args.map(quoteArg).join(' ') : '(none)'),
    field(
      'cwd',
      def.cwd ?? null,
      def.cwd === undefined
        ? '(the workspace folder)'
        : withResolved(def.cwd, await resolvedForDisplay(def.cwd, 'cwd', def, ctx)),
    ),
    // Shown when set, so a workspace that drops its sandbox is asked about again.
    ...(def.sandbox
      ? [
          field(
            'sandbox',
            JSON.stringify(def.sandbox),
            `on${Object.keys(def.sandbox).length ? `: ${JSON.stringify(def.sandbox)}` : ''}`,
          ),
        ]
      : []),
  ];
  if (def.envFile !== undefined) fields.push(...(await envFileFields(def, ctx)));
  for (const [name, value] of Object.entries(def.env).sort(([a], [b]) => a.localeCompare(b))) {
    const resolved = value === null ? undefined : await resolvedForDisplay(value, `env.${name}`, def, ctx);
    fields.push(envField('env', name, value, (v) => withResolved(maskedValue(name, v), resolved)));
  }
  return fields;
}

/** A value's `${workspaceFolder}`, `${userHome}` … resolved, when it has such variables (not `${input:}` or `${env:}`, which may hold secrets). */
async function resolvedForDisplay(
  value: string,
  name: string,
  def: ServerDefinition,
  ctx: VariableContext,
): Promise<string | undefined> {
  if (!/\$\{(?!input:|env:)[^}]+\}/.test(value) || /\$\{(input|env):/.test(value)) return undefined;
  try {
    const resolved = plainPath(await resolveString(value, name, def, displayContext(ctx)));
    return resolved === value ? undefined : resolved;
  } catch {
    return undefined;
  }
}

/** A shown value with what it resolves to beside it: `${workspaceFolder}/data (= /home/me/app/data)`. */
function withResolved(shown: string, resolved: string | undefined): string {
  return resolved === undefined || shown.startsWith('••') ? shown : `${shown} (= ${resolved})`;
}

async function envFileFields(def: ServerDefinition, ctx: VariableContext): Promise<RunField[]> {
  const written = def.envFile!;
  let text: string;
  try {
    const file = await resolveString(written, 'envFile', def, displayContext(ctx));
    text = await ctx.readFile(file);
  } catch (error) {
    return [field('envFile', written, `${written} (cannot be read: ${(error as Error).message})`)];
  }
  const values = parseEnvFile(text);
  const names = Object.keys(values).sort((a, b) => a.localeCompare(b));
  return [
    field('envFile', written, `${written} (sets ${names.length === 0 ? 'nothing' : names.join(', ')})`),
    // Keys only: an env file is where secrets usually live.
    ...names.map((name) => envField('envFile', name, values[name], () => '(set by the file)')),
  ];
}

/** What differs between the fields the user allowed and the ones that would run now. */
export function changedFields(before: readonly RunField[], after: readonly RunField[]): RunFieldChange[] {
  const old = new Map(before.map((f) => [f.field, f]));
  const changes: RunFieldChange[] = [];
  for (const now of after) {
    const was = old.get(now.field);
    old.delete(now.field);
    if (was?.fingerprint === now.fingerprint) continue;
    const sameShown = was !== undefined && was.shown === now.shown;
    changes.push({
      field: now.field,
      before: was === undefined ? undefined : sameShown ? `${was.shown} (an earlier value)` : was.shown,
      after: now.shown,
      ...(now.warning ? { warning: now.warning } : {}),
    });
  }
  for (const was of old.values())
    changes.push({ field: was.field, before: was.shown, ...(was.warning ? { warning: was.warning } : {}) });
  return changes;
}
