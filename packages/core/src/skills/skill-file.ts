import { basename, dirname } from 'node:path';
import { parseFrontmatter } from '../utils/frontmatter';
import type { SkillDefinition, SkillScope } from './definition';

/**
 * Reads one SKILL.md. Gemini CLI wants `name` and `description` in the frontmatter; Claude Code
 * defaults the name to the folder and the description to the first body line. kodo accepts both,
 * so a file written for either loads. A file without frontmatter, or with neither a description
 * nor a body line to take one from, is not a skill (undefined).
 */
export async function parseSkillFile(
  location: string,
  text: string,
  source: { scope: SkillScope; extensionName?: string },
): Promise<SkillDefinition | undefined> {
  const parsed = await parseFrontmatter(text);
  if (!parsed || parsed.list) return undefined;
  const dir = dirname(location);
  const rawName =
    typeof parsed.data.name === 'string' && parsed.data.name.trim() !== '' ? parsed.data.name : basename(dir);
  const description =
    typeof parsed.data.description === 'string' && parsed.data.description.trim() !== ''
      ? parsed.data.description.trim()
      : firstLine(parsed.body);
  if (description === undefined) return undefined;
  return {
    name: sanitizeSkillName(rawName.trim()),
    description,
    body: parsed.body,
    location,
    dir,
    scope: source.scope,
    ...(source.extensionName ? { extensionName: source.extensionName } : {}),
  };
}

/** Characters that cannot be part of a command or file name become `-`. */
export function sanitizeSkillName(name: string): string {
  return name.replace(/[:\\/<>*?"|]/g, '-');
}

function firstLine(body: string): string | undefined {
  const line = body
    .split(/\r?\n/)
    .map((candidate) => candidate.replace(/^#+\s*/, '').trim())
    .find((candidate) => candidate !== '');
  return line;
}
