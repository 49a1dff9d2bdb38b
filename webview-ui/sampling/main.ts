import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type {
  SamplingAnswerView,
  SamplingBlockView,
  SamplingHostToPanel,
  SamplingPanelToHost,
  SamplingRequestView,
} from '../../src/shared/protocol/samplingPanel';
import { h, onMessage, post } from '../shared/vscodeApi';

// Everything the server sent is shown as text (never as HTML): it is untrusted.
const send = (message: SamplingPanelToHost) => post(message);
type Phase = 'deciding' | 'running' | 'reviewing' | 'done';
let phase: Phase = 'deciding';
let view: SamplingRequestView | undefined;

onMessage<SamplingHostToPanel>((message) => {
  switch (message.type) {
    case 'init':
      view = message.view;
      phase = view.askFirst ? 'deciding' : 'running';
      render(view);
      countWaiting();
      if (!view.askFirst) showRunning(view.models.find((m) => m.id === view!.modelId)?.label ?? view.modelId);
      break;
    case 'running':
      phase = 'running';
      showRunning(message.model);
      break;
    case 'streaming':
      document.getElementById('answer-stream')!.append(message.append);
      break;
    case 'answer':
      phase = 'reviewing';
      showAnswer(message.answer);
      break;
    case 'failed':
      phase = 'done';
      clearInterval(waitingTimer);
      document.getElementById('waited')?.remove();
      setStatus(message.message, true);
      document.getElementById('answer-actions')?.remove();
      document.getElementById('running-actions')?.remove();
      document.getElementById('decision-actions')?.remove();
      break;
  }
});
send({ type: 'ready' });

// Escape says no (deny the request, discard the answer); Ctrl/Cmd+Enter says yes.
window.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    if (phase === 'deciding') send({ type: 'deny' });
    else if (phase === 'running') send({ type: 'cancel' });
    else if (phase === 'reviewing') send({ type: 'discard' });
  } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    if (phase === 'deciding') approve();
    else if (phase === 'reviewing') sendAnswer();
  }
});

/** Counts how long the server has waited: it has a deadline of its own, which the panel cannot know. */
let waitingTimer: ReturnType<typeof setInterval> | undefined;
function countWaiting(): void {
  const since = Date.now();
  const show = () => {
    const waited = document.getElementById('waited');
    if (!waited || phase === 'done') return clearInterval(waitingTimer);
    const seconds = Math.round((Date.now() - since) / 1000);
    waited.textContent = `The server has waited ${seconds} s for this answer. Servers often stop waiting after 60 s (the MCP SDK's default); if it does, this panel says so.`;
  };
  show();
  waitingTimer = setInterval(show, 1000);
}

