import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReplayGenerators, Session, ToolRegistry, Workspace } from '@kodo/core/engine';
import { FOREIGN_SESSION_FACTS, installForeignSessions } from '@kodo/testkit';

const { FakeContentGenerator } = await loadReplayGenerators();

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCommand, compressCommand, memoryCommand } from '../../src/ui/commands/feature-commands';
import type { CommandContext } from '../../src/ui/commands/types';
import type { ChoiceRequest } from '../../src/ui/components/select-list';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-cmd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function context(args: string, session: Session) {
  const items: { text: string; tone: string }[] = [];
  const ctx = {
    args,
    session,
    cwd: dir,
    env: { KODO_HOME: join(dir, 'home') },
    addItem: (item: { text: string; tone: string }) => items.push(item),
  } as unknown as CommandContext;
  return { ctx, items };
}

const makeSession = () =>
  new Session({
    generator: new FakeContentGenerator([], { strict: true }),
    model: 'm',
    tools: new ToolRegistry([]),
    toolContext: { workspace: new Workspace({ roots: [dir] }), env: {}, shellInactivityTimeoutMs: 1000 },
    history: [
      { role: 'user', parts: [{ text: 'hello' }] },
      { role: 'model', parts: [{ text: 'hi' }] },
    ],
  });

describe('/chat', () => {
  it('saves, lists, resumes and deletes named save points', async () => {
    const session = makeSession();
    const run = async (args: string) => {
      const { ctx, items } = context(args, session);
      await chatCommand.run(ctx);
      return items.map((item) => item.text).join('\n');
    };
    expect(await run('list')).toContain('No saved conversations');
    expect(await run('save before-refactor')).toBe('Conversation saved as "before-refactor".');
    expect(await run('list')).toContain('before-refactor');
    session.replaceHistory([{ role: 'user', parts: [{ text: 'other' }] }], { reason: 'replace' });
    expect(await run('resume before-refactor')).toContain('Resumed "before-refactor" (2 turns)');
    expect(session.history()[0]!.parts[0]!.text).toBe('hello');
    expect(await run('delete before-refactor')).toBe('Deleted "before-refactor".');
    expect(await run('resume before-refactor')).toContain('No saved conversation');
    expect(await run('save')).toBe('Usage: /chat save <tag>');
  });
});

describe('/resume (and /chat) without a save-point subcommand', () => {
  function browsing(args: string, picked: string | undefined) {
    const home = join(dir, 'home');
    installForeignSessions(home, dir, ['gemini', 'claude']);
    const { ctx, items } = context(args, makeSession());
    const asked: ChoiceRequest[] = [];
    const resumed: string[] = [];
    Object.assign(ctx, {
      env: { HOME: home, KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home },
      choose: async (request: ChoiceRequest) => {
        asked.push(request);
        return picked;
      },
      resumeSession: async (identifier: string) => {
        resumed.push(identifier);
        return 'new-id';
      },
    });
    return { ctx, items, asked, resumed };
  }

  it("offers the project's sessions, other tools' marked, newest first, and resumes the one picked", async () => {
    const { ctx, asked, resumed } = browsing('', '1');
    await chatCommand.run(ctx);
    expect(asked[0]?.items.map((item) => item.label)).toEqual([
      `2. [claude] ${FOREIGN_SESSION_FACTS.prompt}`,
      `1. [gemini] ${FOREIGN_SESSION_FACTS.prompt}`,
    ]);
    expect(resumed).toEqual(['1']);
  });

  it('resumes nothing when the menu is left with Esc, and takes a number or id directly', async () => {
    const left = browsing('', undefined);
    await chatCommand.run(left.ctx);
    expect(left.resumed).toEqual([]);
    const direct = browsing(FOREIGN_SESSION_FACTS.ids.claude, undefined);
    await chatCommand.run(direct.ctx);
    expect(direct.resumed).toEqual([FOREIGN_SESSION_FACTS.ids.claude]);
    expect(direct.asked).toEqual([]);
    const unknown = browsing('nonsense', undefined);
    await chatCommand.run(unknown.ctx);
    expect(unknown.items.at(-1)?.text).toContain('Unknown /chat subcommand "nonsense"');
  });
});

describe('/compress and /memory', () => {
  it('reports a failed compression without throwing, and no memory when none is loaded', async () => {
    const session = makeSession();
    const compress = context('', session);
    await compressCommand.run(compress.ctx);
    expect(compress.items.at(-1)?.text).toMatch(/^Chat history compression failed: No more mock responses/);
    const memory = context('show', session);
    await memoryCommand.run(memory.ctx);
    expect(memory.items.at(-1)?.text).toBe('No context files are loaded in this session.');
  });
});

describe('/memory inbox, accept, drop', () => {
  it('lists proposals; accept saves one through save_memory, drop removes one; nothing else is written', async () => {
    const { MemoryInbox, lazyBuiltinTools } = await import('@kodo/core/engine');
    const home = join(dir, 'home');
    const memoryFile = join(home, 'KODO.md');
    const session = new Session({
      generator: new FakeContentGenerator([], { strict: true }),
      model: 'm',
      tools: new ToolRegistry(lazyBuiltinTools()),
      approvalMode: 'yolo',
      toolContext: {
        workspace: new Workspace({ roots: [dir] }),
        env: {},
        shellInactivityTimeoutMs: 1000,
        memoryFilePath: memoryFile,
      },
    });
    new MemoryInbox(home, dir).add(['Use pnpm, not npm.', 'Secrets live in vault.'], 'earlier');
    const run = async (args: string) => {
      const { ctx, items } = context(args, session);
      await memoryCommand.run(ctx);
      return items.map((item) => item.text).join('\n');
    };
    // Bare /memory shows the inbox too when something waits.
    expect(await run('')).toContain('Proposed memories (2)');
    const listed = await run('inbox');
    expect(listed).toContain('Proposed memories (2)');
    expect(listed).toContain('1. Use pnpm, not npm.');
    expect(listed).toContain('2. Secrets live in vault.');
    expect(existsSync(memoryFile)).toBe(false);
    expect(await run('drop 2')).toBe('Dropped: Secrets live in vault.');
    expect(existsSync(memoryFile)).toBe(false);
    expect(await run('accept 5')).toBe('Usage: /memory accept N (1–1) or /memory accept all');
    expect(await run('accept 1')).toBe('Remembered: Use pnpm, not npm.');
    expect(readFileSync(memoryFile, 'utf8')).toContain('Use pnpm, not npm.');
    expect(readFileSync(memoryFile, 'utf8')).not.toContain('vault');
    expect(await run('inbox')).toBe('The memory inbox is empty.');
    expect(await run('')).not.toContain('inbox');
  });
});
