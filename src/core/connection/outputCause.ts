// What a failed server's output says about why: the line that says why, in few words for its row
// or beside its last lines for its reason. Read from what launchers and runtimes print: npm's and
// uv's reports, stacks, Python's exception groups, loggers' tags and levels.
import { safeUrl } from './safeUrl';

const TAIL_IN_REASON = 3;
const LINE_IN_REASON = 200;

/**
 * ` (last output: …)` with the last few stderr lines; when the line that says why (see
 * {@link causeLine}) is earlier than those, ` (cause: …)` with that line instead. Or nothing.
 */
export function lastOutput(tail: readonly string[], already = ''): string {
  const last = tail.slice(-TAIL_IN_REASON);
  const cause = causeLine(tail);
  const engine = cause === undefined ? undefined : engineNote(tail, cause);
  if (cause !== undefined && (engine || (!last.includes(cause) && !already.includes(cause.trim()))))
    return ` (cause: ${engine ?? ''}${shorten(withoutLeadIn(cause.trim()))}; the whole output is in the server's log)`;
  const lines = last.map(shorten).filter((line) => !already.includes(line));
  return lines.length === 0 ? '' : ` (last output: ${lines.join(' ⏎ ')})`;
}

/**
 * The line of a failed server's output that says why, in a few words for its row: without a bare
 * `error:` in front (the row says "error" already), and a package npm could not find named as
 * such. Undefined when no line says why.
 */
export function outputCause(tail: readonly string[]): string | undefined {
  const uv = tail.map((l) => UV_NOT_FOUND.exec(l)).find((match) => match !== null);
  if (uv) return shorten(`no Python package "${uv[1]}"`);
  const line = causeLine(tail)?.trim();
  if (line === undefined) return undefined;
  const engine = engineNote(tail, line);
  if (engine) return shorten(`${engine}${line}`);
  const npm = NPM_LINE.exec(line);
  if (npm) {
    const missing = /^404 Not Found - GET (\S+)/.exec(npm[1]);
    const name = missing && packageOf(missing[1]);
    return shorten(name ? `no npm package "${name}"` : `npm: ${npm[1]}`);
  }
  // A logger's tags go (`[Redis Error] Error: …`), and a program named by its whole path
  // (`/usr/bin/python3: No module named x`) is named by its file.
  const named = line.replace(LEADING_TAGS, '').replace(/^\/\S*\/([^/\s:]+):\s/, '$1: ');
  // The row says "error" already: a bare `error:`, or a logger's level in capitals, goes.
  return shorten(withoutLeadIn(named.replace(/^error:\s*/i, '').replace(/^(?:ERROR|FATAL)\b:?\s+/, '') || named));
}

/**
 * A cause without the words that only lead into the lines after it (`Could not locate the bindings
 * file. Tried:`, then the paths): the row and the reason end with the sentence that says why.
 */
const withoutLeadIn = (line: string) => /^(.*[.!?])\s+[^.!?]*:$/.exec(line)?.[1] ?? line;

const shorten = (line: string) => (line.length > LINE_IN_REASON ? `${line.slice(0, LINE_IN_REASON)}…` : line);

/** A line of npm's (and so npx's) error report: `npm error …` (npm 10 and later) or `npm ERR! …`. */
const NPM_LINE = /^\s*npm (?:error|ERR!)\s?(.*)$/;
/**
 * npm's lines around the cause: its code, errno and syscall, bare status lines, advice, the log's
 * path, and an error's stack and fields (`at …`, `{`, `port: 9,`).
 */
const NPM_FRAME =
  /^(?:code|errno|syscall|path|dest)\b|^\d{3}\s*$|^\d{3} (?:Note that|tarball, folder)|^A complete log of this run|^$|^at\s|^[{}]$|^\w+: (?:'[^']*'|\d+|\w+),?$/;

/**
 * The line that says why a process failed: for npm's report (npx could not fetch the package), its
 * first line that is not framing (`404 Not Found - GET …`, `network request to … failed`); otherwise
 * the last line that looks like an error (a runtime's stack and version come after the message; a
 * Python exception group's frame left out);
 * otherwise the last line that asks for something or says what is missing (`Please provide a
 * personal access token …`).
 */
