import { execFile } from 'node:child_process';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { programName } from '../config/serverDefinition';

/** The command is not on PATH: say where we looked, never a bare ENOENT. */
export class CommandNotFoundError extends Error {
  constructor(
    readonly command: string,
    readonly searchedPath: string,
    /** The program and its arguments, when "command" holds a whole command line whose program exists. */
    readonly commandLine?: { readonly program: string; readonly args: readonly string[] },
  ) {
    super(
      commandLine
        ? `command \`${command}\` not found: "command" names the program alone and "args" its arguments; write "command": ${JSON.stringify(commandLine.program)}, "args": ${JSON.stringify(commandLine.args)}`
        : path.isAbsolute(command) || command.includes('/') || command.includes('\\')
          ? `command \`${command}\` not found or not executable`
          : `command \`${command}\` not found (searched PATH: ${searchedPath || '(empty)'}). ${installAdvice(command)}, or set "command" to its full path.`,
    );
    this.name = 'CommandNotFoundError';
  }

  /** The few words for the server's row: the program, and what to install when it is a known one. */
  get inFewWords(): string {
    if (this.commandLine) return `"command" has arguments: move them to "args"`;
    if (path.isAbsolute(this.command) || /[\\/]/.test(this.command))
      return `${this.command} not found or not executable`;
    const from = providerOf(this.command);
    return from ? `${this.command} not found: install ${from.name}` : `${this.command} not found on PATH`;
  }
}

/** What provides the programs servers are most often started with, and where to get it. */
const PROVIDERS: Record<string, { readonly name: string; readonly url: string }> = {
  uv: { name: 'uv', url: 'https://docs.astral.sh/uv/' },
  node: { name: 'Node.js', url: 'https://nodejs.org' },
  bun: { name: 'Bun', url: 'https://bun.sh' },
  deno: { name: 'Deno', url: 'https://deno.com' },
  docker: { name: 'Docker', url: 'https://docs.docker.com/get-docker/' },
  podman: { name: 'Podman', url: 'https://podman.io' },
  python: { name: 'Python', url: 'https://www.python.org' },
  pipx: { name: 'pipx', url: 'https://pipx.pypa.io' },
};
/** Programs another provides (`uvx` comes with uv); any other is its own provider's name. */
const PROVIDED_BY: Record<string, string> = { uvx: 'uv', npx: 'node', npm: 'node', bunx: 'bun', python3: 'python' };

function providerOf(command: string): { readonly name: string; readonly url: string } | undefined {
  const program = programName(command);
  const provider = Object.hasOwn(PROVIDED_BY, program) ? PROVIDED_BY[program] : program;
  return Object.hasOwn(PROVIDERS, provider) ? PROVIDERS[provider] : undefined;
}

/** "Install it", or what provides a known program and where to get it. */
function installAdvice(command: string): string {
  const from = providerOf(command);
  if (!from) return 'Install it';
  return from.name.toLowerCase() === programName(command)
    ? `Install ${from.name} (${from.url})`
    : `Install ${from.name} (${from.url}), which provides it`;
}

const MARKER = '__MCP_HOST_PATH__';

/**
 * Finds executables the way the user's terminal would. Editors started from a desktop launcher
 * inherit a minimal PATH, so on macOS and Linux we ask the login shell once for its PATH.
 */
export class ExecutableResolver {
  private loginPath?: Promise<string>;

  constructor(
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly shellTimeoutMs = 5_000,
  ) {}

  /** The PATH children should get: the login shell's, plus anything only the editor had. */
  searchPath(): Promise<string> {
    this.loginPath ??= this.readLoginShellPath().then((login) =>
      mergePaths(login, this.env.PATH ?? '', this.delimiter),
    );
    return this.loginPath;
  }

  async resolve(command: string, cwd: string | undefined, pathValue?: string): Promise<string> {
    const searched = pathValue ?? (await this.searchPath());
    const found = await this.find(command, cwd, searched);
    if (found) return found;
    // A whole command line in "command" (`npx -y some-server`), whose program exists: say how to split it.
    const [program, ...args] = command.trim().split(/\s+/);
    const splits = args.length > 0 && !/["'`\\]/.test(command) && (await this.find(program, cwd, searched));
    throw new CommandNotFoundError(command, searched, splits ? { program, args } : undefined);
  }

  private async find(command: string, cwd: string | undefined, searched: string): Promise<string | undefined> {
    if (command.includes('/') || (this.platform === 'win32' && command.includes('\\'))) {
      const candidate = path.resolve(cwd ?? process.cwd(), command);
      return (await this.isExecutable(candidate)) ? candidate : undefined;
    }
    const extensions =
      this.platform === 'win32' ? ['', ...(this.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
    for (const dir of searched.split(this.delimiter)) {
      if (dir === '') continue;
      for (const ext of extensions) {
        const candidate = path.join(dir, command + ext);
        if (await this.isExecutable(candidate)) return candidate;
      }
    }
    return undefined;
  }

  private get delimiter(): string {
    return this.platform === 'win32' ? ';' : ':';
  }

  private async isExecutable(file: string): Promise<boolean> {
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) return false;
      if (this.platform !== 'win32') await fs.access(file, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  }

  private readLoginShellPath(): Promise<string> {
    const shell = this.env.SHELL;
    if (this.platform === 'win32' || !shell) return Promise.resolve('');
    return new Promise((resolve) => {
      // Markers fence PATH from anything the user's profile prints.
      execFile(
        shell,
        ['-ilc', `printf '%s' "${MARKER}\${PATH}${MARKER}"`],
        { timeout: this.shellTimeoutMs, env: { ...this.env, TERM: 'dumb' } as NodeJS.ProcessEnv },
        (_error, stdout) => {
          const match = new RegExp(`${MARKER}(.*)${MARKER}`, 's').exec(String(stdout ?? ''));
          resolve(match ? match[1] : '');
        },
      ).stdin?.end();
    });
  }
}

function mergePaths(first: string, second: string, delimiter: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...first.split(delimiter), ...second.split(delimiter)]) {
    if (dir !== '' && !seen.has(dir)) {
      seen.add(dir);
      out.push(dir);
    }
  }
  return out.join(delimiter);
}
