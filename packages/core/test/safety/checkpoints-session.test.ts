import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import { CheckpointStore } from '../../src/safety/checkpoints';
import { Session } from '../../src/session/session';
import { shellTool } from '../../src/tools/builtin/shell';
import { writeFileTool } from '../../src/tools/builtin/write-file';
import { ToolRegistry } from '../../src/tools/registry';
import { Workspace } from '../../src/tools/workspace';
import { calls, collect, stream, tempContext, text } from '../helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(
  script: GenerateResponse[][],
  options: { shell?: boolean; gitPath?: string; promptSnapshots?: boolean } = {},
) {
  const { ctx, root, cleanup } = tempContext();
  cleanups.push(cleanup);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const errors: string[] = [];
  const store = new CheckpointStore({
    workspaceRoot: ws,
    historyDir: join(root, 'history'),
    ...(options.gitPath !== undefined ? { path: options.gitPath } : {}),
  });
  const session = new Session({
    generator: new FakeContentGenerator(
      script.map((chunks) => stream(...chunks)),
      { strict: true },
    ),
    model: 'test-model',
    tools: new ToolRegistry([writeFileTool, shellTool]),
    toolContext: { ...ctx, workspace: new Workspace({ roots: [ws] }), env: process.env },
    approvalMode: 'yolo',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    checkpointing: {
      store,
      shell: options.shell ?? true,
      onError: (message) => errors.push(message),
      ...(options.promptSnapshots !== undefined ? { promptSnapshots: options.promptSnapshots } : {}),
    },
  });
  // The prompt-start snapshots run in the background: let them finish before the directory goes.
  cleanups.push(() => session.checkpointsSettled());
  const file = (rel: string) => join(ws, rel);
  const read = (rel: string) => readFileSync(file(rel), 'utf8');
  const prompt = (value: string) => collect(session.sendMessage(value, new AbortController().signal));
  return { session, ws, root, file, read, prompt, errors, store };
}

const write = (file_path: string, content: string) =>
  calls({ name: 'write_file', args: { file_path, content } });
const sh = (command: string) => calls({ name: 'run_shell_command', args: { command } });

/** Two prompts: the first writes a.txt, the second changes it from the shell and adds/removes files. */
function twoPrompts() {
  return [
    [write('a.txt', 'v1\n')],
    [text('Wrote a.txt.')],
    [sh('echo v2 > a.txt; echo new > b.txt; rm keep.txt')],
    [text('Done.')],
  ];
}

