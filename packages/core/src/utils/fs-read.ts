import { resolve } from 'node:path';
import { type DiscoveryFs, nodeDiscoveryFs } from './discovery-fs';

// Reads on the way to the first request. Most paths kodo looks at do not exist (settings of
// other tools, optional folders); a failed sync call throws an Error with a captured stack,
// ~20× the cost of the `existsSync` that avoids it.

/** The file's text, or undefined when it does not exist or cannot be read. */
export function readTextIfExists(file: string, fs: DiscoveryFs = nodeDiscoveryFs): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return fs.readText(file);
  } catch {
    return undefined;
  }
}

/**
 * What names the same file or folder however it is reached (symlinks, `..`, a second root that
 * links to the first): its device and inode, or the resolved path when nothing is there. One
 * `stat`, where a realpath reads the link of every component of the path.
 */
export function pathIdentity(path: string, fs: DiscoveryFs = nodeDiscoveryFs): string {
  const stats = fs.stat(path);
  return stats ? `${stats.dev}:${stats.ino}` : resolve(path);
}
