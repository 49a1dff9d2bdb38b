import { formatDuration } from '../../shared/formatDuration';

/** How to tell an unavailable model from any other failure, and how to hear that models changed. */
export interface ModelAvailability {
  isUnavailable(error: unknown): boolean;
  /** Settles when the set of models may have changed (a provider registered, say). */
  changed(): { readonly promise: Promise<void>; dispose(): void };
}

const RETRY_MS = 1_000;

/**
 * Sends to a model that may still be loading: a window's first chat request can arrive before
 * the model's provider is ready ("Language model unavailable"). Retries when the models change
 * (or every second) until `timeoutMs`, then fails with what the model said. Other errors pass.
 */
export async function whenModelAvailable<T>(
  send: () => Promise<T>,
  availability: ModelAvailability,
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal; onWaiting?(): void },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let waited = false;
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (!availability.isUnavailable(error) || options.signal?.aborted) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `The chat model is still unavailable after ${formatDuration(options.timeoutMs)}: ${(error as Error).message}. Pick another model, or try again once it has loaded.`,
          { cause: error },
        );
      }
      if (!waited) options.onWaiting?.();
      waited = true;
      const change = availability.changed();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          change.promise,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(RETRY_MS, left)))),
        ]);
      } finally {
        clearTimeout(timer);
        change.dispose();
      }
    }
  }
}
