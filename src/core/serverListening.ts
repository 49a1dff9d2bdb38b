import type { Server } from 'node:net';

/**
 * Starts `server` listening (`listen` calls its `listen` with the callback it is given). A failure
 * to listen rejects; an error after that (say, no file descriptor left to accept a connection with)
 * fails that connection only: it goes to `later`, and the server goes on serving.
 */
export function listenServing(
  server: Server,
  listen: (listened: () => void) => void,
  later: (error: Error) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    listen(() => {
      server.off('error', reject);
      server.on('error', later);
      resolve();
    });
  });
}
