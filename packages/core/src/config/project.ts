import { basename, join } from 'node:path';
import { fnv1a } from '../utils/fnv1a';
import { kodoHome } from './paths';

/**
 * A project's short id: the basename of its root, lower-cased, runs of other characters turned
 * into `-` (empty → `project`), plus a short hash of the full path so two checkouts with the same
 * name never share state. (Gemini CLI keeps a path → id registry file instead; a hash needs none.)
 */
export function projectId(projectRoot: string): string {
  const slug =
    basename(projectRoot)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'project';
  return `${slug}-${fnv1a(projectRoot).toString(16).padStart(8, '0')}`;
}

/** `~/.kodo/tmp/<project id>`: spilled tool output, plans and other per-project scratch files. */
export function projectTempDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(kodoHome(env), 'tmp', projectId(projectRoot));
}
