import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildResult, Tool, ToolContext, ToolInvocation, ToolResult } from '../tools/tool';
import { compareCodeUnits } from '../utils/compare';
import { nodeDiscoveryFs } from '../utils/discovery-fs';
import { escapeXml } from '../utils/xml';
import { type ActivateSkillOptions, activateSkillSpec } from './activate-skill-spec';
import { outsideRootMessage, skillOutsideRoot } from './confinement';
import type { SkillDefinition } from './definition';
import { findSkill } from './enabled';

const MAX_RESOURCE_ITEMS = 200;

/**
 * `activate_skill {name}`: returns the skill's instructions and a listing of its folder, and lets
 * the read tools reach that folder (read-only) even when it lies outside the workspace.
 */
export function createActivateSkillTool(options: ActivateSkillOptions): Tool {
  const tool: Tool = Object.assign(activateSkillSpec(options), {
    build(args: unknown, ctx: ToolContext): BuildResult {
      const name = (args as { name?: unknown } | null)?.name;
      if (typeof name !== 'string' || name.trim() === '') {
        return {
          ok: false,
          error: { type: 'invalid_tool_params', message: "The 'name' parameter must be a non-empty string." },
        };
      }
      const skills = options.skills();
      const skill = findSkill(skills, name);
      if (!skill) {
        return {
          ok: false,
          error: {
            type: 'invalid_tool_params',
            message: `Skill "${name}" not found. Available skills are: ${skills.map((s) => s.name).join(', ')}`,
          },
        };
      }
      const outside = skillOutsideRoot(skill, nodeDiscoveryFs.realpath);
      if (outside !== undefined) {
        return {
          ok: false,
          error: { type: 'path_not_in_workspace', message: outsideRootMessage(skill, outside) },
        };
      }
      return { ok: true, invocation: invocationFor(tool, skill, ctx) };
    },
  });
  return tool;
}

function invocationFor(tool: Tool, skill: SkillDefinition, ctx: ToolContext): ToolInvocation {
  return {
    tool,
    params: { name: skill.name },
    describe: () => skill.name,
    locations: () => [skill.dir],
    async confirmationDetails() {
      const outside = skillOutsideRoot(skill, nodeDiscoveryFs.realpath);
      return {
        kind: 'info',
        title: `Activate Skill: ${skill.name}`,
        prompt:
          outside === undefined
            ? `${skill.description}\n\nResources to be shared with the model:\n${resourceTree(skill.dir)}`
            : outsideRootMessage(skill, outside),
      };
    },
    async execute(): Promise<ToolResult> {
      // Again: the folder may have been swapped for a link since the call was built.
      const outside = skillOutsideRoot(skill, nodeDiscoveryFs.realpath);
      if (outside !== undefined) {
        const message = outsideRootMessage(skill, outside);
        return {
          llmContent: message,
          returnDisplay: message,
          error: { type: 'path_not_in_workspace', message },
        };
      }
      ctx.workspace.allowReading(nodeDiscoveryFs.realpath(skill.dir) ?? skill.dir);
      const tree = resourceTree(skill.dir);
      return {
        llmContent: activatedSkillText(skill, tree),
        returnDisplay: `Skill **${skill.name}** activated. Resources loaded from \`${skill.dir}\`:\n\n${tree}`,
      };
    },
  };
}

/** What the model reads on activation. */
export function activatedSkillText(skill: SkillDefinition, tree: string = resourceTree(skill.dir)): string {
  return `<activated_skill name="${escapeXml(skill.name)}">
<instructions>
${skill.body}
</instructions>
<available_resources>
${tree}
</available_resources>
</activated_skill>`;
}

/** The skill folder as an indented tree (folders end in `/`), at most 200 items. */
export function resourceTree(dir: string): string {
  const lines = [`${dir}/`];
  let count = 0;
  const walk = (path: string, depth: number): boolean => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return true;
    }
    for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      if (count >= MAX_RESOURCE_ITEMS) {
        lines.push(`${'  '.repeat(depth)}... (more items not shown)`);
        return false;
      }
      count += 1;
      const isDir = entry.isDirectory();
      lines.push(`${'  '.repeat(depth)}${entry.name}${isDir ? '/' : ''}`);
      if (isDir && !walk(join(path, entry.name), depth + 1)) return false;
    }
    return true;
  };
  walk(dir, 1);
  return lines.join('\n');
}
