// The terminal's command registry and core's table of built-in session commands (BUILTIN_COMMANDS)
// name the same commands: the table is what every front end's input pipeline reads.
import { BUILTIN_COMMANDS, builtinCommandsFor } from '@kodo/core/engine';
import { describe, expect, it } from 'vitest';
import { extensionSlashCommands } from '../../src/ui/commands/extension-commands';
import { builtinCommands } from '../../src/ui/commands/registry';

describe('built-in commands as data', () => {
  it('the terminal runs exactly the table’s terminal commands, under the same names and aliases', () => {
    const registry = builtinCommands();
    registry.push(
      ...extensionSlashCommands({ loaded: undefined, reload: async () => [] }, registry, new Set()),
    );
    const names = (entries: readonly { name: string; aliases?: readonly string[] }[]) =>
      entries.map((entry) => [entry.name, ...(entry.aliases ?? [])].sort().join(' ')).sort();
    expect(names(registry)).toEqual(names(builtinCommandsFor('terminal')));
  });

  it('over ACP offers /compress, /clear and /stats', () => {
    expect(builtinCommandsFor('acp').map((entry) => entry.name)).toEqual(['clear', 'compress', 'stats']);
    expect(BUILTIN_COMMANDS.length).toBeGreaterThan(builtinCommandsFor('acp').length);
  });
});
