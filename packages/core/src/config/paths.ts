import { homedir } from 'node:os';
import { join } from 'node:path';

/** The environment variables the functions below read: they say where the homes are. */
export const HOME_VARIABLES = ['HOME', 'KODO_HOME', 'GEMINI_CLI_HOME', 'CLAUDE_CONFIG_DIR'] as const;

/** `~/.kodo`, or `$KODO_HOME` when set. */
export function kodoHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.KODO_HOME && env.KODO_HOME.trim() !== '' ? env.KODO_HOME : join(homedir(), '.kodo');
}

/** Gemini CLI's home (`$GEMINI_CLI_HOME/.gemini` or `~/.gemini`), read for compatibility. */
export function geminiHome(env: NodeJS.ProcessEnv = process.env): string {
  return join(
    env.GEMINI_CLI_HOME && env.GEMINI_CLI_HOME.trim() !== '' ? env.GEMINI_CLI_HOME : homedir(),
    '.gemini',
  );
}

/** The user's home: `$HOME` when set (tests point it at a temp folder), else the OS's. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME && env.HOME.trim() !== '' ? env.HOME : homedir();
}

/** Claude Code's home (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), read for compatibility. */
export function claudeHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CLAUDE_CONFIG_DIR?.trim();
  return override ? override : join(userHome(env), '.claude');
}

/** Codex's home (`$CODEX_HOME`, else `~/.codex`), read for compatibility. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CODEX_HOME?.trim();
  return override ? override : join(userHome(env), '.codex');
}