function render(request: SamplingRequestView): void {
  const editable = request.askFirst;
  const model = h(
    'vscode-single-select',
    { id: 'model', disabled: !editable, 'aria-label': 'Model that will answer' },
    ...request.models.map((m) => h('vscode-option', { value: m.id, selected: m.id === request.modelId }, m.label)),
  );
  const system = editable
    ? h('vscode-textarea', {
        id: 'system-prompt',
        value: request.systemPrompt ?? '',
        placeholder: '(no system prompt)',
        rows: 3,
        resize: 'vertical',
        'aria-label': 'System prompt',
      })
    : h('pre', { id: 'system-prompt' }, request.systemPrompt ?? '(no system prompt)');
  const parameters: [string, string][] = [
    ['Max tokens', String(request.maxTokens)],
    ['Temperature', request.temperature === undefined ? '(model default)' : String(request.temperature)],
    [
      'Stop sequences',
      request.stopSequences.length ? request.stopSequences.map((s) => JSON.stringify(s)).join(', ') : '(none)',
    ],
    ['Model preferences', request.preferences.length ? request.preferences.join('; ') : '(none)'],
    ...(request.tools.length ? [['Tool choice', request.toolChoice ?? 'auto'] as [string, string]] : []),
  ];
  const app = document.getElementById('app')!;
  const parts = [
    h(
      'header',
      {},
      h('h1', {}, request.askFirst ? 'Sampling request' : 'Sampling request (allowed by your settings)'),
      h(
        'div',
        { class: 'server', id: 'server' },
        `MCP server "${request.serverId}" asks your language model for a completion.`,
      ),
      h(
        'div',
        { id: 'status', role: 'status', class: 'outcome' },
        request.askFirst ? 'Nothing has been sent to a model yet.' : 'Running…',
      ),
      h('div', { id: 'waited', class: 'hint' }),
    ),
    ...request.notes.map((note) => h('div', { class: 'note' }, note)),
    h(
      'section',
      { class: 'field' },
      h('label', { for: 'model' }, 'Model'),
      model,
      h('div', { class: 'hint', id: 'model-reason' }, request.modelReason),
    ),
    h('section', { class: 'field' }, h('label', { for: 'system-prompt' }, 'System prompt'), system),
    h(
      'section',
      { id: 'messages' },
      h('h2', {}, `Messages (${request.messages.length})`),
      ...request.messages.map((m, i) => renderMessage(m.role, m.blocks, i, editable)),
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Parameters'),
      h('dl', { id: 'parameters' }, ...parameters.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    ),
    request.tools.length
      ? h(
          'section',
          { id: 'tools' },
          h('h2', {}, `Tools offered to the model (${request.tools.length})`),
          ...request.tools.map((t) =>
            h(
              'details',
              { class: 'tool' },
              h('summary', {}, t.name, t.description ? ` — ${t.description}` : ''),
              h('pre', {}, t.schema),
            ),
          ),
        )
      : undefined,
    editable ? decisionActions() : undefined,
    h(
      'section',
      { id: 'answer', hidden: true },
      h('h2', {}, 'Answer'),
      h('pre', { id: 'answer-stream', 'aria-live': 'polite' }),
    ),
  ];
  app.replaceChildren(...parts.filter((p): p is HTMLElement => p !== undefined));
  if (editable) (document.getElementById('approve') as HTMLElement).focus();
}

function renderMessage(
  role: string,
  blocks: readonly SamplingBlockView[],
  index: number,
  editable: boolean,
): HTMLElement {
  return h(
    'div',
    { class: `message ${role}`, 'data-role': role },
    h('h3', {}, `${index + 1}. ${role === 'user' ? 'User' : 'Assistant'}`),
    ...blocks.map((b) => renderBlock(b, editable)),
  );
}

function renderBlock(block: SamplingBlockView, editable: boolean): HTMLElement {
  switch (block.kind) {
    case 'text':
      return editable && block.key
        ? h('vscode-textarea', {
            class: 'message-text',
            value: block.text,
            rows: Math.min(12, Math.max(2, block.text.split('\n').length + 1)),
            resize: 'vertical',
            'data-key': block.key,
            'aria-label': `Message text ${block.key}`,
          })
        : h('pre', { class: 'message-text' }, block.text);
    case 'image':
      return h(
        'div',
        { class: 'item image' },
        h('img', {
          src: `data:${block.mimeType};base64,${block.data}`,
          alt: `Image (${block.mimeType}) sent by the server`,
        }),
      );
    case 'audio':
      return h(
        'div',
        { class: 'item audio' },
        h('audio', {
          controls: true,
          src: `data:${block.mimeType};base64,${block.data}`,
          'aria-label': `Audio (${block.mimeType})`,
        }),
      );
    case 'toolUse':
      return h(
        'div',
        { class: 'item tool-use' },
        h('div', { class: 'hint' }, `Tool call ${block.name} (id ${block.id})`),
        h('pre', {}, block.input),
      );
    case 'toolResult':
      return h(
        'div',
        { class: 'item tool-result' },
        h('div', { class: 'hint' }, `Tool result for ${block.toolUseId}${block.isError ? ' (error)' : ''}`),
        h('pre', {}, block.text),
      );
  }
}

function decisionActions(): HTMLElement {
  const approveButton = h('vscode-button', { id: 'approve' }, 'Approve');
  const deny = h('vscode-button', { id: 'deny', secondary: true }, 'Deny');
  approveButton.addEventListener('click', approve);
  deny.addEventListener('click', () => send({ type: 'deny' }));
  return h(
    'section',
    { id: 'decision' },
    h('vscode-checkbox', {
      id: 'always-allow',
      label: 'Always allow for this server (writes "sampling.mode": "allowAlways" to its settings)',
    }),
    h('div', { class: 'actions', id: 'decision-actions' }, approveButton, deny),
    h(
      'div',
      { class: 'hint' },
      'Ctrl+Enter approves, Escape denies. You can edit the system prompt and the text of every message first.',
    ),
  );
}

function approve(): void {
  if (phase !== 'deciding' || !view) return;
  const texts: Record<string, string> = {};
  document
    .querySelectorAll<HTMLElement & { value: string }>('vscode-textarea.message-text')
    .forEach((area) => (texts[area.dataset.key!] = area.value));
  const system = (document.getElementById('system-prompt') as HTMLElement & { value: string }).value;
  send({
    type: 'approve',
    modelId: (document.getElementById('model') as HTMLElement & { value: string }).value || view.modelId,
    systemPrompt: system || undefined,
    texts,
    alwaysAllow: (document.getElementById('always-allow') as HTMLElement & { checked: boolean }).checked,
  });
  phase = 'running';
}

function showRunning(model: string): void {
  document.getElementById('decision')?.remove();
  document
    .querySelectorAll<HTMLElement & { disabled: boolean }>('vscode-textarea, vscode-single-select')
    .forEach((e) => (e.disabled = true));
  setStatus(
    view?.askFirst ? `Approved. ${model} is answering…` : `Allowed by your settings. ${model} is answering…`,
    false,
  );
  const answer = document.getElementById('answer')!;
  answer.hidden = false;
  const cancel = h('vscode-button', { id: 'cancel', secondary: true }, 'Cancel');
  cancel.addEventListener('click', () => send({ type: 'cancel' }));
  answer.append(h('div', { class: 'actions', id: 'running-actions' }, cancel));
}

function showAnswer(answer: SamplingAnswerView): void {
  const section = document.getElementById('answer')!;
  section.hidden = false;
  document.getElementById('running-actions')?.remove();
  setStatus(
    `${answer.model} answered (${answer.stopReason ?? 'no stop reason'}). Review the answer before it goes back to the server.`,
    false,
  );
  const text = answer.editable ? answer.blocks.find((b) => b.kind === 'text') : undefined;
  const sendButton = h('vscode-button', { id: 'send' }, 'Send to server');
  const discard = h('vscode-button', { id: 'discard', secondary: true }, 'Discard');
  sendButton.addEventListener('click', sendAnswer);
  discard.addEventListener('click', () => send({ type: 'discard' }));
  section.replaceChildren(
    h('h2', {}, 'Answer'),
    ...answer.blocks.map((b) =>
      b === text && b.kind === 'text'
        ? h('vscode-textarea', {
            id: 'answer-text',
            value: b.text,
            rows: Math.min(16, Math.max(3, b.text.split('\n').length + 1)),
            resize: 'vertical',
            'aria-label': 'Answer text',
          })
        : renderBlock(b, false),
    ),
    ...answer.dropped.map((d) => h('div', { class: 'note' }, `Not sent: ${d}`)),
    h('div', { class: 'actions', id: 'answer-actions' }, sendButton, discard),
    h('div', { class: 'hint' }, 'Ctrl+Enter sends, Escape discards (the server is told you rejected the request).'),
  );
  sendButton.focus();
}

function sendAnswer(): void {
  if (phase !== 'reviewing') return;
  const area = document.getElementById('answer-text') as (HTMLElement & { value: string }) | null;
  send({ type: 'send', text: area ? area.value : undefined });
  phase = 'done';
  setStatus('Sent to the server.', false);
  document.getElementById('answer-actions')?.remove();
}

function setStatus(text: string, error: boolean): void {
  const status = document.getElementById('status');
  if (!status) return;
  status.textContent = text;
  status.classList.toggle('error-text', error);
}
