import { EditorSession } from './editorSession';

/**
 * One real editor for a `describe` block: started with these MCP servers in the user settings
 * (plus any other user settings), ready once every server runs; after each test a failure leaves
 * a screenshot and every editor is closed, so each test finds its own panels.
 */
export function scenarioEditor(
  serversOrSetup: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
  userSettings: Record<string, unknown> = {},
  files?: Readonly<Record<string, string>>,
): () => EditorSession {
  let editor: EditorSession | undefined;

  before(async () => {
    // A function gives servers that need something started first (an HTTP fixture's port).
    const servers = typeof serversOrSetup === 'function' ? await serversOrSetup() : serversOrSetup;
    editor = await EditorSession.start(
      { folders: ['alpha'], settings: {}, files },
      { trusted: true, userSettings: { 'mcpHost.servers': servers, ...userSettings } },
    );
    await editor.workbench.openMcpView();
    for (const id of Object.keys(servers))
      await editor.workbench.waitForServerDescription(id, /^(sandboxed · )?\d+ tools?\b/, 90_000);
  });

  closeEverythingAfterEach(() => editor);

  after(async () => {
    await editor?.stop();
  });

  return () => {
    if (!editor) throw new Error('the editor has not started');
    return editor;
  };
}

/**
 * After each test: a failure leaves a screenshot, then Escape closes any quick pick or dialog and
 * every editor closes, so each test finds its own panels (one webview at a time).
 */
export function closeEverythingAfterEach(session: () => EditorSession | undefined): void {
  afterEach(async function () {
    const editor = session();
    if (this.currentTest?.state === 'failed')
      await editor?.workbench.screenshot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
    await editor?.workbench.page.keyboard.press('Escape');
    await editor?.control('executeCommand', { command: 'workbench.action.closeAllEditors' });
  });
}
