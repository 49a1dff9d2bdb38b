/** Whether `command` (as resolved) is Node.js itself, which takes `--inspect`. */
export function isNodeCommand(command: string): boolean {
  return /^node(\.exe)?$/i.test(command.split(/[\\/]/).pop() ?? '');
}

/**
 * The arguments of a Node server in dev mode with `debug`: the inspector on a loopback port the
 * system picks (two servers never collide, and nothing listens beyond this machine).
 */
export function withInspector(command: string, args: readonly string[]): readonly string[] {
  return isNodeCommand(command) && !args.some((a) => /^--inspect(-brk)?(=|$)/.test(a))
    ? ['--inspect=127.0.0.1:0', ...args]
    : args;
}

/** The inspector's address from Node's stderr line ("Debugger listening on ws://…"), if it is one. */
export function inspectorAddress(line: string): string | undefined {
  return /^Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)\s*$/.exec(line)?.[1];
}
