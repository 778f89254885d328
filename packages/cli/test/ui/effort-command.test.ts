import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReplayGenerators, Session, ToolRegistry, Workspace } from '@kodo/core/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { effortCommand } from '../../src/ui/commands/effort-command';
import type { CommandContext } from '../../src/ui/commands/types';
import type { ChoiceRequest } from '../../src/ui/components/select-list';

const { FakeContentGenerator } = await loadReplayGenerators();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-effort-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup() {
  const session = new Session({
    generator: new FakeContentGenerator([], { strict: true }),
    model: 'm',
    tools: new ToolRegistry([]),
    toolContext: { workspace: new Workspace({ roots: [dir] }), env: {}, shellInactivityTimeoutMs: 1000 },
  });
  const items: { text: string; tone: string }[] = [];
  const asked: ChoiceRequest[] = [];
  let answer: string | undefined;
  const run = (args: string, pick?: string) => {
    answer = pick;
    const ctx = {
      args,
      session,
      addItem: (item: { text: string; tone: string }) => items.push(item),
      choose: async (request: ChoiceRequest) => {
        asked.push(request);
        return answer;
      },
    } as unknown as CommandContext;
    return effortCommand.run(ctx);
  };
  return { session, items, asked, run };
}

describe('/effort', () => {
  it('sets, lists and resets the effort of the next requests', async () => {
    const t = setup();
    await t.run('high');
    expect(t.session.effort).toBe('high');
    expect(t.items.at(-1)).toEqual({
      kind: 'info',
      tone: 'success',
      text: 'Effort set to high from the next request.',
    });
    await t.run('', 'off');
    expect(t.asked[0]?.title).toBe('Effort (now high)');
    expect(t.asked[0]?.items.map((item) => item.value)).toEqual([
      'off',
      'low',
      'medium',
      'high',
      'max',
      'default',
    ]);
    expect(t.session.effort).toBe('off');
    await t.run('default');
    expect(t.session.effort).toBeUndefined();
  });

  it('refuses an unknown value and keeps the effort', async () => {
    const t = setup();
    await t.run('low');
    await t.run('turbo');
    expect(t.session.effort).toBe('low');
    expect(t.items.at(-1)).toMatchObject({
      tone: 'error',
      text: '"turbo" is not an effort (choices: off, low, medium, high, max, default).',
    });
  });
});