describe('Session checkpoints', () => {
  it('checkpoints before each file-changing call with the call and the conversation position', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    const list = t.session.listCheckpoints();
    expect(list.map((checkpoint) => checkpoint.toolCall?.name)).toEqual(['write_file', 'run_shell_command']);
    expect(list[0]).toMatchObject({
      promptId: `${t.session.id}########1`,
      historyLength: 1,
      sessionId: t.session.id,
    });
    // Prompt 2 starts after prompt 1's four entries (user, model call, responses, model answer).
    expect(list[1]).toMatchObject({ promptId: `${t.session.id}########2`, historyLength: 5 });
    expect(t.errors).toEqual([]);
  });

  it('/restore puts the files and the conversation back and hands back the call', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    expect(existsSync(t.file('b.txt'))).toBe(true);
    const shellCheckpoint = t.session.listCheckpoints()[1]!;
    const result = await t.session.restoreCheckpoint(shellCheckpoint.id, {
      files: true,
      conversation: true,
    });
    expect(t.read('a.txt')).toBe('v1\n');
    expect(t.read('keep.txt')).toBe('keep\n');
    expect(existsSync(t.file('b.txt'))).toBe(false);
    expect(result.filesChanged?.sort()).toEqual(['a.txt', 'b.txt', 'keep.txt']);
    expect(result.conversationRestored).toBe(true);
    expect(result.toolCall).toMatchObject({ name: 'run_shell_command' });
    const history = t.session.history();
    expect(history).toHaveLength(5);
    expect(history.at(-1)).toEqual({ role: 'user', parts: [{ text: 'change things' }] });
  });

  it('/restore of files only leaves the conversation alone', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    const first = t.session.listCheckpoints()[0]!;
    const result = await t.session.restoreCheckpoint(first.id, { files: true, conversation: false });
    expect(existsSync(t.file('a.txt'))).toBe(false);
    expect(result.conversationRestored).toBe(false);
    expect(t.session.history()).toHaveLength(8);
  });

  it('refuses to restore a conversation that was compressed since, but restores the files', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    const summary = [
      { role: 'user' as const, parts: [{ text: '<state_snapshot>summary</state_snapshot>' }] },
      { role: 'model' as const, parts: [{ text: 'Got it.' }] },
      { role: 'user' as const, parts: [{ text: 'more' }] },
      { role: 'model' as const, parts: [{ text: 'ok' }] },
      { role: 'user' as const, parts: [{ text: 'even more' }] },
      { role: 'model' as const, parts: [{ text: 'ok' }] },
    ];
    t.session.replaceHistory(summary, { reason: 'replace' });
    const checkpoint = t.session.listCheckpoints()[1]!;
    const result = await t.session.restoreCheckpoint(checkpoint.id, { files: true, conversation: true });
    expect(result.conversationRestored).toBe(false);
    expect(result.notes[0]).toMatch(/conversation changed since this checkpoint/);
    expect(t.session.history()).toEqual(summary);
    expect(t.read('a.txt')).toBe('v1\n');
  });

  it('/rewind goes back N prompts: code, conversation or both', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    const checkpoints = t.session;
    expect(checkpoints.rewindablePrompts().map((prompt) => prompt.text)).toEqual([
      'write a',
      'change things',
    ]);

    const code = await checkpoints.rewind(1, 'code');
    expect(t.read('a.txt')).toBe('v1\n');
    expect(existsSync(t.file('b.txt'))).toBe(false);
    expect(t.session.history()).toHaveLength(8);
    expect(code.prompt.index).toBe(2);

    const both = await checkpoints.rewind(2, 'both');
    expect(both.conversationRestored).toBe(true);
    expect(existsSync(t.file('a.txt'))).toBe(false);
    expect(t.read('keep.txt')).toBe('keep\n');
    expect(t.session.history()).toEqual([]);
    expect(checkpoints.rewindablePrompts()).toEqual([]);
    await expect(checkpoints.rewind(1, 'conversation')).rejects.toThrow(/Only 0 prompt/);
  });

  it('rewinding the conversation only keeps the files', async () => {
    const t = setup(twoPrompts());
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('write a');
    await t.prompt('change things');
    const result = await t.session.rewind(1, 'conversation');
    expect(result.conversationRestored).toBe(true);
    expect(t.session.history()).toHaveLength(4);
    expect(t.read('a.txt')).toBe('v2\n');
    expect(t.session.rewindablePrompts().map((prompt) => prompt.index)).toEqual([1]);
  });

  it('without prompt snapshots (headless), rewinds code to the first checkpoint of the prompt', async () => {
    const t = setup([[text('Nothing to do.')], ...twoPrompts()], { promptSnapshots: false });
    writeFileSync(t.file('keep.txt'), 'keep\n');
    await t.prompt('just talk');
    // No git ran for a prompt that changed nothing.
    expect(existsSync(join(t.root, 'history'))).toBe(false);
    await t.prompt('write a');
    await t.prompt('change things');
    await t.session.rewind(1, 'code');
    expect(t.read('a.txt')).toBe('v1\n');
    expect(t.read('keep.txt')).toBe('keep\n');
    expect(existsSync(t.file('b.txt'))).toBe(false);
  });

  it('skips shell commands unless general.checkpointing.shell is on', async () => {
    const t = setup([[sh('echo x > x.txt')], [text('ok')]], { shell: false });
    await t.prompt('run');
    expect(t.session.listCheckpoints()).toEqual([]);
    expect(t.read('x.txt')).toBe('x\n');
  });

  it('still runs the call when the checkpoint fails, and says why', async () => {
    const t = setup([[write('a.txt', 'v1\n')], [text('ok')]], { gitPath: '/nonexistent' });
    await t.prompt('write');
    expect(t.read('a.txt')).toBe('v1\n');
    expect(t.errors).toEqual([
      expect.stringMatching(/Checkpoint before write_file failed: .*git is not installed/),
    ]);
  });
});
