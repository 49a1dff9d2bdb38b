// `npm start`: a real VS Code in the browser with MCP Host installed and the demo workspace open.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { startCodeServer } from './codeServer';
import { EXTENSION_VSIX, OUT, REPO, editorInstall, packageTestHost } from './editorSession';
import { cacheDir } from './editorInstall';

// The editor on PORT (default 3916), the demo's HTTP MCP server on the port after it; the demo
// settings read that port from MCP_HOST_DEMO_PORT, which the editor inherits.
const port = Number(process.env.PORT ?? 3916);
const DEMO_MCP_PORT = port + 1;
// One profile per clone: two checkouts on one machine never share a demo's state.
const profileDir = path.join(
  cacheDir(),
  `demo-profile-${createHash('sha256').update(REPO).digest('hex').slice(0, 12)}`,
);

async function main(): Promise<void> {
  const install = editorInstall();
  const http = spawn(
    process.execPath,
    [path.join(OUT, 'test/fixtures/servers/httpServer.js'), '--port', String(DEMO_MCP_PORT), '--name', 'demo-modern'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: http.stdout! }).on('line', (line) => line.startsWith('listening') && resolve());
    http.once('exit', (code) =>
      reject(
        new Error(
          `the demo MCP server could not listen on 127.0.0.1:${DEMO_MCP_PORT} (exit ${code}); is the port in use?`,
        ),
      ),
    );
  });
  const editor = await startCodeServer({
    install,
    // The test host brings a stand-in chat model (it repeats what it saw), so sampling and the
    // @mcp participant can be tried without a model subscription.
    vsixes: [EXTENSION_VSIX, packageTestHost()],
    // The product's defaults, not the suites' (their servers start with the window): the demo's
    // servers start when first used, as a user's do.
    userSettings: { 'chat.disableAIFeatures': false, 'mcpHost.autoStart': undefined },
    open: path.join(REPO, 'demo'),
    trustWorkspaces: true,
    profileDir,
    port,
    env: { MCP_HOST_DEMO_PORT: String(DEMO_MCP_PORT) },
  });
  console.log(`\nMCP Host demo is running: ${editor.url}?folder=${encodeURIComponent(path.join(REPO, 'demo'))}`);
  console.log(`Modern (2026-07-28) demo server: http://127.0.0.1:${DEMO_MCP_PORT}/mcp`);
  console.log(`Demo profile (settings, consent, secrets): ${profileDir}`);
  console.log('Press Ctrl+C to stop.');
  const stop = async () => {
    await editor.stop();
    http.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
