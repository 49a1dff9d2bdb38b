// A real HTTP server in front of a real MCP server: passes every request on unchanged, except
// those `intercept` answers itself (an error page, a 401), as a proxy or a failing backend would.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the front answers instead of the backend, or how long it holds a request before passing it on. */
export type FrontAnswer =
  | { readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  | { readonly delayMs: number };

export interface FrontProxy {
  readonly port: number;
  close(): Promise<void>;
}

export async function startFrontProxy(
  backendPort: number,
  backendPath: string,
  intercept: (body: string, req: IncomingMessage) => FrontAnswer | undefined,
): Promise<FrontProxy> {
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer = intercept(body.toString('utf8'), req);
      if (answer && 'status' in answer)
        return void res.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers }).end(answer.body);
      setTimeout(() => pass(req, res, body), answer?.delayMs ?? 0);
    });
  });
  const pass = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const upstream = request(
      { host: '127.0.0.1', port: backendPort, path: backendPath, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    port: (front.address() as AddressInfo).port,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
