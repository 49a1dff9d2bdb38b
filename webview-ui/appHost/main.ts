// The page of the MCP App panel: it holds the sandbox proxy (an iframe on another origin, served
// by the extension on loopback) and relays JSON-RPC between it and the extension, where the
// ext-apps host bridge runs. It reads the editor's theme for the app and sizes the frame.
import {
  APP_STYLE_VARIABLES,
  type AppDisplayMode,
  type AppHostToPanel,
  type AppPanelLook,
  type AppPanelToHost,
} from '../../src/shared/protocol/appPanel';
import { h, post } from '../shared/vscodeApi';

const send = (message: AppPanelToHost) => post(message);
const root = document.getElementById('app')!;
const status = h('div', { class: 'app-status', id: 'app-status', role: 'status' });
const modeButton = h('button', { class: 'app-mode', id: 'app-mode', type: 'button', hidden: true }, 'Full size');
const closeButton = h(
  'button',
  {
    class: 'app-close',
    id: 'app-close',
    type: 'button',
    title: 'Close the app (it is told first, so it can save its work)',
  },
  'Close',
);
const title = h('span', { class: 'app-title', id: 'app-title' });
const header = h('header', { class: 'app-header' }, title, modeButton, closeButton);
const frameBox = h('div', { class: 'app-frame-box' });
root.replaceChildren(header, status, frameBox);
modeButton.addEventListener('click', () => send({ type: 'toggleMode' }));
closeButton.addEventListener('click', () => send({ type: 'close' }));

let frame: HTMLIFrameElement | undefined;
let sandboxOrigin = '';
let mode: AppDisplayMode = 'inline';

function look(): AppPanelLook {
  const style = getComputedStyle(document.documentElement);
  const variables: Record<string, string> = {};
  for (const [name, sources] of Object.entries(APP_STYLE_VARIABLES)) {
    for (const source of sources) {
      const value = style.getPropertyValue(source).trim();
      if (value) {
        variables[name] = value;
        break;
      }
    }
  }
  const dark =
    document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
  return {
    theme: dark ? 'dark' : 'light',
    variables,
    width: frameBox.clientWidth || window.innerWidth,
    height: window.innerHeight,
  };
}

window.addEventListener('message', (event: MessageEvent) => {
  if (frame && event.source === frame.contentWindow) {
    if (event.origin !== sandboxOrigin) return;
    fromSandbox(event.data);
    return;
  }
  // The editor relays the extension's messages from this page's own origin; nothing the app (on
  // the sandbox's origin) or a frame it may embed could post passes for them.
  if (event.origin === window.origin) fromExtension(event.data as AppHostToPanel);
});

function fromSandbox(data: unknown): void {
  const message = data as {
    method?: string;
    mcpHostBlocked?: { uri: string; directive: string };
    mcpHostPageError?: unknown;
    mcpHostNavigated?: boolean;
  };
  if (message?.mcpHostNavigated) {
    frame?.remove();
    frame = undefined;
    send({ type: 'navigated' });
  } else if (message?.mcpHostBlocked)
    send({
      type: 'blocked',
      uri: String(message.mcpHostBlocked.uri),
      directive: String(message.mcpHostBlocked.directive),
    });
  else if (message?.mcpHostPageError !== undefined)
    send({ type: 'pageError', text: String(message.mcpHostPageError).slice(0, 500) });
  else if (message?.method === 'ui/notifications/sandbox-proxy-ready') send({ type: 'proxyReady' });
  else send({ type: 'fromApp', message: data });
}

function fromExtension(message: AppHostToPanel): void {
  switch (message?.type) {
    case 'resource':
      frame?.contentWindow?.postMessage(
        { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: message.html } },
        sandboxOrigin,
      );
      break;
    case 'toApp':
      frame?.contentWindow?.postMessage(message.message, sandboxOrigin);
      break;
    case 'resize':
      if (frame && mode === 'inline' && message.height !== undefined)
        frame.style.height = `${Math.max(40, Math.ceil(message.height))}px`;
      break;
    case 'mode':
      mode = message.mode;
      document.body.classList.toggle('fullscreen', mode === 'fullscreen');
      if (frame) frame.style.height = mode === 'fullscreen' ? '' : frame.style.height;
      setModes(message.modes);
      send({ type: 'look', ...look() });
      break;
    case 'status':
      showStatus(message.text, message.error === true);
      break;
  }
}

function showStatus(text: string, error: boolean): void {
  status.textContent = text;
  status.classList.toggle('error-text', error);
}

/**
 * "The Host and the Sandbox MUST have different origins." An editor in the browser may map
 * loopback ports onto its own origin (code-server's /proxy/PORT/); then the loopback address
 * itself serves, when this page is on the same machine.
 */
function pickSandbox(urls: readonly string[]): string | undefined {
  const local =
    ['127.0.0.1', 'localhost', '[::1]'].includes(window.location.hostname) ||
    window.location.protocol === 'vscode-webview:';
  return urls.find((url) => {
    const candidate = new URL(url);
    if (candidate.origin === window.location.origin) return false;
    return candidate.hostname !== '127.0.0.1' || url === urls[0] || local;
  });
}

function setModes(modes: readonly AppDisplayMode[]): void {
  modeButton.hidden = !modes.includes('fullscreen');
  modeButton.textContent = mode === 'fullscreen' ? 'Exit full size' : 'Full size';
}

/** Frames the sandbox proxy at once: its addresses came with the page. */
function startSandbox(): void {
  const data = root.dataset;
  const urls = JSON.parse(data.sandboxUrls ?? '[]') as string[];
  title.textContent = `${data.title} — MCP server: ${data.server}`;
  const sandboxUrl = pickSandbox(urls);
  if (!sandboxUrl) {
    showStatus(
      `The app cannot be shown safely here: the editor maps its sandbox (${urls[0]}) onto this page's own origin, and the loopback address is on another machine. The specification requires the sandbox on another origin; give the editor a proxy domain (code-server: --proxy-domain) to show apps.`,
      true,
    );
    send({ type: 'unsandboxable' });
    return;
  }
  sandboxOrigin = new URL(sandboxUrl).origin;
  frame = h('iframe', {
    class: 'app-frame',
    id: 'app-frame',
    title: `App of MCP server ${data.server}`,
  }) as HTMLIFrameElement;
  // The proxy needs scripts and its own origin (to write the app into its inner frame); no
  // popups, no top navigation: links go through ui/open-link.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  // A feature reaches the app's frame only if every frame above it has it: declared permissions go on this one too.
  if (data.allow) frame.setAttribute('allow', data.allow);
  frame.src = sandboxUrl;
  frameBox.classList.toggle('bordered', data.border !== 'false');
  frameBox.replaceChildren(frame);
}

// The theme is a class on <body>; the editor swaps it (and the variables) when the user switches.
let lookTimer: ReturnType<typeof setTimeout> | undefined;
const lookChanged = () => {
  clearTimeout(lookTimer);
  lookTimer = setTimeout(() => send({ type: 'look', ...look() }), 100);
};
new MutationObserver(lookChanged).observe(document.body, { attributes: true, attributeFilter: ['class'] });
new MutationObserver(lookChanged).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
window.addEventListener('resize', lookChanged);
send({ type: 'ready', ...look() });
startSandbox();
