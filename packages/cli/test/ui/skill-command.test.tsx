import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Extensibility,
  loadExtensionsModule,
  type SkillDefinition,
  skillActivationParts,
} from '@kodo/core/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extensionSlashCommands } from '../../src/ui/commands/extension-commands';
import { builtinCommands } from '../../src/ui/commands/registry';
import { finish, KEYS, renderApp, text } from './helpers';

/**
 * Issue R: `/<skill>` gives the model the skill's instructions — the same `<activated_skill>`
 * element its own `activate_skill` call returns — followed by what the person typed, rather
 * than a bare "Use the skill …".
 */

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
const dirs: string[] = [];
afterEach(() => {
  app?.cleanup();
  app = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

function skillOnDisk(): SkillDefinition {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-skill-')));
  dirs.push(root);
  const dir = join(root, 'release-notes');
  mkdirSync(dir);
  const body = 'Write release notes from `git log`. Group by feature; mention BREAKING changes first.';
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: release-notes\ndescription: Drafts release notes\n---\n${body}\n`,
  );
  writeFileSync(join(dir, 'template.md'), '# Release\n');
  return {
    name: 'release-notes',
    description: 'Drafts release notes',
    body,
    location: join(dir, 'SKILL.md'),
    dir,
    scope: 'user',
  };
}

async function withSkill(skill: SkillDefinition) {
  const { createActivateSkillTool } = await loadExtensionsModule();
  const loaded = { commands: [], skills: [skill], allSkills: [skill] } as unknown as Extensibility;
  const commands = builtinCommands();
  const reserved = new Set(commands.map((entry) => entry.name));
  commands.push(...extensionSlashCommands({ loaded, reload: async () => [] }, commands, reserved));
  app = renderApp({
    commands,
    turns: [{ chunks: [text('Drafted.'), finish()] }],
    extraTools: [createActivateSkillTool({ skills: () => [skill] })],
  });
  return app;
}

function userTexts(ui: Harness): string[] {
  const contents = ui.generator.requests[0]?.contents ?? [];
  const user = contents.filter((content) => content.role === 'user').at(-1);
  return (user?.parts ?? []).map((part) => part.text ?? '');
}

describe('/<skill>', () => {
  it('sends the SKILL.md body as the activation, then the typed arguments', async () => {
    const skill = skillOnDisk();
    const ui = await withSkill(skill);
    await until(() => expect(ui.frame()).toContain('Type your message'));
    await ui.type('/release-notes for v2.0');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Drafted.'));
    const [activation, request] = userTexts(ui);
    expect(activation).toContain('<activated_skill name="release-notes">');
    expect(activation).toContain(skill.body);
    expect(activation).toContain('template.md');
    expect(request).toBe('for v2.0');
    expect(userTexts(ui).join('\n')).not.toContain('Use the skill');
  });

  it('without arguments asks the model to follow the instructions just given', () => {
    const parts = skillActivationParts('release-notes', '<activated_skill name="release-notes">…', '');
    expect(parts[0]?.text).toContain('<activated_skill');
    expect(parts[1]?.text).toBe('Follow the instructions of the skill "release-notes" above.');
  });
});
