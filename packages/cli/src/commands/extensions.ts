import { parse } from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  type Extension,
  type ExtensionSettingDecl,
  type ExtensionsModule,
  loadExtensionsModule,
} from '@kodo/core/engine';
import { asksForHelp } from './asks-for-help';
import { askOnTerminal, readAllInput } from './setting-prompt';

export interface ExtensionsCommandContext {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether a person can answer the consent question (stdin and stdout are terminals). */
  interactive: boolean;
  /** Asks a yes/no question; default: readline on the terminal. */
  ask?: (question: string) => Promise<string>;
  /** Asks for a setting's value (not echoed when hidden); undefined = cancelled. Default: the terminal. */
  askValue?: (question: string, options: { hidden: boolean }) => Promise<string | undefined>;
  /** Piped standard input, for a setting's value in scripts. Default: process.stdin. */
  readInput?: () => Promise<string>;
}

const USAGE = `Usage: kodo extensions <command>

  install <git URL | path> [--ref <ref>] [--consent] [--skip-settings]
                                                       Install (copy or clone) an extension or plugin
  link <path> [--consent] [--skip-settings]            Use an extension from where it is
  config <name> [setting] [--scope user|workspace]     Set the extension's settings (a value may be piped in)
  list [-o text|json]                                  Installed extensions (kodo, Gemini CLI, Claude Code)
  enable <name> [--scope user|workspace]               Enable everywhere (user, the default) or in this folder
  disable <name> [--scope user|workspace]              Disable everywhere (user, the default) or in this folder
  update <name> | --all                                Update from the source
  uninstall <name>...                                  Remove extensions kodo installed
`;

