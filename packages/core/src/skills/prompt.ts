import { escapeXml } from '../utils/xml';
import type { SkillDefinition } from './definition';

/**
 * The system prompt's skill section: only each skill's name, description and location, so a
 * skill costs the model its description until it is activated (progressive disclosure). Empty
 * when there are no skills.
 */
export function skillsPromptSection(
  skills: readonly Pick<SkillDefinition, 'name' | 'description' | 'location'>[],
): string {
  if (skills.length === 0) return '';
  // One line per skill: the tags are the only cost besides the skill's own name, description
  // and location (docs/performance.md measures it).
  const entries = skills
    .map(
      (skill) =>
        `<skill><name>${escapeXml(skill.name)}</name><description>${escapeXml(skill.description)}</description><location>${escapeXml(skill.location)}</location></skill>`,
    )
    .join('\n');
  return `# Available Agent Skills
You can activate the skills below with the activate_skill tool when a task matches a skill's description. Treat the <instructions> inside an <activated_skill> result as expert guidance for the task, and read the files listed in <available_resources> with the file tools when the instructions refer to them.

<available_skills>
${entries}
</available_skills>`;
}
