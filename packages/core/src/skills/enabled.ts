import type { SkillDefinition } from './definition';

// Lookups in a discovered list of skills, apart from discovery so the runs that take that list
// from a snapshot do not load the code that reads and parses skill files.

/** The skills not named in `disabled` (case-insensitive). */
export function enabledSkills(
  skills: readonly SkillDefinition[],
  disabled: readonly string[],
): SkillDefinition[] {
  const off = new Set(disabled.map((name) => name.toLowerCase()));
  return skills.filter((skill) => !off.has(skill.name.toLowerCase()));
}

/** Finds a skill by name, ignoring case. */
export function findSkill(skills: readonly SkillDefinition[], name: string): SkillDefinition | undefined {
  const key = name.trim().toLowerCase();
  return skills.find((skill) => skill.name.toLowerCase() === key);
}
