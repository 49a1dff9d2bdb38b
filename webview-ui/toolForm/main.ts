import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-multi-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { FieldProblem, JsonValue } from '../../src/shared/protocol/formModel';
import type { FormToHost, HostToForm, ToolFormInit } from '../../src/shared/protocol/toolForm';
import { h, onMessage, post } from '../shared/vscodeApi';
import { onFieldChange, renderDescription, renderField, type Rendered } from './fields';

const send = (message: FormToHost) => post(message);
let root: Rendered | undefined;
let validateTimer: ReturnType<typeof setTimeout> | undefined;

onMessage<HostToForm>((message) => {
  if (message.type === 'init') show(message.init);
  else showProblems(message.problems, message.submitted);
});
onFieldChange(() => scheduleValidation());
send({ type: 'ready' });

function show(init: ToolFormInit): void {
  const app = document.getElementById('app')!;
  touched.clear();
  root = renderField(init.form, '', init.values ?? init.form.default, true);
  const form = h(
    'form',
    { class: 'tool-form', novalidate: true },
    root.element,
    h('div', { class: 'problem general', id: 'general-problems', role: 'alert' }),
  );
  const run = h('vscode-button', { id: 'submit' }, init.submitLabel);
  const cancel = h('vscode-button', { id: 'cancel', secondary: true }, 'Cancel');
  const decline = init.declineLabel
    ? h('vscode-button', { id: 'decline', secondary: true }, init.declineLabel)
    : undefined;
  decline?.addEventListener('click', () => send({ type: 'decline' }));
  const parts = [
    h(
      'header',
      {},
      h('h1', {}, init.title),
      h('div', { class: 'server' }, `MCP server: ${init.serverId}`),
      init.badges.length
        ? h('div', { class: 'badges' }, ...init.badges.map((b) => h('span', { class: 'badge' }, b)))
        : undefined,
      init.description ? renderDescription(init.description) : undefined,
    ),
    init.notice ? h('div', { class: 'notice', id: 'notice', role: 'status' }, init.notice) : undefined,
    form,
    h('div', { class: 'actions' }, run, decline, cancel),
  ];
  app.replaceChildren(...parts.filter((part): part is HTMLElement => part !== undefined));
  run.addEventListener('click', submit);
  cancel.addEventListener('click', () => send({ type: 'cancel' }));
  // A field counts as touched once the user changes it: only those show problems before Submit.
  const touch = (event: Event) => {
    const path = (event.target as HTMLElement | null)?.closest('[data-path]')?.getAttribute('data-path');
    if (path !== null && path !== undefined) touched.add(path);
    scheduleValidation();
  };
  form.addEventListener('input', touch);
  form.addEventListener('change', touch);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') send({ type: 'cancel' });
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
  });
  (
    form.querySelector('vscode-textfield, vscode-textarea, vscode-single-select, vscode-checkbox') as HTMLElement | null
  )?.focus();
}

function currentValues(): { [key: string]: JsonValue } {
  const value = root?.read();
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function scheduleValidation(): void {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(() => {
    const local = root?.localProblems() ?? [];
    if (local.length) showProblems(local, false);
    else send({ type: 'validate', values: currentValues() });
  }, 250);
}

function submit(): void {
  clearTimeout(validateTimer);
  const local = root?.localProblems() ?? [];
  if (local.length) return showProblems(local, true);
  send({ type: 'submit', values: currentValues() });
}

/** The paths of the fields the user has changed (a new array item the user has not typed in is not one). */
const touched = new Set<string>();

/** Whether a problem concerns a field the user changed: the field itself, one inside it, or the group holding it. */
function concernsTouched(path: string): boolean {
  for (const t of touched) if (path === t || path.startsWith(`${t}/`) || t.startsWith(`${path}/`)) return true;
  return false;
}

function showProblems(all: readonly FieldProblem[], submitted: boolean): void {
  // Before Submit, problems of fields the user has not changed yet wait (a required field is not "wrong" before it is filled).
  const problems = submitted ? all : all.filter((problem) => concernsTouched(problem.path));
  for (const el of document.querySelectorAll('[data-problem-for]')) el.textContent = '';
  for (const el of document.querySelectorAll('.field.invalid')) el.classList.remove('invalid');
  const general: string[] = [];
  for (const problem of problems) {
    let path = problem.path;
    let slot = document.querySelector(`[data-problem-for="${CSS.escape(path)}"]`);
    while (!slot && path) {
      path = path.slice(0, path.lastIndexOf('/'));
      slot = path ? document.querySelector(`[data-problem-for="${CSS.escape(path)}"]`) : null;
    }
    if (slot && path) {
      slot.textContent = slot.textContent ? `${slot.textContent} ${problem.message}` : problem.message;
      slot.closest('.field')?.classList.add('invalid');
    } else {
      general.push(problem.path ? `${problem.path}: ${problem.message}` : problem.message);
    }
  }
  const generalSlot = document.getElementById('general-problems')!;
  generalSlot.textContent = general.join(' ');
  if (submitted && problems.length)
    (
      document.querySelector(
        '.field.invalid vscode-textfield, .field.invalid vscode-single-select',
      ) as HTMLElement | null
    )?.focus();
}
