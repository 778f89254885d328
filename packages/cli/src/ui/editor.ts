import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Opens text in the person's editor; resolves to the edited text, or undefined if it failed. */
export type EditorLauncher = (text: string, options: { fileName: string }) => Promise<string | undefined>;

export interface TerminalControl {
  /** Gives the terminal to a child process (raw mode off) and takes it back afterwards. */
  suspend(): void;
  resume(): void;
}

/**
 * `$VISUAL`, then `$EDITOR`, then `vi`, run on a temp file with the terminal handed over (the
 * UI stops reading keys and leaves raw mode while the editor runs).
 */
export function externalEditor(env: NodeJS.ProcessEnv, terminal: TerminalControl): EditorLauncher {
  return async (text, { fileName }) => {
    const command = env.VISUAL || env.EDITOR || 'vi';
    const dir = mkdtempSync(join(tmpdir(), 'kodo-edit-'));
    const file = join(dir, fileName.replace(/[^\w.-]/g, '_') || 'proposal.txt');
    try {
      writeFileSync(file, text);
      terminal.suspend();
      // Through the shell, so `EDITOR="code --wait"` works as in git.
      const result = spawnSync(
        process.env.SHELL || '/bin/sh',
        ['-c', `${command} "$1"`, 'kodo-editor', file],
        {
          stdio: 'inherit',
          env,
        },
      );
      if (result.error || result.status !== 0) return undefined;
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    } finally {
      terminal.resume();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
