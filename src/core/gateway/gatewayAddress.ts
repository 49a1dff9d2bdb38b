import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Where the gateway listens: a Unix socket in a private folder, or 127.0.0.1 on a port the system picks. */
export type GatewayAddress =
  | {
      readonly kind: 'socket';
      readonly folder: string;
      readonly socketPath: string;
      /** The folder is not the gateway's own (it holds other sockets): closing leaves it. */
      readonly sharedFolder?: true;
    }
  | { readonly kind: 'loopback' };

/** Unix socket paths longer than this do not fit `sockaddr_un` on macOS (104 bytes with its terminator); Linux allows 107. */
export const MAX_SOCKET_PATH = 103;

/**
 * A Unix socket in a folder of its own that only this user may enter (0700), under the user's
 * runtime folder when there is one: another user cannot connect to it whatever the socket's mode.
 * On Windows, or when the path would be too long, 127.0.0.1 (the gateway's bearer token is then
 * the only key, as it is besides the folder on a socket).
 */
export function privateGatewayAddress(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): GatewayAddress {
  if (platform === 'win32') return { kind: 'loopback' };
  const runtime = env.XDG_RUNTIME_DIR && existsSync(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : tmpdir();
  let folder: string;
  try {
    folder = mkdtempSync(path.join(runtime, 'mcp-host-'));
    chmodSync(folder, 0o700);
  } catch {
    return { kind: 'loopback' };
  }
  const socketPath = path.join(folder, 'gateway.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    rmSync(folder, { recursive: true, force: true });
    return { kind: 'loopback' };
  }
  return { kind: 'socket', folder, socketPath };
}

/** Removes the socket's private folder (the window is closing). */
export function removeGatewayAddress(address: GatewayAddress): void {
  // Node removes a listening socket's file when it closes: a shared folder's others stay.
  if (address.kind === 'socket' && !address.sharedFolder) rmSync(address.folder, { recursive: true, force: true });
}

/** The endpoint's path for a server: its id in base64url, so any id makes one safe path segment. */
export function endpointPath(serverId: string): string {
  return `/mcp/${Buffer.from(serverId, 'utf8').toString('base64url')}`;
}

/** The server id of an endpoint's path, or undefined for any other path. */
export function serverIdOfPath(pathname: string): string | undefined {
  const match = /^\/mcp\/([A-Za-z0-9_-]{1,400})$/.exec(pathname);
  return match ? Buffer.from(match[1], 'base64url').toString('utf8') : undefined;
}

/**
 * The URL VS Code's MCP connects to: for a socket, VS Code's `unix://<socket path>#<HTTP path>`
 * form (its extension host sends the request through the socket, to the fragment's path).
 */
export function endpointUrl(address: GatewayAddress, port: number | undefined, serverId: string): string {
  return address.kind === 'socket'
    ? `unix://${address.socketPath}#${endpointPath(serverId)}`
    : `http://127.0.0.1:${port}${endpointPath(serverId)}`;
}
