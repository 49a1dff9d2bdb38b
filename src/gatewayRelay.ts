// The process VS Code starts for a server MCP Host publishes as a stdio definition (dist/gatewayRelay.js,
// run by the editor's own Node): it relays bytes between VS Code's pipes and MCP Host's gateway socket,
// so VS Code talks to MCP Host's server on the same stdio path as to its own servers. It reads and
// changes nothing: the first line it sends names the server and carries the gateway's token.
import { connect } from 'node:net';

const socketPath = process.argv[2];
const hello = `${JSON.stringify({ token: process.env.MCPHOST_GATEWAY_TOKEN, server: process.env.MCPHOST_GATEWAY_SERVER })}\n`;
delete process.env.MCPHOST_GATEWAY_TOKEN;

const socket = connect(socketPath, () => {
  socket.write(hello);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on('error', (error) => {
  process.stderr.write(
    `MCP Host's gateway is not reachable at ${socketPath} (${error.message}): is the window that runs MCP Host open?\n`,
  );
  process.exit(1);
});
socket.on('close', () => process.exit(0));
process.stdin.on('end', () => socket.end());
