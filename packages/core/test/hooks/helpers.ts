import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../src/hooks/command-env';
import { hookConfigFromSources } from '../../src/hooks/config';
import { HookSystem } from '../../src/hooks/hook-system';
import type { HookFeedback, HooksSettings } from '../../src/hooks/types';

/** A command that answers with this JSON on stdout (and exit 0). */
export const answer = (output: unknown): string => `printf '%s' ${shellQuote(JSON.stringify(output))}`;

/** A command that appends its stdin (one JSON line) to `file` in the cwd, then runs `then`. */
export const logInput = (file: string, then = 'true'): string => `cat >> ${file}; ${then}`;

/** The JSON inputs a `logInput` hook received, in order. */
export const readInputs = (dir: string, file: string): Record<string, unknown>[] => {
  let text: string;
  try {
    text = readFileSync(join(dir, file), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
};

export interface TestHooks {
  hooks: HookSystem;
  dir: string;
  feedback: HookFeedback[];
  cleanup: () => void;
}

/** A HookSystem over inline `hooks` settings, running in a fresh temp directory. */
export function makeHooks(
  settings: HooksSettings,
  options: { disabled?: string[]; env?: NodeJS.ProcessEnv; dir?: string; sessionId?: string } = {},
): TestHooks {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'kodo-hooks-'));
  const feedback: HookFeedback[] = [];
  const config = hookConfigFromSources(
    [{ scope: 'user', hooks: settings, hooksConfig: { disabled: options.disabled ?? [] } }],
    { allowProjectHooks: true },
  );
  const hooks = new HookSystem({
    config,
    cwd: dir,
    sessionId: options.sessionId ?? 'session-1',
    env: options.env ?? { PATH: process.env.PATH },
    plansDir: join(dir, 'plans'),
    onFeedback: (item) => feedback.push(item),
  });
  return { hooks, dir, feedback, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const signal = () => new AbortController().signal;
