import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { AppSandboxPolicy } from '../../core/apps/appCsp';
import { listenServing } from '../../core/serverListening';

/** One app's sandbox page on the loopback server; dispose it when the app closes. */
export interface SandboxPage {
  /** The page's address on the loopback server (the editor maps it for the browser). */
  readonly url: string;
  dispose(): void;
}

/**
 * Serves MCP Apps' sandbox proxy pages on 127.0.0.1, an origin other than the webview's, as the
 * specification requires of web hosts. Each app gets its own unguessable page, served with the
 * Content-Security-Policy built from its resource's metadata as an HTTP header, which the app's
 * document inherits and cannot loosen. Nothing else is served; the server listens from the first
 * app on and stops with the extension.
 */
export class AppSandboxServer {
  private server?: Promise<{ server: Server; port: number }>;
  private readonly pages = new Map<string, AppSandboxPolicy>();
  private proxyScript?: Promise<Buffer>;

  constructor(private readonly webviewDist: string) {}

  async open(policy: AppSandboxPolicy): Promise<SandboxPage> {
    const { port } = await this.listening();
    const token = randomBytes(18).toString('base64url');
    this.pages.set(token, policy);
    return { url: `http://127.0.0.1:${port}/app/${token}`, dispose: () => void this.pages.delete(token) };
  }

  dispose(): void {
    void this.server?.then(({ server }) => server.close());
    this.pages.clear();
  }

  private listening(): Promise<{ server: Server; port: number }> {
    this.server ??= (async () => {
      const server = createServer(
        (request, response) => void this.serve(request, response).catch(() => response.destroy()),
      );
      // A connection that could not be accepted fails alone; the server goes on serving the others.
      await listenServing(
        server,
        (listened) => server.listen(0, '127.0.0.1', listened),
        () => undefined,
      );
      return { server, port: (server.address() as AddressInfo).port };
    })();
    return this.server;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (request.method !== 'GET') return end(response, 405);
    const [, kind, token] = url.pathname.split('/');
    const policy = token ? this.pages.get(token) : undefined;
    if (!policy) return end(response, 404);
    response.setHeader('Content-Security-Policy', policy.csp);
    if (kind === 'app' && url.pathname === `/app/${token}`) {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(sandboxPage(token, policy.allow));
      return;
    }
    // The proxy's own script, under the app's policy ('self' is this origin in every policy).
    if (kind === 'proxy' && url.pathname === `/proxy/${token}/sandbox.js`) {
      this.proxyScript ??= readFile(path.join(this.webviewDist, 'appSandbox.js'));
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(await this.proxyScript);
      return;
    }
    end(response, 404);
  }
}

function end(response: ServerResponse, status: number): void {
  response.writeHead(status, { 'Content-Type': 'text/plain' });
  response.end();
}

function sandboxPage(token: string, allow: string): string {
  const attribute = allow.replace(/[^a-z;\- ]/g, '');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body data-allow="${attribute}"><script src="/proxy/${token}/sandbox.js"></script></body></html>`;
}
