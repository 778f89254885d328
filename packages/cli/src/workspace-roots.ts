import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Settings } from '@kodo/core/engine';
import type { CliArgs } from './shared/args';
import { ExitCode, FatalError } from './shared/exit-codes';

/**
 * The directories the file tools may touch and the sandbox binds writable: the working
 * directory first (relative paths resolve there), then `context.includeDirectories` from
 * settings and `--include-directories`, each resolved against the working directory. A named
 * directory that does not exist is an input error (exit 42), not a root quietly dropped.
 */
export function workspaceRoots(
  cwd: string,
  args: Pick<CliArgs, 'includeDirectories'>,
  settings: Settings,
  env: NodeJS.ProcessEnv,
): string[] {
  const fromSettings = settings.context?.includeDirectories;
  const named = [
    ...(Array.isArray(fromSettings) ? fromSettings.filter((dir) => typeof dir === 'string') : []).map(
      (dir) => ({ dir, from: 'context.includeDirectories' }),
    ),
    ...(args.includeDirectories ?? []).map((dir) => ({ dir, from: '--include-directories' })),
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
      throw new FatalError(`${from}: ${dir} is not a directory (${absolute}).`, ExitCode.input);
    }
    if (!roots.includes(absolute)) roots.push(absolute);
  }
  return roots;
}
