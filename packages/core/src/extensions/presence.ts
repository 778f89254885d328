import { existsSync } from 'node:fs';
import { agentDirs } from '../agents/locations';
import { commandDirs } from '../commands/locations';
import { skillDirs } from '../skills/locations';
import { type ExtensionLocations, extensionLocations, hasExtensionFoldersAt } from './locations';

/**
 * Whether there is anything to discover: commands, skills, agents or extensions in any folder
 * kodo reads. One `existsSync` per folder, no parser loaded, so a setup without any of them
 * pays nothing more on the way to the first request.
 */
export function hasExtensibilityFiles(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
}): boolean {
  const locations: ExtensionLocations = extensionLocations(options.env);
  if (hasExtensionFoldersAt(locations)) return true;
  const dirs = [
    ...skillDirs(options).map((entry) => entry.dir),
    ...commandDirs(options).map((entry) => entry.dir),
    ...agentDirs(options).map((entry) => entry.dir),
  ];
  return dirs.some((dir) => existsSync(dir));
}

/** Whether the project has agent folders of its own (then their acknowledgement is checked). */
export function hasProjectAgentFolders(options: { cwd: string; env: NodeJS.ProcessEnv }): boolean {
  return agentDirs({ ...options, trusted: true })
    .filter((entry) => entry.scope === 'project')
    .some((entry) => existsSync(entry.dir));
}
