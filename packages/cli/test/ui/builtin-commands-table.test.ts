// The terminal's command registry and core's table of built-in session commands (BUILTIN_COMMANDS)
// name the same commands: the table is what every front end's input pipeline reads, and the one
// place a built-in's name, aliases, description and argument hint are written.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_COMMANDS, builtinCommandsFor } from '@kodo/core/engine';
import { describe, expect, it } from 'vitest';
import { extensionSlashCommands } from '../../src/ui/commands/extension-commands';
import { builtinCommands } from '../../src/ui/commands/registry';
import type { CommandContext, SlashCommand } from '../../src/ui/commands/types';
import type { NewHistoryItem } from '../../src/ui/types';

function terminalRegistry(): SlashCommand[] {
  const registry = builtinCommands();
  registry.push(
    ...extensionSlashCommands({ loaded: undefined, reload: async () => [] }, registry, new Set()),
  );
  return registry;
}

/** The body of the `/help` panel the registry shows. */
async function helpText(registry: SlashCommand[]): Promise<string> {
  const items: NewHistoryItem[] = [];
  const help = registry.find((command) => command.name === 'help');
  // `/help` reads only these two; the rest of the context is the App's.
  const context = {
    args: '',
    addItem: (item: NewHistoryItem) => items.push(item),
  } as Partial<CommandContext>;
  await help?.run(context as CommandContext);
  const panel = items.find((item) => item.kind === 'panel');
  return panel && 'body' in panel ? String(panel.body) : '';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('built-in commands as data', () => {
  it('the terminal runs exactly the table’s terminal commands, under the same names and aliases', () => {
    const names = (entries: readonly { name: string; aliases?: readonly string[] }[]) =>
      entries.map((entry) => [entry.name, ...(entry.aliases ?? [])].sort().join(' ')).sort();
    expect(names(terminalRegistry())).toEqual(names(builtinCommandsFor('terminal')));
  });

  it('each terminal built-in carries core’s aliases, description and argument hint', () => {
    const registry = terminalRegistry();
    for (const declared of builtinCommandsFor('terminal')) {
      const command = registry.find((candidate) => candidate.name === declared.name);
      expect(command, `/${declared.name}`).toBeDefined();
      expect(command?.description, `/${declared.name}`).toBe(declared.description);
      expect(command?.aliases ?? [], `/${declared.name}`).toEqual(declared.aliases ?? []);
      expect(command?.argumentHint, `/${declared.name}`).toBe(declared.argumentHint);
    }
  });

  it('/help lists every terminal built-in with core’s description, aliases and argument hint', async () => {
    const lines = (await helpText(terminalRegistry())).split('\n');
    for (const declared of builtinCommandsFor('terminal')) {
      const line = lines.find((candidate) => candidate.startsWith(`- \`/${declared.name}`));
      expect(line, `/${declared.name} in /help`).toBeDefined();
      expect(line?.endsWith(`: ${declared.description}`), line).toBe(true);
      if (declared.argumentHint) expect(line).toContain(`/${declared.name} [${declared.argumentHint}]\``);
      for (const alias of declared.aliases ?? []) expect(line).toContain(`/${alias}`);
    }
  });

  it('the terminal declares no built-in a second time: no name, alias list or description of its own', () => {
    const uiSource = join(import.meta.dirname, '../../src/ui');
    const builtinName = new RegExp(`name:\\s*'(${BUILTIN_COMMANDS.map((entry) => entry.name).join('|')})'`);
    for (const file of sourceFiles(uiSource)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(builtinName);
      // Aliases come from core (a custom command's qualified alias is computed, never a literal).
      expect(text, file).not.toMatch(/aliases:\s*\[\s*['"`]/);
      for (const entry of BUILTIN_COMMANDS) expect(text, file).not.toContain(entry.description);
    }
  });

  it('over ACP offers /compress, /clear and /stats', () => {
    expect(builtinCommandsFor('acp').map((entry) => entry.name)).toEqual(['clear', 'compress', 'stats']);
    expect(BUILTIN_COMMANDS.length).toBeGreaterThan(builtinCommandsFor('acp').length);
  });
});
