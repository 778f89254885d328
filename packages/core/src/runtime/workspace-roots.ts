import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Settings } from '../config/settings';
import { RuntimeSetupError } from './setup-error';

/**
 * The directories the file tools may touch and the sandbox binds writable: the working
 * directory first (relative paths resolve there), then `context.includeDirectories` from
 * settings and `--include-directories`, each resolved against the working directory. A named
 * directory that does not exist is an `input` failure, not a root quietly dropped.
 */
export function workspaceRoots(
  cwd: string,
  flags: { includeDirectories?: string[] | undefined },
  settings: Settings,
  env: NodeJS.ProcessEnv,
): string[] {
  const fromSettings = settings.context?.includeDirectories;
  const named = [
    ...(Array.isArray(fromSettings) ? fromSettings.filter((dir) => typeof dir === 'string') : []).map(
      (dir) => ({ dir, from: 'context.includeDirectories' }),
    ),
    ...(flags.includeDirectories ?? []).map((dir) => ({ dir, from: '--include-directories' })),
  ];
  const roots = [cwd];
  for (const { dir, from } of named) {
    const expanded = dir === '~' || dir.startsWith('~/') ? `${env.HOME ?? ''}${dir.slice(1)}` : dir;
    const absolute = resolve(cwd, expanded);
    let isDirectory = false;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      // Reported below.
    }
    if (!isDirectory) {
      throw new RuntimeSetupError(`${from}: ${dir} is not a directory (${absolute}).`, 'input');
    }
    if (!roots.includes(absolute)) roots.push(absolute);
  }
  return roots;
}
