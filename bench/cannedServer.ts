// The floor of a server an extension hands VS Code's MCP: an MCP responder that answers each
// request with a canned result and does nothing else. Over stdio (`node cannedServer.js stdio`) it
// is the floor of a stdio definition; `serveCannedHttp` answers Streamable HTTP (JSON responses, no
// sessions) on a Unix socket, the floor of an HTTP definition such as MCP Host's gateway;
// `serveCannedLines` answers lines on a Unix socket behind MCP Host's relay process, the floor of a
// stdio definition whose messages an extension host must see (the shape of MCP Host's stdio lane).
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import * as readline from 'node:readline';

interface JsonRpcMessage {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: { readonly protocolVersion?: string; readonly arguments?: { readonly message?: string } };
}

const ECHO_TOOL = {
  name: 'echo',
  description: 'Answers with its message.',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};

/** The canned answer to one message; undefined for a notification. */
export function cannedAnswer(message: JsonRpcMessage, name: string): object | undefined {
  if (message.id === undefined) return undefined;
  const result = (() => {
    switch (message.method) {
      case 'initialize':
        return {
          protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name, title: name, version: '1.0.0' },
        };
      case 'tools/list':
        return { tools: [ECHO_TOOL] };
      case 'tools/call':
        return { content: [{ type: 'text', text: `Echo: ${message.params?.arguments?.message ?? ''}` }] };
      default:
        return {};
    }
  })();
  return { jsonrpc: '2.0', id: message.id, result };
}

/** Serves the canned responder over Streamable HTTP on `socketPath`; each POST is answered with JSON. */
export function serveCannedHttp(socketPath: string, name: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = cannedAnswer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcMessage, name);
      if (!answer) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}

/**
 * Serves the canned responder as newline-delimited JSON-RPC on `socketPath`, the way MCP Host's
 * gateway serves the relay processes of its stdio lane: a connection's first line (the relay's
 * hello) is skipped, every later one answered.
 */
export function serveCannedLines(socketPath: string, name: string): Promise<NetServer> {
  const server = createNetServer((socket) => {
    let hello = true;
    readline.createInterface({ input: socket }).on('line', (line) => {
      if (hello) return void (hello = false);
      const answer = cannedAnswer(JSON.parse(line) as JsonRpcMessage, name);
      if (answer) socket.write(`${JSON.stringify(answer)}\n`);
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}

if (require.main === module && process.argv[2] === 'stdio') {
  const name = process.argv[3] ?? 'floor-stdio';
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const answer = cannedAnswer(JSON.parse(line) as JsonRpcMessage, name);
    if (answer) process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
}
