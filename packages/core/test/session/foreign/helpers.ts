import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ForeignTool, installForeignSessions } from '@kodo/testkit';
import { SessionStore } from '../../../src/session/store';

/**
 * A temp user home and project: the real tools' recorded sessions installed for the project,
 * kodo's own sessions in `home/.kodo`, and an environment that points every tool's home there.
 */
export function foreignHome(tools?: readonly ForeignTool[]) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-foreign-')));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  const files = installForeignSessions(home, project, tools);
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    KODO_HOME: join(home, '.kodo'),
    GEMINI_CLI_HOME: home,
  };
  const store = new SessionStore({ projectRoot: project, env });
  return {
    root,
    home,
    project,
    files,
    env,
    store,
    /** Writes a file below the home (creating folders). */
    write(rel: string, text: string, mtime?: Date): string {
      const path = join(home, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      if (mtime) utimesSync(path, mtime, mtime);
      return path;
    },
    /** A kodo session log started at `startTime` with one prompt. */
    kodoSession(id: string, startTime: string, prompt: string): string {
      const file = join(
        store.dir,
        `session-${startTime.slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`,
      );
      mkdirSync(store.dir, { recursive: true });
      const lines = [
        { sessionId: id, projectHash: 'h', startTime, lastUpdated: startTime, kind: 'main' },
        { id: 'm1', timestamp: startTime, type: 'user', content: [{ text: prompt }] },
        { id: 'm2', timestamp: startTime, type: 'gemini', content: [{ text: `answer to ${prompt}` }] },
      ];
      writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      return file;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const jsonl = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
