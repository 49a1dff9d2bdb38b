/** Messages between the extension and the tool result webview. */

export type ResultItem =
  | { readonly kind: 'text'; readonly text: string; readonly markdown: boolean }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly kind: 'audio'; readonly mimeType: string; readonly data: string }
  | {
      readonly kind: 'resourceLink';
      readonly uri: string;
      readonly label: string;
      readonly description?: string;
      readonly mimeType?: string;
    }
  | {
      readonly kind: 'resource';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
      readonly bytes?: number;
    }
  | { readonly kind: 'structured'; readonly json: string }
  | { readonly kind: 'unsupported'; readonly type: string; readonly json: string };

/**
 * `ok`: the tool ran. `toolError`: the tool ran and reported a failure (`isError`).
 * `protocolError`: the call itself failed. `invalidOutput`: the structured output broke the
 * tool's `outputSchema`.
 */
export type ResultOutcome = 'ok' | 'toolError' | 'protocolError' | 'invalidOutput';

export interface ToolResultView {
  readonly serverId: string;
  readonly toolLabel: string;
  readonly arguments: string;
  readonly outcome: ResultOutcome;
  readonly durationMs: number;
  readonly error?: string;
  readonly items: readonly ResultItem[];
}

export type ResultPanelToHost =
  { readonly type: 'ready' } | { readonly type: 'copy' } | { readonly type: 'openResource'; readonly uri: string };

export type ResultHostToPanel = { readonly type: 'show'; readonly view: ToolResultView };
