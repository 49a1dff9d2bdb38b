import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/** A `.` or `..` segment anywhere in a path. */
const DOT_SEGMENT = /(^|[\\/])\.\.?([\\/]|$)/;

/**
 * An absolute path with `.` or `..` segments as the system resolves it, for the user to read
 * (`/work/demo/../out/server.js` is `/work/out/server.js`). Resolved on disk, not by the text: a
 * `..` after a symbolic link leaves the link's target, which a text-only tidy-up would hide.
 * Anything else, or a path that does not exist, is returned as it is.
 */
export function plainPath(arg: string): string {
  if (!path.isAbsolute(arg) || !DOT_SEGMENT.test(arg)) return arg;
  try {
    return realpathSync.native(arg);
  } catch {
    return arg;
  }
}
