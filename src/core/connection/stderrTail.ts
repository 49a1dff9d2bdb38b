import { withoutTerminalStyles } from '../shownText';
import type { ServerLog } from './serverLog';
import type { CreatedTransport } from './transportFactory';

const TAIL_LINES = 20;
/**
 * The first lines are kept too: a command-line program that refuses to start often says why first
 * and prints its usage after (`Error: No access token was provided.`, then 30 lines of flags).
 */
const HEAD_LINES = 5;
/** A "line" the server never ends is cut into pieces of this many characters (a bound on what is held). */
const MAX_LINE_CHARS = 16 * 1024;

/**
 * A stdio server's stderr: every line into its log, the first few and the last few kept to explain
 * a failure.
 */
export class StderrTail {
  private head: string[] = [];
  private tail: string[] = [];

  constructor(
    private readonly log: ServerLog,
    /** Sees each line too (the inspector's address in dev mode). */
    private readonly onLine?: (line: string) => void,
  ) {}

  /** The first lines, then the last ones (those kept of an attempt's output), oldest first: why a start failed. */
  get lines(): readonly string[] {
    return this.head.length === 0 ? this.tail : [...this.head, ...this.tail];
  }

  /** The last lines only: why a server that ran a while ended (its first lines are from its start). */
  get recentLines(): readonly string[] {
    return this.tail;
  }

  /** Follows a new attempt's stderr; its own output explains its own failure. */
  follow(created: CreatedTransport): void {
    this.clear();
    const stderr = created.stdio?.stderr;
    if (!stderr) return;
    let partial = '';
    stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) this.add(line);
      while (partial.length > MAX_LINE_CHARS) {
        this.add(partial.slice(0, MAX_LINE_CHARS));
        partial = partial.slice(MAX_LINE_CHARS);
      }
    });
    stderr.on('end', () => partial && this.add(partial));
  }

  clear(): void {
    this.head = [];
    this.tail = [];
  }

  private add(raw: string): void {
    const line = withoutTerminalStyles(raw);
    if (line.trim() === '') return;
    this.log.info(`[stderr] ${line}`);
    this.onLine?.(line);
    this.tail.push(line);
    // The tail's oldest line joins the head while the head has room: no line is kept twice.
    if (this.tail.length > TAIL_LINES) {
      const oldest = this.tail.shift()!;
      if (this.head.length < HEAD_LINES) this.head.push(oldest);
    }
  }
}
