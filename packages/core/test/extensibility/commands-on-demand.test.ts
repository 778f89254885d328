import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { loadExtensibility } from '../../src/extensions/startup';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe('loadExtensibility({ commands: false })', () => {
  it('reads no command files (not even a broken one) and still finds skills', async () => {
    ws = createTempWorkspace({
      'home/.kodo/commands/ok.toml': 'description = "Fine"\nprompt = "Do it"\n',
      'home/.kodo/commands/broken.toml': 'prompt = "unterminated\n',
      'home/.kodo/skills/helper/SKILL.md': '---\nname: helper\ndescription: Helps.\n---\nBody.\n',
    });
    const env = { HOME: join(ws.root, 'home'), KODO_HOME: join(ws.root, 'home/.kodo') };
    const cwd = join(ws.root, 'home');
    const full = await loadExtensibility({ cwd, env, trusted: true });
    expect(full.commands.map((command) => command.name)).toEqual(['ok']);
    expect(full.warnings.join('\n')).toContain('broken.toml');

    const lean = await loadExtensibility({ cwd, env, trusted: true, commands: false });
    expect(lean.commands).toEqual([]);
    expect(lean.warnings.join('\n')).not.toContain('broken.toml');
    expect(lean.skills.map((skill) => skill.name)).toEqual(['helper']);
  });
});
