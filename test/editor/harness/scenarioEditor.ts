import { EditorSession } from './editorSession';

/**
 * One real editor for a `describe` block: started with these MCP servers in the user settings
 * (plus any other user settings), ready once every server runs; after each test a failure leaves
 * a screenshot and every editor is closed, so each test finds its own panels.
 */
export function scenarioEditor(servers: Record<string, unknown>, userSettings: Record<string, unknown> = {}): () => EditorSession {
  let editor: EditorSession | undefined;

  before(async () => {
    editor = await EditorSession.start({ folders: ['alpha'], settings: {} }, { trusted: true, userSettings: { 'mcpHost.servers': servers, ...userSettings } });
    await editor.workbench.openMcpView();
    for (const id of Object.keys(servers)) await editor.workbench.waitForServerDescription(id, /^running · \d+ tools/, 90_000);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await editor?.workbench.screenshot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
    await editor?.control('executeCommand', { command: 'workbench.action.closeAllEditors' });
  });

  after(async () => {
    await editor?.stop();
  });

  return () => {
    if (!editor) throw new Error('the editor has not started');
    return editor;
  };
}
