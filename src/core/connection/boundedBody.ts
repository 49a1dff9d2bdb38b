/** A response body read up to `limit` bytes: whether it ended within the limit, and its text. */
export interface BoundedBody {
  readonly text: string;
  /** False when the body went on past `limit` (the text is cut there). */
  readonly complete: boolean;
}

/** Reads at most `limit` bytes of `response`'s body and cancels the rest. */
export async function readBoundedBody(response: Response, limit: number): Promise<BoundedBody> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', complete: true };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return {
    text: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit)),
    complete: complete && size <= limit,
  };
}
