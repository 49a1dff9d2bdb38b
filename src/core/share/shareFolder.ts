import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import * as path from 'node:path';
import { definitionHash } from '../config/definitionHash';
import { MAX_SOCKET_PATH } from '../gateway/gatewayAddress';

/**
 * The folder where this user's windows meet to share servers: one per user, under the runtime
 * folder when there is one, made 0700. It is used only when it is a real folder (not a link),
 * owned by this user, that nobody else may enter: a socket in it then answers only this user.
 * Throws, saying why, when there is no such folder (Windows; a folder another user made first).
 */
export function privateShareFolder(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32') throw new Error('sharing a server between windows needs Unix sockets (not on Windows)');
  const uid = process.getuid?.() ?? userInfo().uid;
  const runtime = env.XDG_RUNTIME_DIR && isFolder(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : tmpdir();
  const folder = path.join(runtime, `mcp-host-shared-${uid}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`cannot make ${folder}: ${(error as Error).message}`);
  }
  const stat = lstatSync(folder);
  if (stat.isSymbolicLink())
    throw new Error(`${folder} is a link, not a folder; remove it to share servers between windows`);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
    throw new Error(
      `${folder} is not a folder only this user may enter (owner ${stat.uid}, mode ${(stat.mode & 0o777).toString(8)}); remove it to share servers between windows`,
    );
  return folder;
}

/** The socket of a shared server in the folder: its key hashed again, so that any key fits. */
export function shareSocketPath(folder: string, key: string): string {
  const socketPath = path.join(folder, `${definitionHash(key).slice(0, 24)}.sock`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    throw new Error(`the socket path ${socketPath} is too long for this system`);
  return socketPath;
}

/**
 * Why the entry at a share socket's path is not this user's socket, if it is not: something
 * another user left there (while the folder was open to others) is never joined, since the window
 * listening on it would get this window's calls, arguments and all. Undefined when there is
 * nothing there, or this user's socket.
 */
export function foreignSocket(socketPath: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(socketPath);
  } catch {
    return undefined;
  }
  const uid = process.getuid?.() ?? userInfo().uid;
  if (!stat.isSocket()) return `${socketPath} is not a socket`;
  if (stat.uid !== uid) return `the socket ${socketPath} belongs to user ${stat.uid}, not to this one`;
  return undefined;
}

function isFolder(folder: string): boolean {
  try {
    return lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}
