/** Messages between the extension and the sampling approval webview. */

/** One content block as the panel shows it; `key` (`message/block`) marks text the user may edit. */
export type SamplingBlockView =
  | { readonly kind: 'text'; readonly key: string; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly kind: 'audio'; readonly mimeType: string; readonly data: string }
  | { readonly kind: 'toolUse'; readonly id: string; readonly name: string; readonly input: string }
  | { readonly kind: 'toolResult'; readonly toolUseId: string; readonly text: string; readonly isError: boolean };

export interface SamplingModelOption {
  readonly id: string;
  readonly label: string;
}

export interface SamplingRequestView {
  readonly serverId: string;
  /** Whether the user approves the request first (else it is already running, for review only). */
  readonly askFirst: boolean;
  readonly reviewResponse: boolean;
  readonly systemPrompt?: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly blocks: readonly SamplingBlockView[] }[];
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences: readonly string[];
  /** The server's model preferences, one line each ("hint: claude", "speed priority: 0.8"). */
  readonly preferences: readonly string[];
  readonly tools: readonly { readonly name: string; readonly description: string; readonly schema: string }[];
  readonly toolChoice?: string;
  readonly models: readonly SamplingModelOption[];
  readonly modelId: string;
  /** Why that model ("matches the server's hint …"). */
  readonly modelReason: string;
  /** What the host will not do as asked, said up front (context from other servers). */
  readonly notes: readonly string[];
}

export interface SamplingAnswerView {
  readonly blocks: readonly SamplingBlockView[];
  readonly stopReason?: string;
  readonly model: string;
  /** Whether the answer is one text the user may edit before sending. */
  readonly editable: boolean;
  readonly dropped: readonly string[];
}

export type SamplingHostToPanel =
  | { readonly type: 'init'; readonly view: SamplingRequestView }
  | { readonly type: 'running'; readonly model: string }
  | { readonly type: 'streaming'; readonly append: string }
  | { readonly type: 'answer'; readonly answer: SamplingAnswerView }
  | { readonly type: 'failed'; readonly message: string };

export type SamplingPanelToHost =
  | { readonly type: 'ready' }
  | {
      readonly type: 'approve';
      readonly modelId: string;
      readonly systemPrompt?: string;
      readonly texts: Readonly<Record<string, string>>;
      readonly alwaysAllow: boolean;
    }
  | { readonly type: 'deny' }
  /** Stop the model while it answers; the server is told the user rejected the request. */
  | { readonly type: 'cancel' }
  | { readonly type: 'send'; readonly text?: string }
  | { readonly type: 'discard' };
