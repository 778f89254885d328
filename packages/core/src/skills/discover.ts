import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCodeUnits } from '../utils/compare';
import { pathIdentity } from '../utils/fs-read';
import { parseSkillFile, type SkillDefinition, type SkillScope } from './skill-file';

/** One folder of skills and the tier it belongs to. */
export interface SkillDir {
  dir: string;
  scope: SkillScope;
  extensionName?: string;
}

export interface SkillDiscovery {
  /** The winning definition of every name, in discovery order. */
  skills: SkillDefinition[];
  /** Name clashes between files, one line each. */
  warnings: string[];
}

/**
 * Every skill in `dirs`, which come lowest precedence first: a later folder's skill replaces an
 * earlier one of the same name (ignoring case), with a warning unless it replaces a built-in.
 * In each folder, `SKILL.md` itself and `<sub>/SKILL.md` one level down are skills; nothing
 * deeper is searched. Folders that do not exist cost one `existsSync`.
 */
export async function discoverSkills(dirs: readonly SkillDir[]): Promise<SkillDiscovery> {
  const byName = new Map<string, SkillDefinition>();
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (const source of dirs) {
    for (const file of skillFiles(source.dir)) {
      const real = pathIdentity(file);
      if (seen.has(real)) continue;
      seen.add(real);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const skill = await parseSkillFile(file, text, source);
      if (!skill) continue;
      const key = skill.name.toLowerCase();
      const previous = byName.get(key);
      if (previous && previous.scope !== 'builtin') {
        warnings.push(
          `Skill conflict detected: "${skill.name}" from "${skill.location}" is overriding the same skill from "${previous.location}".`,
        );
      }
      // Delete first so the map's order is the order of the winning definitions.
      byName.delete(key);
      byName.set(key, skill);
    }
  }
  return { skills: [...byName.values()], warnings };
}

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

const SKIPPED_DIRS = new Set(['node_modules', '.git']);

function skillFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  const own = join(dir, 'SKILL.md');
  if (existsSync(own)) files.push(own);
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return files;
  }
  for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const candidate = join(dir, entry.name, 'SKILL.md');
    if (existsSync(candidate)) files.push(candidate);
  }
  return files;
}
