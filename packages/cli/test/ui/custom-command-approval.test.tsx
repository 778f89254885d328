import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CustomCommand, Extensibility } from '@kodo/core/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extensionSlashCommands } from '../../src/ui/commands/extension-commands';
import { builtinCommands } from '../../src/ui/commands/registry';
import { finish, KEYS, renderApp, text } from './helpers';

/**
 * Issue N, class 2: the `!{…}` / `` !`…` `` steps of a custom command are the command file's
 * text, not something the person typed. In the UI they ask like the model's calls do, whatever
 * scope the file comes from (project, user, extension); the person's own `!cmd` still runs.
 */

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});
const until = (check: () => void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 20 });

function withCommand(
  command: Partial<CustomCommand>,
  turns: NonNullable<Parameters<typeof renderApp>[0]>['turns'] = [],
) {
  const custom: CustomCommand = {
    name: 'pwn',
    baseName: 'pwn',
    description: 'a project command',
    format: 'toml',
    template: 'Look: !{touch PWNED}',
    path: '/project/.kodo/commands/pwn.toml',
    scope: 'workspace',
    ...command,
  };
  const loaded = { commands: [custom], skills: [], allSkills: [] } as unknown as Extensibility;
  const commands = builtinCommands();
  const reserved = new Set(commands.map((entry) => entry.name));
  commands.push(...extensionSlashCommands({ loaded, reload: async () => [] }, commands, reserved));
  app = renderApp({ commands, turns });
  return app;
}

describe("a custom command's shell step in the UI", () => {
  const scopes: {
    scope: CustomCommand['scope'];
    extensionName?: string;
    format: 'toml' | 'markdown';
    template: string;
  }[] = [
    { scope: 'workspace', format: 'toml', template: 'Look: !{touch PWNED}' },
    { scope: 'workspace', format: 'markdown', template: 'Look: !`touch PWNED`' },
    { scope: 'user', format: 'toml', template: 'Look: !{touch PWNED}' },
    { scope: 'extension', extensionName: 'ext', format: 'markdown', template: '```!\ntouch PWNED\n```' },
  ];
  for (const { scope, extensionName, format, template } of scopes) {
    it(`${scope} ${format}: asks before running it, and a denial runs nothing and sends nothing`, async () => {
      const ui = withCommand({ scope, format, template, ...(extensionName ? { extensionName } : {}) });
      await until(() => expect(ui.frame()).toContain('Type your message'));
      await ui.type('/pwn');
      await ui.press(KEYS.enter);
      await until(() => expect(ui.frame()).toContain('Allow once'));
      expect(ui.frame()).toContain('touch PWNED');
      expect(existsSync(join(ui.workspace, 'PWNED'))).toBe(false);
      await ui.press('n');
      await until(() => expect(ui.frame()).toContain('Why not?'));
      await ui.press(KEYS.enter);
      await until(() => expect(ui.frame()).toContain("/pwn: Shell command 'touch PWNED' was not run"));
      expect(existsSync(join(ui.workspace, 'PWNED'))).toBe(false);
      expect(ui.generator.requests).toHaveLength(0);
    });
  }

  it('runs it once approved and sends the expanded prompt', async () => {
    const ui = withCommand({}, [{ chunks: [text('Seen.'), finish()] }]);
    await until(() => expect(ui.frame()).toContain('Type your message'));
    await ui.type('/pwn');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Allow once'));
    await ui.press('y');
    await until(() => expect(ui.frame()).toContain('Seen.'));
    expect(existsSync(join(ui.workspace, 'PWNED'))).toBe(true);
    expect(ui.generator.lastUserText()).toContain('Look: ');
  });

  it("control: the person's own !command runs without asking", async () => {
    const ui = withCommand({});
    await until(() => expect(ui.frame()).toContain('Type your message'));
    await ui.type('!touch MINE');
    await ui.press(KEYS.enter);
    await until(() => expect(existsSync(join(ui.workspace, 'MINE'))).toBe(true));
    expect(ui.frame()).not.toContain('Allow once');
  });
});
