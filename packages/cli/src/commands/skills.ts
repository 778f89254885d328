import { loadExtensionsModule, type SkillDefinition, skillSettings } from '@kodo/core/engine';
import { heldBackLine, settingsForFolder } from '../trust-gate';
import { KODO_BUILD_KEY } from '../version';
import { asksForHelp } from './asks-for-help';
import { type EditScope, setSkillDisabled } from './settings-edit';

export interface SkillsCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = `Usage: kodo skills <command>

  list                                     Every skill kodo finds, and whether it is enabled
  enable <name>                            Remove it from skills.disabled (user and workspace)
  disable <name> [--scope user|workspace]  Add it to skills.disabled (default: workspace)
`;

/** `kodo skills …` (alias `skill`): lists skills and writes `skills.disabled`; see docs/extending.md. */
export async function runSkillsCommand(context: SkillsCommandContext): Promise<number> {
  if (asksForHelp(context.args)) {
    context.stdout.write(USAGE);
    return 0;
  }
  const [sub, ...rest] = context.args;
  const scopeIndex = rest.findIndex(
    (word) => word === '--scope' || word === '-s' || word.startsWith('--scope='),
  );
  let scope: EditScope = 'workspace';
  const words = [...rest];
  if (scopeIndex >= 0) {
    const word = words[scopeIndex]!;
    const value = word.includes('=') ? word.split('=')[1] : words[scopeIndex + 1];
    words.splice(scopeIndex, word.includes('=') ? 1 : 2);
    if (value !== 'user' && value !== 'workspace')
      return usage(context, `--scope must be user or workspace, not ${String(value)}.`);
    scope = value;
  }
  const { loaded, trusted, status } = settingsForFolder(context);
  switch (sub) {
    case 'list': {
      const skills = await allSkills(context, trusted);
      const { disabled } = skillSettings(loaded.merged, loaded.scopes);
      const off = new Set(disabled.map((name) => name.toLowerCase()));
      if (skills.length === 0) context.stdout.write('No skills found.\n');
      for (const skill of skills) {
        const state = off.has(skill.name.toLowerCase()) ? ' [disabled]' : '';
        context.stdout.write(
          `${skill.name}${state} (${skill.scope}${skill.extensionName ? `: ${skill.extensionName}` : ''})\n  ${skill.description}\n  ${skill.location}\n`,
        );
      }
      // Rather than a silently shorter list: the project's own are missing, and why.
      if (status.state === 'changed') context.stdout.write(`${heldBackLine('skills', status)}\n`);
      return 0;
    }
    case 'enable':
    case 'disable': {
      if (words.length !== 1) return usage(context, `kodo skills ${sub} needs one name.`);
      const name = words[0]!;
      const skills = await allSkills(context, trusted);
      const skill = skills.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      if (!skill && sub === 'disable') {
        context.stderr.write(
          `Skill "${name}" not found. Available skills are: ${skills.map((s) => s.name).join(', ')}\n`,
        );
        return 1;
      }
      const place = { cwd: context.cwd, env: context.env };
      if (sub === 'disable') {
        const path = await setSkillDisabled(loaded, { name: skill!.name, disabled: true, scope, ...place });
        context.stdout.write(
          path
            ? `Skill "${skill!.name}" disabled (${path}).\n`
            : `Skill "${skill!.name}" is already disabled in the ${scope} settings.\n`,
        );
        return 0;
      }
      const paths = [
        await setSkillDisabled(loaded, { name, disabled: false, scope: 'workspace', ...place }),
        await setSkillDisabled(loaded, { name, disabled: false, scope: 'user', ...place }),
      ].filter((path): path is string => path !== undefined);
      context.stdout.write(
        paths.length > 0
          ? `Skill "${name}" enabled (${paths.join(', ')}).\n`
          : `Skill "${name}" is already enabled.\n`,
      );
      return 0;
    }
    default:
      return usage(context, sub ? `Unknown command: ${sub}` : undefined);
  }
}

async function allSkills(context: SkillsCommandContext, trusted: boolean): Promise<SkillDefinition[]> {
  const module = await loadExtensionsModule();
  const loaded = await module.loadExtensibility({
    cwd: context.cwd,
    env: context.env,
    trusted,
    ...(KODO_BUILD_KEY ? { buildKey: KODO_BUILD_KEY } : {}),
  });
  for (const warning of loaded.warnings) context.stderr.write(`[WARNING] ${warning}\n`);
  return loaded.allSkills;
}

function usage(context: SkillsCommandContext, message?: string): number {
  context.stderr.write(`${USAGE}${message ? `\n${message}\n` : ''}`);
  return message ? 1 : 0;
}
