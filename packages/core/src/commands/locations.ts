import { join } from 'node:path';
import { claudeHome, geminiHome, kodoHome } from '../config/paths';
import { compareCodeUnits } from '../utils/compare';
import type { CommandScope } from './definition';

/** One folder of command files: which formats it holds and where it ranks. */
export interface CommandDir {
  dir: string;
  formats: readonly ('toml' | 'markdown')[];
  scope: CommandScope;
  extensionName?: string;
  extensionPath?: string;
}

export interface CommandLocationOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Project commands load only in trusted folders. */
  trusted: boolean;
  /** The `commands/` folders of the active extensions (TOML) and Claude Code plugins (Markdown). */
  extensions?: readonly { name: string; dir: string; root: string; kind: 'gemini' | 'claude-plugin' }[];
}

/**
 * Every folder kodo reads commands from (docs/extending.md): the user's (`~/.gemini/commands`,
 * `~/.claude/commands`, `~/.kodo/commands`), the project's in the same order, then extensions.
 * Within a scope a later folder wins a clash; kodo's own folder takes either format.
 */
export function commandDirs(options: CommandLocationOptions): CommandDir[] {
  const scoped = (
    scope: 'user' | 'workspace',
    gemini: string,
    claude: string,
    kodo: string,
  ): CommandDir[] => [
    { dir: gemini, formats: ['toml'], scope },
    { dir: claude, formats: ['markdown'], scope },
    { dir: kodo, formats: ['toml', 'markdown'], scope },
  ];
  const dirs = scoped(
    'user',
    join(geminiHome(options.env), 'commands'),
    join(claudeHome(options.env), 'commands'),
    join(kodoHome(options.env), 'commands'),
  );
  if (options.trusted) {
    const project = (folder: string) => join(options.cwd, folder, 'commands');
    dirs.push(...scoped('workspace', project('.gemini'), project('.claude'), project('.kodo')));
  }
  const extensions = [...(options.extensions ?? [])].sort((a, b) => compareCodeUnits(a.name, b.name));
  for (const extension of extensions) {
    const plugin = extension.kind === 'claude-plugin';
    dirs.push({
      dir: extension.dir,
      formats: plugin ? ['markdown'] : ['toml'],
      scope: plugin ? 'plugin' : 'extension',
      extensionName: extension.name,
      extensionPath: extension.root,
    });
  }
  return dirs;
}
