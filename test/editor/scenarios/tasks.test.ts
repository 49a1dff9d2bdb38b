// Long-running tools as tasks (2026-07-28 tasks extension) in a real VS Code: the MCP Tasks view
// from start to result, Cancel from the view, input through the elicitation form, and a task
// picked up again after a window reload.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { scenarioEditor } from '../harness/scenarioEditor';
import { OUT } from '../harness/editorSession';
import { startHttpFixture, type RunningProcess } from '../../unit/support/fixtures';

const taskTools = ['task-sleep', 'task-ask', 'task-fail', 'task-expire'];
const stdio = {
  command: process.execPath,
  args: [path.join(OUT, 'test/fixtures/servers/modernStdio.js'), '--task-tools', '--task-poll-ms', '200'],
  autoApprove: taskTools,
};

describe('Tasks in a real VS Code', function () {
  this.timeout(240_000);
  let http: RunningProcess | undefined;
  const editor = scenarioEditor(async () => {
    http = await startHttpFixture(['--task-tools']);
    return { tasks: stdio, remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp`, autoApprove: taskTools } };
  });
  after(() => http?.stop());
  const page = () => editor().workbench.page;
  const tasksPane = () =>
    page()
      .locator('.pane')
      .filter({ has: page().locator('.pane-header', { hasText: 'MCP Tasks' }) });
  async function openTasksView(): Promise<void> {
    const header = tasksPane().locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await tasksPane().locator('.pane-header[aria-expanded="true"]').waitFor({ timeout: 10_000 });
  }
  const taskRow = (pattern: RegExp): Locator =>
    tasksPane().locator('.monaco-list-row').filter({ hasText: pattern }).first();
  const start = (serverId: string, name: string, args: Record<string, unknown>) =>
    editor()
      .control<{ content: { text: string }[] }>('callTool', { serverId, name, args }, 120_000)
      .then(
        (r) => r.content[0].text,
        (e: Error) => `error: ${e.message}`,
      );

  it('lists a running task with its progress, then its result, a notification and Open Result', async () => {
    await openTasksView();
    const call = start('tasks', 'task-sleep', { ms: 6_000 });
    await taskRow(/task-sleep.*tasks · working · \d+ of 6000 ms/).waitFor({ timeout: 20_000 });
    await editor().workbench.screenshot('81-task-running');
    await taskRow(/task-sleep.*tasks · completed/).waitFor({ timeout: 30_000 });
    assert.match(await call, /slept 6000 ms/);
    const toast = page().locator('.notification-toast', {
      hasText: 'MCP task "task-sleep" on server "tasks" finished.',
    });
    await toast.waitFor({ timeout: 10_000 });
    await toast.getByRole('button', { name: 'Open Result' }).click();
    const panel = await editor().workbench.webview('#outcome');
    await panel.getByText('slept 6000 ms').waitFor({ timeout: 10_000 });
    await editor().workbench.screenshot('82-task-result');
  });

  it('cancels a task from the view: the server hears tasks/cancel and the call ends', async () => {
    await openTasksView();
    const call = start('tasks', 'task-sleep', { ms: 120_000 });
    const row = taskRow(/task-sleep.*tasks · working · \d+ of 120000 ms/);
    await row.waitFor({ timeout: 20_000 });
    await row.hover();
    await row.getByRole('button', { name: 'Cancel Task' }).click();
    await taskRow(/task-sleep.*tasks · cancelled/).waitFor({ timeout: 10_000 });
    assert.match(await call, /error: .*Cancelled from the MCP Tasks view/);
  });

  it("asks for a task's input through the form, then the task goes on to its result", async () => {
    await openTasksView();
    const call = start('tasks', 'task-ask', {});
    const form = await editor().workbench.webview('#submit', 30_000);
    await taskRow(/task-ask.*tasks · input required · Waiting for your name/).waitFor({ timeout: 10_000 });
    await form.locator('#field_name input').fill('Ada');
    await editor().workbench.screenshot('83-task-input');
    await form.locator('#submit').click();
    assert.equal(await call, 'Hello, Ada.');
    await taskRow(/task-ask.*tasks · completed/).waitFor({ timeout: 10_000 });
  });

  it('picks a task up again after a window reload and follows it to its result', async () => {
    await openTasksView();
    void start('remote', 'task-sleep', { ms: 15_000 });
    await taskRow(/task-sleep.*remote · working/).waitFor({ timeout: 20_000 });
    await editor().reloadWindow();
    await editor().workbench.openMcpView();
    await openTasksView();
    // Resumed: still working, or already done when the reload took long.
    await taskRow(/task-sleep.*remote · (working · \d+ of 15000 ms|completed) · \d+s · resumed after reload/).waitFor({
      timeout: 60_000,
    });
    await editor().workbench.screenshot('84-task-after-reload');
    await taskRow(/task-sleep.*remote · completed · \d+s · resumed after reload/).waitFor({ timeout: 60_000 });
    const toast = page().locator('.notification-toast', {
      hasText: 'MCP task "task-sleep" on server "remote" finished.',
    });
    await toast.waitFor({ timeout: 10_000 });
  });
});