function causeLine(output: readonly string[]): string | undefined {
  const tail = output.map((line) => line.replace(EXCEPTION_GROUP_FRAME, ''));
  const npm = tail.find((line) => {
    const match = NPM_LINE.exec(line);
    return match !== null && !NPM_FRAME.test(match[1].trim());
  });
  const latestFirst = [...tail].reverse();
  return npm ?? latestFirst.find(looksLikeError) ?? latestFirst.find(saysWhatIsMissing);
}

/**
 * A line that asks for something or says what is missing or wrong, in the words programs use when
 * they refuse to start without an error's name (`Please set API_KEY`, `SLACK_TOKEN is required`,
 * `Missing --token`, `Invalid number of arguments`, `@acme/server is deprecated.`). Only read when
 * no line looks like an error; Node's and npm's own warnings are never the cause.
 */
function saysWhatIsMissing(line: string): boolean {
  return (
    /\bplease (?:provide|set|specify|pass|supply|add|configure|install|run)\b|\b(?:is|are) (?:required|missing|not set|not defined|not configured|deprecated)\b|^\s*(?:missing|invalid)\b|\b(?:unable to|could not|couldn't|cannot|can't|failed to)\b|\bno such file\b|\bpermission denied\b/i.test(
      line,
    ) && !/^\s*(?:\(node:\d+\)|npm (?:warn|WARN|notice))/.test(line)
  );
}

/**
 * The package a registry URL names: its last path segment, where a scoped name is one segment
 * (`https://registry.npmjs.org/@scope%2fname` → `@scope/name`; a registry may sit under a path).
 */
function packageOf(url: string): string | undefined {
  const segment = safeUrl(url)?.pathname.split('/').filter(Boolean).at(-1);
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * A line that states an error (`Error: …`, `ModuleNotFoundError: …`, `error: …`, `fatal: …`,
 * `panic: …`), also after the program's name (`docker: Error response from daemon: …`) or a
 * logger's tags (`[Redis Error] Error: connect ECONNREFUSED …`), or Python's `python3: No module
 * named …`; not a stack frame, nor the first line of a stack a logger labels (`Stack: Error: …`).
 */
function looksLikeError(line: string): boolean {
  const untagged = line.replace(LEADING_TAGS, '');
  return (
    /^\s*(?:[\w./-]+:\s+)?(?:[\w.$]*(?:Error|Exception)\b|error\b|fatal\b|panic\b|Traceback\b|No module named\b)/i.test(
      untagged,
    ) && !/^\s+at\s|^\s*stack:/i.test(untagged)
  );
}

/**
 * The frame Python draws around the tracebacks of an exception group (`  | ConnectionRefusedError:
 * …` inside `+-+---- 1 ----`), which servers built on anyio's task groups (FastMCP) end with.
 */
const EXCEPTION_GROUP_FRAME = /^\s*(?:\|(?: |$))+/;

/**
 * What a crash's cause gains when npm warned that the package needs another Node than the one
 * that runs it: the Node it needs and this one, from npm's warning
 * (`npm warn EBADENGINE   required: { node: '>=22' },` then `current: { node: 'v20.5.0', … }`):
 * a package that needs a newer Node crashes on syntax or a missing export, which say nothing of it.
 */
function engineNote(tail: readonly string[], cause: string): string | undefined {
  if (!looksLikeError(cause)) return undefined;
  const required = tail.map((line) => /EBADENGINE\s+required: \{ node: '([^']{1,40})'/i.exec(line)?.[1]).find(Boolean);
  if (!required) return undefined;
  const current = tail.map((line) => /EBADENGINE\s+current: \{ node: '([^']{1,40})'/i.exec(line)?.[1]).find(Boolean);
  return `needs Node ${required}${current ? `, this is Node ${current}` : ''}: `;
}

/** uv's (`uvx`'s) report of a package its index does not have. */
const UV_NOT_FOUND = /\bBecause (\S+) was not found in the package registry\b/;

/** A logger's tags in brackets in front of a line (`[Redis Error] `, `[14:02:11.377] `). */
const LEADING_TAGS = /^\s*(?:\[[^\]\n]{0,60}\]\s*)+/;
