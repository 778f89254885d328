import {
  activateSkill,
  type CustomCommand,
  commandTemplateServices,
  type Extensibility,
  type InputSources,
  loadExtensionsModule,
  qualifiedCommandName,
  type SkillDefinition,
  skillActivationParts,
  skillCommandName,
} from '@kodo/core/engine';
import { setSkillDisabled } from '../../shared/settings-edit';
import { heldBackLine } from '../../shared/trust-gate';
import { terminalBuiltin } from './terminal-builtin';
import type { CommandContext, SlashCommand } from './types';

/**
 * What the UI holds of the run's commands, skills and extensions. `reload()` discovers again and
 * updates `loaded` in place, so the activate_skill tool and the system prompt, which read it at
 * each request, see the change.
 */
export interface ExtensibilityHandle {
  loaded: Extensibility | undefined;
  reload(): Promise<string[]>;
  /**
   * Set when the project's own commands, skills and agents are held back because the folder
   * changed since it was trusted (`reason`: it cannot be checked at all); undefined otherwise.
   */
  heldBack?(): { reason?: string } | undefined;
  /** Trusts the folder again as it is now, so the next reload loads its files. */
  trustAgain?(): void;
}

/**
 * The slash commands users bring (custom commands, one per enabled skill) and the commands that
 * manage them (`/commands`, `/skills`). `commands` is the App's list: reloads replace the
 * user-brought entries in it, so completion and dispatch see them at once.
 */
export function extensionSlashCommands(
  handle: ExtensibilityHandle,
  commands: SlashCommand[],
  reserved: ReadonlySet<string>,
): SlashCommand[] {
  const list = { commands, reserved };
  return [commandsCommand(handle, list), skillsCommand(handle, list), ...brought(handle, reserved)];
}

/** The App's command list and the built-in names brought commands may not take. */
interface CommandList {
  commands: SlashCommand[];
  reserved: ReadonlySet<string>;
}

const BROUGHT = Symbol('brought');
/** The command file or skill a registry entry stands for. */
type BroughtSource = { command: CustomCommand } | { skill: SkillDefinition };
type Brought = SlashCommand & { [BROUGHT]: BroughtSource };

/**
 * Whether a registry entry is a custom command or skill: listed for completion and /help, but
 * resolved and expanded by core's input pipeline like everywhere else.
 */
export function isBroughtCommand(command: SlashCommand): boolean {
  return (command as Partial<Brought>)[BROUGHT] !== undefined;
}

/** The custom commands and skills the registry holds now, for core's input pipeline. */
export function broughtSources(commands: readonly SlashCommand[]): Pick<InputSources, 'commands' | 'skills'> {
  const sources = () => commands.flatMap((entry) => (entry as Partial<Brought>)[BROUGHT] ?? []);
  return {
    commands: () => sources().flatMap((source) => ('command' in source ? [source.command] : [])),
    skills: () => sources().flatMap((source) => ('skill' in source ? [source.skill] : [])),
  };
}

function brought(handle: ExtensibilityHandle, reserved: ReadonlySet<string>): Brought[] {
  const loaded = handle.loaded;
  if (!loaded) return [];
  const custom = loaded.commands.map((command) => customCommand(command));
  const taken = new Set([...reserved, ...custom.map((command) => command.name)]);
  // A skill beats nothing here: a custom command of the same name keeps it.
  const skills = loaded.skills
    .map((skill) => skillCommand(skill))
    .filter((command) => !taken.has(command.name));
  return [...custom.filter((command) => !reserved.has(command.name)), ...skills];
}

function refresh(handle: ExtensibilityHandle, list: CommandList): void {
  const { commands } = list;
  for (let index = commands.length - 1; index >= 0; index -= 1) {
    if ((commands[index] as Partial<Brought>)[BROUGHT]) commands.splice(index, 1);
  }
  commands.push(...brought(handle, list.reserved));
}

function customCommand(command: CustomCommand): Brought {
  // A plugin command named without its prefix still answers to `/<plugin>:<name>`.
  const qualified = qualifiedCommandName(command)?.toLowerCase();
  const name = command.name.toLowerCase();
  return {
    [BROUGHT]: { command },
    name,
    ...(qualified && qualified !== name ? { aliases: [qualified] } : {}),
    description: command.argumentHint
      ? `${command.description} ${command.argumentHint}`
      : command.description,
    async run(context) {
      const module = await loadExtensionsModule();
      const services = commandTemplateServices(context.session, {
        onEvent: () => undefined,
        commandName: command.name,
      });
      try {
        const expanded = await module.expandCommand(
          command,
          context.args,
          services,
          new AbortController().signal,
        );
        await context.sendPrompt(expanded.parts, `/${command.name}${context.args ? ` ${context.args}` : ''}`);
      } catch (error) {
        if (!(error instanceof module.CommandExpansionError)) throw error;
        context.addItem({ kind: 'info', tone: 'error', text: `/${command.name}: ${error.message}` });
      }
    },
  };
}

/**
 * `/<skill>`: activates the skill as the model's own `activate_skill` call would (the same
 * approval, the skill folder becomes readable), then sends what that call returns — the
 * `<activated_skill>` element with the SKILL.md body and its resources — with the typed text
 * after it, so the model has the instructions whichever way the skill was started.
 */
function skillCommand(skill: SkillDefinition): Brought {
  const name = skillCommandName(skill);
  return {
    [BROUGHT]: { skill },
    name,
    description: skill.description,
    async run(context) {
      const activated = await activateSkill(context.session, skill.name, new AbortController().signal);
      if (!activated.ok) {
        context.addItem({ kind: 'info', tone: 'error', text: activated.message });
        return;
      }
      await context.sendPrompt(
        skillActivationParts(skill.name, activated.instructions, context.args),
        `/${name}${context.args ? ` ${context.args}` : ''}`,
      );
    },
  };
}