/** `kodo extensions …` (alias `extension`): manages installed extensions; see docs/extending.md. */
export async function runExtensionsCommand(context: ExtensionsCommandContext): Promise<number> {
  if (asksForHelp(context.args)) {
    context.stdout.write(USAGE);
    return 0;
  }
  const [sub, ...rest] = context.args;
  const flags = parseFlags(rest);
  if (!flags.ok) return usage(context, flags.message);
  const module = await loadExtensionsModule();
  const locations = module.extensionLocations(context.env);
  const place = { locations, cwd: context.cwd, env: context.env };
  const out = (text: string) => context.stdout.write(`${text}\n`);
  const err = (text: string) => context.stderr.write(`${text}\n`);
  const { positional, values } = flags;
  try {
    switch (sub) {
      case 'install':
      case 'link': {
        if (positional.length !== 1) return usage(context, `kodo extensions ${sub} needs one source.`);
        const consent = values.consent === true;
        const asks = context.interactive && values['skip-settings'] !== true;
        const extension = await module.installExtension({
          source: positional[0]!,
          ...(typeof values.ref === 'string' ? { ref: values.ref } : {}),
          link: sub === 'link',
          ...place,
          confirm: (text) => confirm(context, text, { consent }),
          ...(asks ? { askSetting: (setting: ExtensionSettingDecl) => askSetting(context, setting) } : {}),
        });
        out(
          `Extension "${extension.name}" ${sub === 'link' ? 'linked' : 'installed'} successfully and enabled.`,
        );
        const notes = extension.notes;
        if (notes.length > 0) {
          // Said once, here; runs stay quiet about them (kept in compat-notes.json for `kodo doctor`).
          module.recordCompatNotes(context.env, notes);
          err(
            `What kodo cannot give this plugin (noted in ${module.compatNotesFile(context.env)}):\n${notes.map((note) => `  * ${note}`).join('\n')}`,
          );
        }
        if (extension.missingSettings.length > 0) {
          const why = asks ? '' : context.interactive ? ' (--skip-settings)' : ' (no terminal to ask on)';
          err(
            `[WARNING] Extension "${extension.name}" has settings without a value${why}: ${extension.missingSettings.map((setting) => `${setting.name} (${setting.envVar})`).join(', ')}. Please run "kodo extensions config ${extension.name} [setting-name]" to configure them.`,
          );
        }
        return 0;
      }
      case 'config':
        return await configure(context, module, place, { positional, values });
      case 'list': {
        const { extensions, warnings } = module.discoverExtensions(place);
        for (const warning of warnings) err(`[WARNING] ${warning}`);
        if (values.o === 'json' || values['output-format'] === 'json') {
          out(JSON.stringify(extensions, maskSecrets(module, extensions, place), 2));
          return 0;
        }
        out(
          extensions.length === 0
            ? 'No extensions installed.'
            : extensions.map((extension) => describe(extension, module.contentsOf(extension))).join('\n\n'),
        );
        return 0;
      }
      case 'enable':
      case 'disable': {
        if (positional.length !== 1) return usage(context, `kodo extensions ${sub} needs one name.`);
        const name = positional[0]!;
        const known = module
          .discoverExtensions(place)
          .extensions.find((extension) => extension.name === name);
        if (!known) {
          err(`Extension not found: ${name}`);
          return 1;
        }
        const scope = values.scope ?? 'user';
        if (scope !== 'user' && scope !== 'workspace')
          return usage(context, `--scope must be user or workspace, not ${String(scope)}.`);
        // User scope: a rule for the whole file system (every folder this user works in).
        const dir = scope === 'user' ? parse(context.cwd).root : context.cwd;
        module.ExtensionEnablement.inDirs(locations.kodo).set(name, dir, sub === 'enable');
        out(`Extension "${name}" successfully ${sub}d for scope "${scope}".`);
        return 0;
      }
      case 'update': {
        const names =
          values.all === true
            ? module.discoverExtensions(place).extensions.map((extension) => extension.name)
            : positional;
        if (names.length === 0) return usage(context, 'kodo extensions update needs a name or --all.');
        let failed = false;
        for (const name of names) {
          const outcome = await module.updateExtension({
            name,
            ...place,
            confirm: (text) => confirm(context, text, { consent: values.consent === true }),
          });
          out(`${outcome.name}: ${outcome.state}${outcome.message ? ` (${outcome.message})` : ''}`);
          if (outcome.state === 'error') failed = true;
        }
        return failed ? 1 : 0;
      }
      case 'uninstall':
      case 'delete': {
        if (positional.length === 0) return usage(context, 'kodo extensions uninstall needs a name.');
        for (const name of positional) {
          await module.uninstallExtension({ name, ...place });
          out(`Extension "${name}" successfully uninstalled.`);
        }
        return 0;
      }
      default:
        return usage(context, sub ? `Unknown command: ${sub}` : undefined);
    }
  } catch (error) {
    if (error instanceof module.ExtensionInstallError) {
      err(error.message);
      return 1;
    }
    throw error;
  }
}

/** `-l/--list-extensions`: one line per extension and whether it is on here. */
export async function listExtensionsBrief(context: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
}): Promise<number> {
  const module = await loadExtensionsModule();
  const { extensions } = module.discoverExtensions({
    locations: module.extensionLocations(context.env),
    cwd: context.cwd,
    env: context.env,
  });
  if (extensions.length === 0) context.stdout.write('No extensions installed.\n');
  else {
    context.stdout.write('Installed extensions:\n');
    for (const extension of extensions) {
      context.stdout.write(
        `- ${extension.name} (${extension.version})${extension.enabled ? '' : ' [disabled]'}\n`,
      );
    }
  }
  return 0;
}

/** A setting's question at install; undefined (Ctrl-C, end of input, no answer) leaves it unset. */
async function askSetting(
  context: ExtensionsCommandContext,
  setting: ExtensionSettingDecl,
  current?: { set: boolean; value?: string },
): Promise<string | undefined> {
  const shown = current?.set
    ? setting.sensitive
      ? ' [set; Enter keeps it]'
      : ` [${current.value ?? ''}; Enter keeps it]`
    : '';
  const question = `${setting.name}${setting.description ? ` (${setting.description})` : ''}${shown}: `;
  const ask =
    context.askValue ??
    ((text: string, options: { hidden: boolean }) =>
      askOnTerminal(text, { input: process.stdin, output: process.stderr }, options));
  const answer = await ask(question, { hidden: setting.sensitive === true });
  const value = answer?.trim();
  return value ? value : undefined;
}

