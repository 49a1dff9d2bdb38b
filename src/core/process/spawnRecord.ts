import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Who asked for a start: the record says so beside each process. */
export type StartCause = 'this window' | 'window start' | 'list learning' | "VS Code's agents" | 'a restart';

/** One server process a window started, as the record keeps it: never an argument's or a variable's value. */
export interface SpawnEntry {
  readonly pid: number;
  readonly server: string;
  /** Who asked: a person or a model in this window, the window's own start, list learning, VS Code's agents through the gateway, a restart after a crash. */
  readonly askedBy: StartCause;
  /** The program that ran, resolved (its path). */
  readonly command: string;
  /** How many arguments, and a digest of them (arguments may hold resolved secrets). */
  readonly args: { readonly count: number; readonly sha256: string };
  readonly cwd?: string;
  readonly sandboxed: boolean;
}

/** A process of the record that ended, and how. */
export interface SpawnEnd {
  readonly pid: number;
  readonly server: string;
  /** `stopped by MCP Host`, `exited with code 1`, `killed by SIGKILL`, or why MCP Host ended it. */
  readonly ended: string;
}

/** A line of the record, as {@link SpawnRecord.read} gives it. */
export type SpawnRecordLine = { readonly time: string; readonly window: number } & (
  ({ readonly event: 'started' } & SpawnEntry) | ({ readonly event: 'ended' } & SpawnEnd)
);

/** The record is this large at most; then it moves to `spawns.1.jsonl` (one older file kept). */
export const SPAWN_RECORD_MAX_BYTES = 1024 * 1024;

/**
 * A record of every stdio server process MCP Host starts, one JSON line each (`spawns.jsonl` in the
 * extension's storage): when, which server, which program, in which folder, sandboxed or not, by
 * which window. What a proxy that spawns servers should keep (the specification's security best
 * practices), and what peers keep nothing of. Best effort: a record that cannot be written never
 * stops a server.
 */
export class SpawnRecord {
  private readonly file: string;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly window: number = process.pid,
    private readonly maxBytes = SPAWN_RECORD_MAX_BYTES,
  ) {
    this.file = path.join(dir, 'spawns.jsonl');
  }

  get path(): string {
    return this.file;
  }

  add(entry: SpawnEntry): void {
    this.write({ event: 'started', ...entry });
  }

  /** The process ended (stopped, exited, killed): the line beside its start. */
  ended(end: SpawnEnd): void {
    this.write({ event: 'ended', ...end });
  }

  /** The record's lines, oldest first (the older file's too); lines that are not the record's are left out. */
  async read(): Promise<SpawnRecordLine[]> {
    await this.flushed();
    const lines: SpawnRecordLine[] = [];
    for (const file of [path.join(this.dir, 'spawns.1.jsonl'), this.file]) {
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        try {
          const parsed = JSON.parse(line) as SpawnRecordLine;
          if (typeof parsed?.time === 'string' && typeof parsed.pid === 'number' && typeof parsed.server === 'string')
            lines.push(parsed);
        } catch {
          // not a line of the record
        }
      }
    }
    return lines;
  }

  private write(record: object): void {
    const line = `${JSON.stringify({ time: new Date().toISOString(), window: this.window, ...record })}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await fs.mkdir(this.dir, { recursive: true });
        const size = await fs.stat(this.file).then(
          (stat) => stat.size,
          () => 0,
        );
        if (size + line.length > this.maxBytes) await fs.rename(this.file, path.join(this.dir, 'spawns.1.jsonl'));
        await fs.appendFile(this.file, line, { mode: 0o600 });
      } catch {
        // Best effort (see above).
      }
    });
  }

  /** Settles once what was added so far is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }
}
