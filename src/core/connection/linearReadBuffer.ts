import { ReadBuffer, deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * The client library's stdio line buffer, in linear time. The library's copies everything pending
 * on every chunk and searches for the newline from the start each time, so a message of n bytes
 * arriving in 64 KB chunks costs O(n²): 50 MB took 12 s with the event loop stalled. This one
 * keeps the chunks, searches only bytes it has not searched, and joins a line once.
 * Same contract: lines that are not JSON are skipped, other invalid messages throw, and more than
 * `maxBufferSize` bytes pending clears the buffer and throws.
 */
export class LinearReadBuffer extends ReadBuffer {
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Chunks before this index, and `scannedInChunk` bytes of it, hold no newline. */
  private scannedChunks = 0;
  private scannedInChunk = 0;

  constructor(private readonly maxBytes: number) {
    super({ maxBufferSize: maxBytes });
  }

  override append(chunk: Buffer): void {
    if (this.pending + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.chunks.push(chunk);
    this.pending += chunk.length;
  }

  override readMessage(): JSONRPCMessage | null {
    for (;;) {
      const line = this.nextLine();
      if (line === undefined) return null;
      try {
        return deserializeMessage(line.replace(/\r$/, ''));
      } catch (error) {
        if (error instanceof SyntaxError) continue; // noise on stdout (a banner, a log line)
        throw error;
      }
    }
  }

  override clear(): void {
    this.chunks = [];
    this.pending = 0;
    this.scannedChunks = 0;
    this.scannedInChunk = 0;
  }

  private nextLine(): string | undefined {
    for (let i = this.scannedChunks; i < this.chunks.length; i++) {
      const at = this.chunks[i].indexOf(0x0a, i === this.scannedChunks ? this.scannedInChunk : 0);
      if (at === -1) continue;
      const head = this.chunks.slice(0, i);
      head.push(this.chunks[i].subarray(0, at));
      const bytes = head.length === 1 ? head[0] : Buffer.concat(head);
      const rest = this.chunks[i].subarray(at + 1);
      this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(i + 1)] : this.chunks.slice(i + 1);
      this.pending -= bytes.length + 1;
      const line = bytes.toString('utf8');
      this.scannedChunks = 0;
      this.scannedInChunk = 0;
      return line;
    }
    this.scannedChunks = Math.max(0, this.chunks.length - 1);
    this.scannedInChunk = this.chunks.length > 0 ? this.chunks[this.chunks.length - 1].length : 0;
    return undefined;
  }
}