/**
 * `kodo extensions config <name> [setting] [--scope user|workspace]`: asks for each setting
 * (or the one named) on a terminal. Without one, a named setting's value is read from piped
 * input (`echo "$TOKEN" | kodo extensions config github TOKEN`: no secret in the command line),
 * and without a setting name it lists which are set; it never waits for a person.
 */
async function configure(
  context: ExtensionsCommandContext,
  module: ExtensionsModule,
  place: {
    locations: ReturnType<ExtensionsModule['extensionLocations']>;
    cwd: string;
    env: NodeJS.ProcessEnv;
  },
  flags: { positional: string[]; values: Record<string, string | true> },
): Promise<number> {
  const out = (text: string) => context.stdout.write(`${text}\n`);
  const err = (text: string) => context.stderr.write(`${text}\n`);
  const [name, wanted] = flags.positional;
  if (!name || flags.positional.length > 2)
    return usage(context, 'kodo extensions config needs an extension name and at most one setting.');
  const scope = flags.values.scope ?? 'user';
  if (scope !== 'user' && scope !== 'workspace')
    return usage(context, `--scope must be user or workspace, not ${String(scope)}.`);
  const extension = module.discoverExtensions(place).extensions.find((candidate) => candidate.name === name);
  if (!extension) {
    err(`Extension not found: ${name}`);
    return 1;
  }
  if (extension.settings.length === 0) {
    out(`Extension "${name}" has no settings.`);
    return 0;
  }
  const settings = wanted
    ? extension.settings.filter(
        (setting) =>
          setting.name.toLowerCase() === wanted.toLowerCase() ||
          setting.envVar.toLowerCase() === wanted.toLowerCase(),
      )
    : extension.settings;
  if (settings.length === 0) {
    err(
      `Extension "${name}" has no setting "${wanted}". Its settings: ${extension.settings.map((setting) => setting.name).join(', ')}.`,
    );
    return 1;
  }
  const settingPlace = { name, installDir: extension.installDir, cwd: place.cwd, env: place.env };
  const current = module.readSettingValues(settingPlace, extension.settings, { trusted: true }).values;
  const store = (setting: ExtensionSettingDecl, value: string) => {
    const file = module.writeSetting(settingPlace, setting, value, scope);
    out(`${setting.name} (${setting.envVar}) saved for scope "${scope}" in ${file}.`);
  };
  if (!context.interactive) {
    if (!wanted) {
      for (const setting of settings) {
        const value = current[setting.envVar];
        const state = value === undefined ? 'not set' : setting.sensitive ? 'set' : `= ${value}`;
        out(`${setting.name} (${setting.envVar}${setting.sensitive ? ', sensitive' : ''}): ${state}`);
      }
      out(`To set one without a terminal: echo VALUE | kodo extensions config ${name} <setting>`);
      return 0;
    }
    const value = (await (context.readInput ?? (() => readAllInput(process.stdin)))()).replace(/\r?\n$/, '');
    if (value.trim() === '') {
      err(
        `No value for ${settings[0]!.name}: pipe it in (echo VALUE | kodo extensions config ${name} ${wanted}).`,
      );
      return 1;
    }
    store(settings[0]!, value);
    return 0;
  }
  for (const setting of settings) {
    const value = current[setting.envVar];
    const answer = await askSetting(context, setting, {
      set: value !== undefined,
      ...(value !== undefined ? { value } : {}),
    });
    if (answer !== undefined) store(setting, answer);
  }
  return 0;
}

