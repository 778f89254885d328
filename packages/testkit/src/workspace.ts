import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ToolContext, Workspace } from '@kodo/core';

/** A throw-away directory with a tool context around it, for tool tests without mocks. */
export interface TempWorkspace {
  /** Real (symlink-free) absolute path of the directory. */
  root: string;
  ctx: ToolContext;
  /** Writes a file (creating parent directories) relative to the root. */
  write(rel: string, content: string | Uint8Array): string;
  /** Reads a file relative to the root as UTF-8. */
  read(rel: string): string;
  cleanup(): void;
}

/**
 * Creates a temp workspace, optionally seeded with files (`{'src/a.ts': '...'}`). The context's
 * environment is the test process's, without `*_API_KEY` variables, and shell commands time out
 * after 30 s without output.
 */
export function createTempWorkspace(files: Record<string, string> = {}): TempWorkspace {
  // realpath: on macOS the temp dir is behind a symlink, and tools report real paths.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-ws-')));
  const write = (rel: string, content: string | Uint8Array): string => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.endsWith('_API_KEY')));
  return {
    root,
    ctx: { workspace: new Workspace({ roots: [root] }), env, shellInactivityTimeoutMs: 30_000 },
    write,
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
