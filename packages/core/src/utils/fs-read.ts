import { existsSync, readFileSync, realpathSync } from 'node:fs';

// Reads on the way to the first request. Most paths kodo looks at do not exist (settings of
// other tools, optional folders); a failed sync call throws an Error with a captured stack,
// ~20× the cost of the `existsSync` that avoids it. `realpathSync.native` is one system call
// where the JavaScript version `lstat`s every component of the path.

/** The file's text, or undefined when it does not exist or cannot be read. */
export function readTextIfExists(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The canonical path (symlinks resolved), or `fallback` when the path does not exist. */
export function realPathOr(path: string, fallback: string = path): string {
  if (!existsSync(path)) return fallback;
  try {
    return realpathSync.native(path);
  } catch {
    return fallback;
  }
}
