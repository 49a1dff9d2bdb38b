// The sandbox proxy of an MCP App (the specification's "Sandbox proxy"): served by the extension
// on a loopback origin other than the webview's, under the app's Content-Security-Policy header.
// It writes the app into an inner frame of its own origin (which inherits that policy) and relays
// messages between the app and the host page, except the ui/notifications/sandbox-* ones.
export {};

if (window.self === window.top) throw new Error('The MCP App sandbox only runs inside the MCP Host panel.');
const hostOrigin = window.location.ancestorOrigins?.[0] ?? (document.referrer ? new URL(document.referrer).origin : '');
if (!hostOrigin) throw new Error('The MCP App sandbox cannot tell which page embeds it.');

const inner = document.createElement('iframe');
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
// Permissions the server declared (and the host granted) come with this page, not with a message.
const allow = document.body.dataset.allow;
if (allow) inner.setAttribute('allow', allow);
inner.title = 'MCP App';
document.body.appendChild(inner);
let loaded = false;
/** What the page reports to the host (blocked loads, uncaught errors): the first few, not a flood. */
const MAX_REPORTS = 10;
let reported = 0;

// The app's page is written into the frame; a later load is the app navigating it elsewhere,
// which would leave its policy behind (a navigated document gets its own). Stop it there.
inner.addEventListener('load', () => {
  if (!loaded) return;
  let href: string | undefined;
  try {
    href = inner.contentWindow?.location.href;
  } catch {
    href = undefined; // another origin
  }
  if (href === window.location.href) return;
  inner.remove();
  window.parent.postMessage({ mcpHostNavigated: true }, hostOrigin);
});

window.addEventListener('message', (event: MessageEvent) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    const message = event.data as { method?: string; params?: { html?: unknown } };
    if (typeof message?.method === 'string' && message.method.startsWith('ui/notifications/sandbox-')) {
      if (
        message.method === 'ui/notifications/sandbox-resource-ready' &&
        !loaded &&
        typeof message.params?.html === 'string'
      )
        load(message.params.html);
      return;
    }
    inner.contentWindow?.postMessage(event.data, window.location.origin);
  } else if (event.source === inner.contentWindow && event.origin === window.location.origin) {
    const method = (event.data as { method?: unknown })?.method;
    if (typeof method === 'string' && method.startsWith('ui/notifications/sandbox-')) return;
    window.parent.postMessage(event.data, hostOrigin);
  }
});

function load(html: string): void {
  loaded = true;
  const doc = inner.contentDocument;
  if (!doc) return;
  // document.write keeps the inner frame on this origin (srcdoc would not), so it inherits this
  // page's Content-Security-Policy and WebGL canvases paint.
  doc.open();
  // What the policy blocks, the user should learn from the host's log, not only the app's console
  // (added after open(), which erases the listeners of the document and its window).
  const win = inner.contentWindow;
  win?.addEventListener('securitypolicyviolation', (e) => {
    if (reported++ < MAX_REPORTS)
      window.parent.postMessage({ mcpHostBlocked: { uri: e.blockedURI, directive: e.effectiveDirective } }, hostOrigin);
  });
  // So are the page's own failures that nothing caught: the panel says why an app shows nothing.
  const failed = (what: unknown) => {
    const text =
      what instanceof Error || (typeof what === 'object' && what !== null && 'message' in what)
        ? String((what as Error).message)
        : String(what);
    if (reported++ < MAX_REPORTS) window.parent.postMessage({ mcpHostPageError: text.slice(0, 500) }, hostOrigin);
  };
  win?.addEventListener('error', (e) => failed(e.error ?? e.message));
  win?.addEventListener('unhandledrejection', (e) => failed(e.reason));
  doc.write(html);
  doc.close();
}

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
