import '@vscode-elements/elements/dist/vscode-button/index.js';
import MarkdownIt from 'markdown-it';
import type {
  ResultHostToPanel,
  ResultItem,
  ResultPanelToHost,
  ToolResultView,
} from '../../src/shared/protocol/toolResultView';
import { h, onMessage, post } from '../shared/vscodeApi';
import { formatDuration } from '../../src/shared/formatDuration';

// Server text is untrusted: raw HTML in Markdown is shown as text, never parsed.
const markdown = new MarkdownIt({ html: false, linkify: false });
const send = (message: ResultPanelToHost) => post(message);

onMessage<ResultHostToPanel>((message) => show(message.view));
send({ type: 'ready' });

const OUTCOME_TEXT: Record<ToolResultView['outcome'], string> = {
  ok: 'Succeeded',
  toolError: 'The tool reported an error',
  protocolError: 'The call failed',
  invalidOutput: "The output does not match the tool's output schema",
};

function show(view: ToolResultView): void {
  const copy = h('vscode-button', { id: 'copy', secondary: true }, 'Copy');
  copy.addEventListener('click', () => send({ type: 'copy' }));
  const app = document.getElementById('app')!;
  const parts = [
    h(
      'header',
      {},
      h('h1', {}, view.toolLabel),
      h('div', { class: 'server' }, `MCP server: ${view.serverId}`),
      h(
        'div',
        { class: `outcome ${view.outcome}`, id: 'outcome', role: 'status' },
        `${OUTCOME_TEXT[view.outcome]} · ${formatDuration(view.durationMs)}`,
      ),
      copy,
    ),
    h('details', { class: 'arguments' }, h('summary', {}, 'Arguments'), h('pre', {}, view.arguments)),
    view.error ? h('div', { class: 'error-text', id: 'error' }, view.error) : undefined,
    h('div', { class: 'items', id: 'items' }, ...view.items.map(renderItem)),
  ];
  app.replaceChildren(...parts.filter((p): p is HTMLElement => p !== undefined));
}

function renderItem(item: ResultItem): HTMLElement {
  switch (item.kind) {
    case 'text':
      return item.markdown ? renderMarkdownLike(item.text) : h('pre', { class: 'item text' }, item.text);
    case 'image':
      return h(
        'div',
        { class: 'item image' },
        h('img', { src: `data:${item.mimeType};base64,${item.data}`, alt: `Image (${item.mimeType}) from the tool` }),
      );
    case 'audio':
      return h(
        'div',
        { class: 'item audio' },
        h('audio', { controls: true, src: `data:${item.mimeType};base64,${item.data}` }),
      );
    case 'resourceLink': {
      const open = h('a', { href: '#', class: 'resource-link' }, item.label);
      open.addEventListener('click', (event) => {
        event.preventDefault();
        send({ type: 'openResource', uri: item.uri });
      });
      return h(
        'div',
        { class: 'item link' },
        'Resource: ',
        open,
        ` ${item.uri}`,
        item.description ? h('div', { class: 'hint' }, item.description) : undefined,
      );
    }
    case 'resource':
      return h(
        'div',
        { class: 'item resource' },
        h('div', { class: 'hint' }, `Embedded resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}`),
        item.text !== undefined ? h('pre', {}, item.text) : h('div', {}, `Binary, ${item.bytes ?? 0} bytes`),
      );
    case 'structured':
      return h(
        'div',
        { class: 'item structured' },
        h('div', { class: 'hint' }, 'Structured content'),
        h('pre', {}, item.json),
      );
    case 'unsupported':
      return h(
        'div',
        { class: 'item unsupported' },
        h('div', { class: 'hint' }, `Content of type "${item.type}" this host does not display:`),
        h('pre', {}, item.json),
      );
  }
}

/**
 * Text that looks like Markdown is still shown as it is first (code and logs look like Markdown
 * too: `# comment` is no heading), with a toggle to see it rendered.
 */
function renderMarkdownLike(text: string): HTMLElement {
  const raw = h('pre', { class: 'text' }, text);
  const rendered = h('div', { class: 'markdown', hidden: true });
  const toggle = h(
    'vscode-button',
    { class: 'render-toggle', secondary: true, 'aria-pressed': 'false' },
    'Show Rendered',
  );
  toggle.addEventListener('click', () => {
    const showRendered = rendered.hidden;
    // markdown-it with html disabled escapes every tag the server sent; rendered on first use.
    if (showRendered && rendered.childElementCount === 0 && rendered.textContent === '')
      rendered.innerHTML = markdown.render(text);
    rendered.hidden = !showRendered;
    raw.hidden = showRendered;
    toggle.textContent = showRendered ? 'Show Raw' : 'Show Rendered';
    toggle.setAttribute('aria-pressed', String(showRendered));
  });
  return h('div', { class: 'item text markdown-like' }, toggle, raw, rendered);
}