function commandsCommand(handle: ExtensibilityHandle, commands: CommandList): SlashCommand {
  return terminalBuiltin('commands', {
    subcommands: [
      { name: 'list', description: 'Every custom command and its file' },
      { name: 'reload', description: 'Read the command files again' },
    ],
    whileBusy: true,
    async run(context) {
      if (context.args === 'reload') {
        await reloadAll(handle, commands, context);
        return;
      }
      const list = handle.loaded?.commands ?? [];
      context.addItem({
        kind: 'panel',
        title: 'Custom commands',
        body: withHeldBack(
          handle,
          'commands',
          list.length === 0
            ? 'No custom commands. See docs/extending.md for the folders kodo reads.'
            : list
                .map((command) => `/${command.name}  ${command.description}\n    ${command.path}`)
                .join('\n'),
        ),
      });
    },
  });
}

function skillsCommand(handle: ExtensibilityHandle, commands: CommandList): SlashCommand {
  return terminalBuiltin('skills', {
    subcommands: [
      { name: 'list', description: 'Every skill found, and whether it is enabled' },
      { name: 'enable', description: 'Enable a skill (skills.disabled)' },
      { name: 'disable', description: 'Disable a skill (skills.disabled)' },
      { name: 'reload', description: 'Discover skills again' },
    ],
    whileBusy: true,
    async run(context) {
      const [sub, ...rest] = context.args.split(/\s+/).filter((word) => word !== '');
      if (sub === 'reload' || sub === 'refresh') {
        await reloadAll(handle, commands, context);
        return;
      }
      if (sub === 'enable' || sub === 'disable') {
        const name = rest.join(' ');
        const skill = handle.loaded?.allSkills.find(
          (candidate) => candidate.name.toLowerCase() === name.toLowerCase(),
        );
        if (!skill) {
          context.addItem({ kind: 'info', tone: 'error', text: `Skill "${name}" not found.` });
          return;
        }
        const scope = context.settings.scopes?.some((entry) => entry.scope === 'project')
          ? 'workspace'
          : 'user';
        const path = await setSkillDisabled(context.settings, {
          name: skill.name,
          disabled: sub === 'disable',
          scope,
          cwd: context.cwd,
          env: context.env,
        });
        await reloadAll(handle, commands, context, { quiet: true });
        context.addItem({
          kind: 'info',
          tone: 'info',
          text: path
            ? `Skill "${skill.name}" ${sub}d (${path}).`
            : `Skill "${skill.name}" was already ${sub}d there.`,
        });
        return;
      }
      const loaded = handle.loaded;
      const enabled = new Set(loaded?.skills.map((skill) => skill.location));
      const all = loaded?.allSkills ?? [];
      context.addItem({
        kind: 'panel',
        title: 'Agent skills',
        body: withHeldBack(
          handle,
          'skills',
          all.length === 0
            ? 'No skills. See docs/extending.md for the folders kodo reads.'
            : all
                .map(
                  (skill) =>
                    `${skill.name}${enabled.has(skill.location) ? '' : ' [disabled]'} (${skill.scope})  ${skill.description}\n    ${skill.location}`,
                )
                .join('\n'),
        ),
      });
    },
  });
}

/** A list, and the line that says the project's own are held back when they are (/commands reload offers to trust again). */
function withHeldBack(handle: ExtensibilityHandle, items: string, body: string): string {
  const held = handle.heldBack?.();
  return held ? `${body}\n\n${heldBackLine(items, held)} Or /commands reload to trust it again now.` : body;
}

async function reloadAll(
  handle: ExtensibilityHandle,
  commands: CommandList,
  context: CommandContext,
  options: { quiet?: boolean } = {},
): Promise<void> {
  const warnings = await handle.reload();
  refresh(handle, commands);
  for (const warning of warnings) context.addItem({ kind: 'info', tone: 'warning', text: warning });
  if (await offerTrustAgain(handle, commands, context)) return;
  if (!options.quiet) reportReloaded(handle, context);
}

function reportReloaded(handle: ExtensibilityHandle, context: CommandContext): void {
  const loaded = handle.loaded;
  context.addItem({
    kind: 'info',
    tone: 'info',
    text: `Reloaded: ${loaded?.commands.length ?? 0} commands, ${loaded?.skills.length ?? 0} skills.`,
  });
}

/**
 * A folder that changed since it was trusted has its own commands and skills held back: say so
 * (rather than "0 commands") and offer to trust it again as it is now, then reload. True when
 * it handled the report.
 */
async function offerTrustAgain(
  handle: ExtensibilityHandle,
  commands: CommandList,
  context: CommandContext,
): Promise<boolean> {
  const held = handle.heldBack?.();
  if (!held) return false;
  context.addItem({ kind: 'info', tone: 'warning', text: heldBackLine('commands, skills and agents', held) });
  if (!handle.trustAgain) return false;
  const answer = await context.choose({
    title: 'Trust this folder again as it is now?',
    items: [
      { value: 'trust', label: 'Trust again and reload', description: 'after reviewing what changed' },
      { value: 'keep', label: 'Not now', description: 'keep its commands, skills and agents held back' },
    ],
    initial: 'keep',
  });
  if (answer !== 'trust') return false;
  handle.trustAgain();
  const warnings = await handle.reload();
  refresh(handle, commands);
  for (const warning of warnings) context.addItem({ kind: 'info', tone: 'warning', text: warning });
  context.addItem({
    kind: 'info',
    tone: 'success',
    text: 'This folder is trusted again as it is now. Its settings, hooks and MCP servers take effect the next time kodo starts here.',
  });
  reportReloaded(handle, context);
  return true;
}
