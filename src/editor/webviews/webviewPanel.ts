import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * Opens a webview panel running one of our bundled scripts under a strict CSP: scripts only with
 * this page's nonce, styles and fonts only from the extension, images and audio only as data: URIs
 * (tool results carry them inline), nothing fetched from anywhere else.
 */
export function openWebviewPanel(
  extensionUri: vscode.Uri,
  viewType: string,
  title: string,
  script: 'toolForm' | 'toolResult' | 'sampling' | 'appHost',
  options: {
    readonly background?: boolean;
    readonly beside?: boolean;
    /** The group to open in (a panel opened again in place of one); `beside` or the active one otherwise. */
    readonly viewColumn?: vscode.ViewColumn;
    /** Origins the page may frame (an MCP App's sandbox); none by default. */
    readonly frameSources?: readonly string[];
    /** `data-*` attributes of the page's root element: what its script needs before any message. */
    readonly data?: Readonly<Record<string, string>>;
    /** It asks or tells the user something they are reading (a sampling request): other panels do not cover it. */
    readonly speaksToUser?: boolean;
  } = {},
): vscode.WebviewPanel {
  // In the background: a tab that waits its turn without taking focus from what the user is doing.
  const viewColumn = options.viewColumn ?? (options.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active);
  const panel = vscode.window.createWebviewPanel(
    viewType,
    title,
    { viewColumn, preserveFocus: options.background === true },
    {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
        vscode.Uri.joinPath(extensionUri, 'media'),
      ],
    },
  );
  if (options.speaksToUser) {
    speaking.add(panel);
    panel.onDidDispose(() => speaking.delete(panel));
  }
  const webview = panel.webview;
  const nonce = randomBytes(16).toString('base64');
  const scriptUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${script}.js`));
  const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    'img-src data:',
    'media-src data:',
    ...(options.frameSources?.length ? [`frame-src ${options.frameSources.join(' ')}`] : []),
  ].join('; ');
  webview.html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${styleUri.toString()}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main id="app" aria-live="polite"${Object.entries(options.data ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('')}></main>
<script nonce="${nonce}" src="${scriptUri.toString()}"></script>
</body>
</html>`;
  return panel;
}

/** The panels that ask or tell the user something, while they are open. */
const speaking = new Set<vscode.WebviewPanel>();

/** The group of the panel that asks or tells the user something and shows in its group, if one does. */
export function speakingPanelColumn(): vscode.ViewColumn | undefined {
  for (const panel of speaking) if (panel.visible) return panel.viewColumn;
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