/** `list -o json` shows what was loaded, except the values of sensitive settings. */
function maskSecrets(
  module: ExtensionsModule,
  extensions: Extension[],
  place: { cwd: string; env: NodeJS.ProcessEnv },
): (key: string, value: unknown) => unknown {
  const secrets: string[] = [];
  for (const extension of extensions) {
    const sensitive = extension.settings.filter((setting) => setting.sensitive);
    if (sensitive.length === 0) continue;
    const { values } = module.readSettingValues(
      { name: extension.name, installDir: extension.installDir, cwd: place.cwd, env: place.env },
      extension.settings,
      { trusted: true },
    );
    for (const setting of sensitive) {
      const value = values[setting.envVar];
      if (value) secrets.push(value);
    }
  }
  return (_key, value) =>
    typeof value === 'string' && secrets.length > 0
      ? secrets.reduce((text, secret) => text.replaceAll(secret, '***'), value)
      : value;
}

async function confirm(
  context: ExtensionsCommandContext,
  text: string,
  options: { consent: boolean },
): Promise<boolean> {
  context.stderr.write(`${text}\n`);
  if (options.consent) return true;
  if (!context.interactive) {
    context.stderr.write('Not installed: confirm with --consent to install without a question.\n');
    return false;
  }
  const ask =
    context.ask ??
    (async (question: string) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    });
  const answer = (await ask('Do you want to continue? [Y/n]: ')).trim().toLowerCase();
  return answer === '' || answer === 'y' || answer === 'yes';
}

function describe(
  extension: Extension,
  contents: { commands: string[]; skills: string[]; agents: string[] },
): string {
  const lines = [
    `${extension.enabled ? '✓' : '✗'} ${extension.name} (${extension.version})${extension.kind === 'claude-plugin' ? ' [Claude Code plugin]' : ''}`,
    `  Path: ${extension.path}`,
    `  Source: ${extension.install?.source ?? extension.installDir} (Type: ${extension.install?.type ?? extension.origin})`,
  ];
  if (extension.contextFiles.length > 0) lines.push(`  Context files: ${extension.contextFiles.join(', ')}`);
  const servers = Object.keys(extension.mcpServers);
  if (servers.length > 0) lines.push(`  MCP servers: ${servers.join(', ')}`);
  if (extension.excludeTools.length > 0) lines.push(`  Excluded tools: ${extension.excludeTools.join(', ')}`);
  if (contents.commands.length > 0) lines.push(`  Commands: ${contents.commands.join(', ')}`);
  if (contents.skills.length > 0) lines.push(`  Agent skills: ${contents.skills.join(', ')}`);
  if (contents.agents.length > 0) lines.push(`  Agents: ${contents.agents.join(', ')}`);
  if (extension.hooks) lines.push(`  Hooks: ${Object.keys(extension.hooks).join(', ')}`);
  if (extension.settings.length > 0)
    lines.push(
      `  Settings: ${extension.settings.map((setting) => `${setting.name} (${setting.envVar})`).join(', ')}`,
    );
  return lines.join('\n');
}

type Flags =
  | { ok: true; positional: string[]; values: Record<string, string | true> }
  | { ok: false; message: string };

const VALUE_FLAGS = new Set(['ref', 'scope', 'o', 'output-format']);

function parseFlags(words: string[]): Flags {
  const positional: string[] = [];
  const values: Record<string, string | true> = {};
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const flag = /^--?([A-Za-z-]+)(?:=(.*))?$/.exec(word);
    if (!flag) {
      positional.push(word);
      continue;
    }
    const name = flag[1] === 's' ? 'scope' : flag[1]!;
    if (VALUE_FLAGS.has(name)) {
      const value = flag[2] ?? words[++index];
      if (value === undefined) return { ok: false, message: `--${name} needs a value.` };
      values[name] = value;
    } else values[name] = true;
  }
  return { ok: true, positional, values };
}

function usage(context: ExtensionsCommandContext, message?: string): number {
  context.stderr.write(`${USAGE}${message ? `\n${message}\n` : ''}`);
  return message ? 1 : 0;
}
