import * as vscode from 'vscode';

/** Runs work that takes an AbortSignal under a VS Code cancellation token. */
export async function withCancellation<T>(
  token: vscode.CancellationToken | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const listener = token?.onCancellationRequested(() => controller.abort());
  try {
    return await run(controller.signal);
  } finally {
    listener?.dispose();
  }
}

type ProgressStep = { message?: string; increment?: number };

/**
 * How long work runs before its notification shows. VS Code keeps a progress notification on
 * screen for at least 800 ms once shown, so a call that ends in 20 ms would leave "Running…" with
 * its Cancel button beside the result it already gave.
 */
const PROGRESS_NOTIFICATION_DELAY_MS = 500;

/**
 * A progress notification with a Cancel button that aborts the work, shown only once the work
 * has run for {@link PROGRESS_NOTIFICATION_DELAY_MS}; what was reported before then shows with it.
 */
export function withCancellableProgress<T>(
  title: string,
  run: (signal: AbortSignal, progress: vscode.Progress<ProgressStep>) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let shown: vscode.Progress<ProgressStep> | undefined;
  const early: { message?: string; increment: number } = { increment: 0 };
  const progress: vscode.Progress<ProgressStep> = {
    report: (step) => {
      if (shown) return shown.report(step);
      early.message = step.message ?? early.message;
      early.increment += step.increment ?? 0;
    },
  };
  const work = (async () => run(controller.signal, progress))();
  const timer = setTimeout(() => {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (notification, token) => {
        shown = notification;
        if (early.message !== undefined || early.increment > 0)
          notification.report({ message: early.message, increment: early.increment || undefined });
        const listener = token.onCancellationRequested(() => controller.abort());
        // The notification ends with the work, whichever way it ends; the caller sees how.
        await work.then(
          () => undefined,
          () => undefined,
        );
        listener.dispose();
      },
    );
  }, PROGRESS_NOTIFICATION_DELAY_MS);
  return work.finally(() => clearTimeout(timer));
}
