import type { FunctionDeclaration } from '../contracts/messages';
import type { ToolSpec } from '../tools/tool';
import type { SkillDefinition } from './definition';

export const ACTIVATE_SKILL_TOOL = 'activate_skill';

export interface ActivateSkillOptions {
  /** The enabled skills, read at each request (`/skills enable|disable|reload` change them). */
  skills: () => readonly SkillDefinition[];
}

/**
 * What the model is told of `activate_skill`, apart from its implementation so a session can
 * declare it without loading that (see extensions/startup.ts). Built by hand rather than with
 * zod: its schema depends on the skills found, and it is declared on the path to the first
 * request.
 */
export function activateSkillSpec(options: ActivateSkillOptions): ToolSpec {
  return {
    name: ACTIVATE_SKILL_TOOL,
    displayName: 'Activate Skill',
    kind: 'other',
    get description() {
      return describeTool(options.skills());
    },
    declaration(): FunctionDeclaration {
      const skills = options.skills();
      const names = skills.map((skill) => skill.name);
      const name =
        names.length > 0
          ? { type: 'string', enum: names, description: 'The name of the skill to activate.' }
          : { type: 'string', description: 'No skills are currently available.' };
      return {
        name: ACTIVATE_SKILL_TOOL,
        description: describeTool(skills),
        parametersJsonSchema: { type: 'object', properties: { name }, required: ['name'] },
      };
    },
  };
}

function describeTool(skills: readonly SkillDefinition[]): string {
  const base =
    "Activates an Agent Skill: returns the skill's instructions and the list of its resource files, which can then be read with the file tools. Use it when the task matches a skill's description in the system prompt.";
  if (skills.length === 0) return base;
  return `${base} (Available: ${skills.map((skill) => `'${skill.name}'`).join(', ')})`;
}
