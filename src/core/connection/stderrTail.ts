import type { ServerLog } from './serverLog';
import type { CreatedTransport } from './transportFactory';

const TAIL_LINES = 20;

/** A stdio server's stderr: every line into its log, the last few kept to explain a failure. */
export class StderrTail {
  private tail: string[] = [];

  constructor(
    private readonly log: ServerLog,
    /** Sees each line too (the inspector's address in dev mode). */
    private readonly onLine?: (line: string) => void,
  ) {}

  get lines(): readonly string[] {
    return this.tail;
  }

  /** Follows a new attempt's stderr; its own output explains its own failure. */
  follow(created: CreatedTransport): void {
    this.tail = [];
    const stderr = created.stdio?.stderr;
    if (!stderr) return;
    let partial = '';
    stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) this.add(line);
    });
    stderr.on('end', () => partial && this.add(partial));
  }

  clear(): void {
    this.tail = [];
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    this.log.info(`[stderr] ${line}`);
    this.onLine?.(line);
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
  }
}
