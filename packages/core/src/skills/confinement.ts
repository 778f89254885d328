import { isInside } from '../tools/workspace';

/**
 * A skill's files must stay inside the folder it was found for (`root`): the project for a
 * project skill, the extension's folder for an extension's. A skill folder or SKILL.md that is a
 * symlink leading elsewhere would otherwise make that place readable once the skill is active
 * (activate_skill opens the folder to the read tools). The person's own user folders have no
 * root: linking skills in from elsewhere is how people share them between programs.
 */
export interface ConfinedSkill {
  /** The SKILL.md. */
  location: string;
  /** Its folder. */
  dir: string;
  /** The folder it must stay inside, or none. */
  root?: string;
}

/**
 * Where the skill's folder or SKILL.md really is when that lies outside its root (or cannot be
 * resolved); undefined when the skill stays inside. `realpath` is the caller's (discovery
 * records its reads), undefined for a path that does not resolve.
 */
export function skillOutsideRoot(
  skill: ConfinedSkill,
  realpath: (path: string) => string | undefined,
): string | undefined {
  if (skill.root === undefined) return undefined;
  const root = realpath(skill.root) ?? skill.root;
  for (const path of [skill.dir, skill.location]) {
    const real = realpath(path);
    if (real === undefined) return path;
    if (!isInside(root, real)) return real;
  }
  return undefined;
}

/** The one-line reason a skill that leads outside its root is refused. */
export function outsideRootMessage(skill: ConfinedSkill & { name?: string }, outside: string): string {
  const which = skill.name ? `Skill "${skill.name}" (${skill.location})` : `The skill at ${skill.location}`;
  return `${which} is not loaded: it leads to ${outside}, outside ${skill.root} (a symlink out of the folder it was found in is refused).`;
}
