import * as vscode from 'vscode';

/** Runs work that takes an AbortSignal under a VS Code cancellation token. */
export async function withCancellation<T>(token: vscode.CancellationToken | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const listener = token?.onCancellationRequested(() => controller.abort());
  try {
    return await run(controller.signal);
  } finally {
    listener?.dispose();
  }
}

/** A progress notification with a Cancel button that aborts the work. */
export function withCancellableProgress<T>(
  title: string,
  run: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) =>
    withCancellation(token, (signal) => run(signal, progress)),
  );
}
