import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a file only its owner may read (0600, its folder created 0700): whole to a file beside
 * it, then renamed into place, so a concurrent reader or a crash sees the old file or the new
 * one, never half, and the mode is set before anything is in the file. Throws when it cannot
 * write, after removing what it left behind.
 */
export function writePrivateFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    // A temp file left by an earlier run of the same pid keeps its mode: set it again.
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Left for the next write, which uses the same name only from the same pid.
    }
    throw error;
  }
}
