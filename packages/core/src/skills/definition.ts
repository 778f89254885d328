import { hasStringFields } from '../utils/is-record';

/** Where a skill came from, lowest precedence first (a later tier wins a name clash). */
export type SkillScope = 'builtin' | 'extension' | 'user' | 'workspace';

export interface SkillDefinition {
  /** The name the model and `/skills` use (sanitised; lookups ignore case). */
  name: string;
  description: string;
  /** The SKILL.md body: the instructions the model gets on activation. */
  body: string;
  /** Absolute path of SKILL.md. */
  location: string;
  /** The skill's folder: its resources. */
  dir: string;
  scope: SkillScope;
  /** The extension or plugin that brings it. */
  extensionName?: string;
  /** The folder its files must stay inside (project, extension); absent for the user's own. */
  root?: string;
}

/** Whether data read back from a cache file has a skill definition's shape. */
export function isSkillDefinition(value: unknown): value is SkillDefinition {
  return hasStringFields(value, ['name', 'description', 'body', 'location', 'dir', 'scope']);
}
