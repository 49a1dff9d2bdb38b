/** Messages between the extension and the MCP App panel's webview (the host page of the sandbox). */

export type AppDisplayMode = 'inline' | 'fullscreen';

/** What the webview reads from the editor's theme for the app's host context. */
export interface AppPanelLook {
  readonly theme: 'light' | 'dark';
  /** The specification's `--color-*`, `--font-*`, … names with the editor's current values. */
  readonly variables: Record<string, string>;
  readonly width: number;
  readonly height: number;
}

export type AppPanelToHost =
  | ({ readonly type: 'ready' } & AppPanelLook)
  | ({ readonly type: 'look' } & AppPanelLook)
  /** The sandbox proxy loaded and said `ui/notifications/sandbox-proxy-ready`. */
  | { readonly type: 'proxyReady' }
  /** A JSON-RPC message from the app, relayed by the sandbox proxy. */
  | { readonly type: 'fromApp'; readonly message: unknown }
  /** The browser blocked something the app tried to load (its CSP). */
  | { readonly type: 'blocked'; readonly uri: string; readonly directive: string }
  /** The app's page threw an error nothing caught (an exception or a rejected promise). */
  | { readonly type: 'pageError'; readonly text: string }
  | { readonly type: 'toggleMode' }
  /** The app navigated its frame away from its page: the sandbox removed it. */
  | { readonly type: 'navigated' }
  /** No sandbox address is on another origin than the page: the app is not shown. */
  | { readonly type: 'unsandboxable' }
  /** The panel's Close button: the app is torn down first, then the panel closes. */
  | { readonly type: 'close' };

export type AppHostToPanel =
  | { readonly type: 'resource'; readonly html: string }
  | { readonly type: 'toApp'; readonly message: unknown }
  | { readonly type: 'resize'; readonly height?: number }
  | { readonly type: 'mode'; readonly mode: AppDisplayMode; readonly modes: readonly AppDisplayMode[] }
  | { readonly type: 'status'; readonly text: string; readonly error?: boolean };

/**
 * The specification's theming variables and the editor variables they take their values from
 * (first one set wins). Colours follow the active theme, so the webview reads them again when
 * the theme changes.
 */
export const APP_STYLE_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  '--color-background-primary': ['--vscode-editor-background'],
  '--color-background-secondary': ['--vscode-sideBar-background', '--vscode-editor-background'],
  '--color-background-tertiary': ['--vscode-editorWidget-background', '--vscode-editor-background'],
  '--color-background-inverse': ['--vscode-editor-foreground'],
  '--color-background-ghost': ['--vscode-toolbar-hoverBackground'],
  '--color-background-info': ['--vscode-inputValidation-infoBackground'],
  '--color-background-danger': ['--vscode-inputValidation-errorBackground'],
  '--color-background-success': ['--vscode-diffEditor-insertedTextBackground'],
  '--color-background-warning': ['--vscode-inputValidation-warningBackground'],
  '--color-background-disabled': ['--vscode-input-background'],
  '--color-text-primary': ['--vscode-editor-foreground', '--vscode-foreground'],
  '--color-text-secondary': ['--vscode-descriptionForeground'],
  '--color-text-tertiary': ['--vscode-disabledForeground', '--vscode-descriptionForeground'],
  '--color-text-inverse': ['--vscode-editor-background'],
  '--color-text-info': ['--vscode-editorInfo-foreground'],
  '--color-text-danger': ['--vscode-errorForeground'],
  '--color-text-success': ['--vscode-testing-iconPassed'],
  '--color-text-warning': ['--vscode-editorWarning-foreground'],
  '--color-text-disabled': ['--vscode-disabledForeground'],
  '--color-text-ghost': ['--vscode-descriptionForeground'],
  '--color-border-primary': ['--vscode-widget-border', '--vscode-panel-border'],
  '--color-border-secondary': ['--vscode-panel-border'],
  '--color-border-tertiary': ['--vscode-editorGroup-border'],
  '--color-border-inverse': ['--vscode-editor-foreground'],
  '--color-border-ghost': ['--vscode-toolbar-hoverOutline', '--vscode-widget-border'],
  '--color-border-info': ['--vscode-inputValidation-infoBorder'],
  '--color-border-danger': ['--vscode-inputValidation-errorBorder'],
  '--color-border-success': ['--vscode-testing-iconPassed'],
  '--color-border-warning': ['--vscode-inputValidation-warningBorder'],
  '--color-border-disabled': ['--vscode-input-border', '--vscode-widget-border'],
  '--color-ring-primary': ['--vscode-focusBorder'],
  '--color-ring-secondary': ['--vscode-focusBorder'],
  '--color-ring-inverse': ['--vscode-editor-background'],
  '--color-ring-info': ['--vscode-editorInfo-foreground'],
  '--color-ring-danger': ['--vscode-errorForeground'],
  '--color-ring-success': ['--vscode-testing-iconPassed'],
  '--color-ring-warning': ['--vscode-editorWarning-foreground'],
  '--font-sans': ['--vscode-font-family'],
  '--font-mono': ['--vscode-editor-font-family'],
  '--font-weight-normal': ['--vscode-font-weight'],
  '--font-text-md-size': ['--vscode-font-size'],
};
