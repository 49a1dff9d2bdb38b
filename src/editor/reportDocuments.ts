import * as vscode from 'vscode';

const SCHEME = 'mcp-host-report';

/**
 * Read-only Markdown reports (what an import left out, …): a virtual document, so closing it
 * never asks to save an untitled file. Each report gets its own address; the latest 20 are kept.
 */
export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private next = 0;

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.path) ?? '';
  }

  async show(title: string, markdown: string): Promise<void> {
    const key = `/${++this.next}/${title.replace(/[^\w .-]+/g, '-')}.md`;
    this.reports.set(key, markdown);
    if (this.reports.size > 20) this.reports.delete(this.reports.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: SCHEME, path: key }));
    await vscode.window.showTextDocument(document, { preview: true });
  }
}
