import * as vscode from 'vscode';

/**
 * Read-only Markdown documents (what an import left out, a server's skill, …): a virtual document,
 * so closing it never asks to save an untitled file. Each gets its own address under the scheme
 * the instance serves; the latest 20 are kept.
 */
export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private next = 0;

  constructor(private readonly scheme = 'mcp-host-report') {}

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(this.scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.path) ?? '';
  }

  async show(title: string, markdown: string): Promise<void> {
    const key = `/${++this.next}/${title.replace(/[^\w .()-]+/g, '-')}.md`;
    this.reports.set(key, markdown);
    if (this.reports.size > 20) this.reports.delete(this.reports.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: this.scheme, path: key }));
    await vscode.window.showTextDocument(document, { preview: true });
  }
}
