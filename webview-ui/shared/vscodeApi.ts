/** The one handle a webview has on the extension: typed post and receive. */
interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post<T>(message: T): void {
  api.postMessage(message);
}

export function onMessage<T>(handler: (message: T) => void): void {
  window.addEventListener('message', (event: MessageEvent) => handler(event.data as T));
}

/** Creates an element with properties and children; text always goes in as text, never as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Partial<Record<string, unknown>>,
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K];
export function h(
  tag: string,
  props?: Partial<Record<string, unknown>>,
  ...children: (Node | string | undefined)[]
): HTMLElement;
export function h(
  tag: string,
  props: Partial<Record<string, unknown>> = {},
  ...children: (Node | string | undefined)[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (key === 'class') element.className = String(value);
    else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'for' || key === 'id')
      element.setAttribute(key, String(value));
    else (element as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) if (child !== undefined) element.append(child);
  return element;
}
