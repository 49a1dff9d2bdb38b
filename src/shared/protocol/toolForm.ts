import type { FieldProblem, JsonValue, ObjectField } from './formModel';

/** Messages between the extension and the form webview (tool arguments, elicitation answers). */
export interface ToolFormInit {
  readonly title: string;
  readonly serverId: string;
  readonly description?: string;
  /** Annotation hints as short badges ("read-only", "destructive"…), shown but not trusted. */
  readonly badges: readonly string[];
  readonly form: ObjectField;
  readonly submitLabel: string;
  /** A Decline button (elicitation: the user says no, as opposed to cancelling). */
  readonly declineLabel?: string;
  /** Values the user gave before (the form comes back after a denied confirmation), instead of the defaults. */
  readonly values?: { readonly [key: string]: JsonValue };
  /** Why the form is shown again, above it. */
  readonly notice?: string;
}

export type FormToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'validate'; readonly values: { [key: string]: JsonValue } }
  | { readonly type: 'submit'; readonly values: { [key: string]: JsonValue } }
  | { readonly type: 'decline' }
  | { readonly type: 'cancel' };

export type HostToForm =
  | { readonly type: 'init'; readonly init: ToolFormInit }
  | { readonly type: 'problems'; readonly problems: readonly FieldProblem[]; readonly submitted: boolean };
