import { join } from 'node:path';
import { claudeHome, geminiHome, kodoHome, userHome } from '../config/paths';
import type { SkillDir } from './discover';

export interface SkillLocationOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Project skills load only in trusted folders. */
  trusted: boolean;
  /** The `skills/` folders of the active extensions and plugins, and each one's own folder. */
  extensions?: readonly { name: string; dir: string; root?: string }[];
}

/**
 * Every folder kodo reads skills from, lowest precedence first (docs/extending.md): extensions,
 * then the user's (`~/.gemini/skills`, `~/.claude/skills`, `~/.agents/skills`, `~/.kodo/skills`),
 * then the project's in the same order. Inside a tier the later folder wins, so kodo's own
 * folder beats the shared `.agents` alias, which beats the other programs' folders. A project's
 * and an extension's skills must stay inside the project and the extension (confinement.ts).
 */
export function skillDirs(options: SkillLocationOptions): SkillDir[] {
  const home = userHome(options.env);
  const dirs: SkillDir[] = (options.extensions ?? []).map((extension) => ({
    dir: extension.dir,
    scope: 'extension',
    extensionName: extension.name,
    root: extension.root ?? extension.dir,
  }));
  const user = [
    join(geminiHome(options.env), 'skills'),
    join(claudeHome(options.env), 'skills'),
    join(home, '.agents', 'skills'),
    join(kodoHome(options.env), 'skills'),
  ];
  dirs.push(...user.map((dir): SkillDir => ({ dir, scope: 'user' })));
  if (options.trusted) {
    const project = ['.gemini', '.claude', '.agents', '.kodo'].map((folder) =>
      join(options.cwd, folder, 'skills'),
    );
    dirs.push(...project.map((dir): SkillDir => ({ dir, scope: 'workspace', root: options.cwd })));
  }
  return dirs;
}
