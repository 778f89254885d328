import { dirname, join } from 'node:path';
import { compareCodeUnits } from '../utils/compare';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { isRecord } from '../utils/is-record';
import { type FileStamp, fileStamp, MAX_CACHED_TEXT, ParsedFileCache } from '../utils/parsed-file-cache';
import { outsideRootMessage, skillOutsideRoot } from './confinement';
import { isSkillDefinition, type SkillDefinition, type SkillScope } from './definition';
import { parseSkillFile } from './skill-file';

/** One folder of skills and the tier it belongs to. */
export interface SkillDir {
  dir: string;
  scope: SkillScope;
  extensionName?: string;
  /** The folder its skills must stay inside (the project, the extension); see confinement.ts. */
  root?: string;
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
 * deeper is searched. Folders that do not exist cost one `existsSync`, candidates one `stat`;
 * the parse of a file `cache` knows in its current bytes is taken from there.
 */
export async function discoverSkills(
  dirs: readonly SkillDir[],
  options: { cache?: ParsedFileCache; fs?: DiscoveryFs } = {},
): Promise<SkillDiscovery> {
  const cache = options.cache ?? ParsedFileCache.disabled();
  const fs = options.fs ?? nodeDiscoveryFs;
  const byName = new Map<string, SkillDefinition>();
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (const source of dirs) {
    for (const file of skillFiles(source.dir, fs)) {
      const stamp = fileStamp(file, fs);
      if (!stamp || seen.has(stamp.identity)) continue;
      seen.add(stamp.identity);
      const place = { location: file, dir: dirname(file), ...(source.root ? { root: source.root } : {}) };
      const outside = skillOutsideRoot(place, (path) => fs.realpath(path));
      if (outside !== undefined) {
        warnings.push(outsideRootMessage(place, outside));
        continue;
      }
      const parsed = await readSkill(file, stamp, source, { cache, fs });
      if (!parsed) continue;
      const skill = source.root ? { ...parsed, root: source.root } : parsed;
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

/** The skill in `file` (undefined: not a skill, or unreadable), from the cache when it is current. */
async function readSkill(
  file: string,
  stamp: FileStamp,
  source: SkillDir,
  { cache, fs }: { cache: ParsedFileCache; fs: DiscoveryFs },
): Promise<SkillDefinition | undefined> {
  // The parse depends on the text and on the tier it was found in.
  const name = `skill\0${source.scope}\0${source.extensionName ?? ''}\0${file}`;
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return undefined;
  }
  const cached = cache.get(name, stamp, text);
  if (isCachedSkill(cached)) return cached.skill ?? undefined;
  const skill = await parseSkillFile(file, text, source);
  if (text.length <= MAX_CACHED_TEXT) cache.set(name, stamp, text, { skill: skill ?? null });
  return skill;
}

/** What readSkill stores; anything else (a hand-edited cache) is parsed again. */
function isCachedSkill(value: unknown): value is { skill: SkillDefinition | null } {
  if (!isRecord(value)) return false;
  const skill = value.skill;
  if (skill === null) return true;
  return isSkillDefinition(skill);
}

const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** `SKILL.md` in `dir` and in each of its folders: candidates, which may not exist. */
function skillFiles(dir: string, fs: DiscoveryFs): string[] {
  if (!fs.existsSync(dir)) return [];
  const files = [join(dir, 'SKILL.md')];
  let entries: import('node:fs').Dirent[];
  try {
    entries = fs.list(dir);
  } catch {
    return files;
  }
  for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    files.push(join(dir, entry.name, 'SKILL.md'));
  }
  return files;
}
