import type { CustomCommand, Extensibility } from '@kodo/core/engine';
import { describe, expect, it, vi } from 'vitest';
import { extensionSlashCommands } from '../../src/ui/commands/extension-commands';
import { builtinCommands } from '../../src/ui/commands/registry';
import { finish, KEYS, renderApp, text } from './helpers';

/**
 * Issue R: a Claude Code plugin's command answers to `/<command>` when its name is unique (as
 * discovery names it) and still to `/<plugin>:<command>`, as in Claude Code.
 */
const featureDev: CustomCommand = {
  name: 'feature-dev',
  baseName: 'feature-dev',
  description: '[feature-dev] Guided feature development',
  format: 'markdown',
  template: 'Develop: $ARGUMENTS',
  path: '/plugins/feature-dev/commands/feature-dev.md',
  scope: 'plugin',
  extensionName: 'feature-dev',
  extensionPath: '/plugins/feature-dev',
};

describe('a plugin command in the UI', () => {
  it('runs as /feature-dev and as /feature-dev:feature-dev', async () => {
    const loaded = { commands: [featureDev], skills: [], allSkills: [] } as unknown as Extensibility;
    const commands = builtinCommands();
    const reserved = new Set(commands.map((entry) => entry.name));
    commands.push(...extensionSlashCommands({ loaded, reload: async () => [] }, commands, reserved));
    const ui = renderApp({
      commands,
      turns: [{ chunks: [text('One.'), finish()] }, { chunks: [text('Two.'), finish()] }],
    });
    try {
      await vi.waitFor(() => expect(ui.frame()).toContain('Type your message'), { timeout: 10_000 });
      await ui.type('/feature-dev login page');
      await ui.press(KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('One.'), { timeout: 10_000 });
      expect(ui.generator.lastUserText()).toContain('Develop: login page');
      await ui.type('/feature-dev:feature-dev search');
      await ui.press(KEYS.enter);
      await vi.waitFor(() => expect(ui.frame()).toContain('Two.'), { timeout: 10_000 });
      expect(ui.generator.lastUserText()).toContain('Develop: search');
    } finally {
      ui.cleanup();
    }
  });
});
