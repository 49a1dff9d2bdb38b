import type { Disposable } from './events';

/**
 * Aborts `controller` when `outer` aborts (at once if it has, with its reason) until disposed.
 * Unlike `AbortSignal.any`, nothing stays linked to `outer` once disposed, and it costs a
 * fraction as much, which counts for what is built on every request.
 */
export function abortWith(controller: AbortController, outer: AbortSignal | undefined): Disposable {
  if (!outer) return { dispose: () => undefined };
  const follow = () => controller.abort(outer.reason);
  if (outer.aborted) follow();
  else outer.addEventListener('abort', follow, { once: true });
  return { dispose: () => outer.removeEventListener('abort', follow) };
}
