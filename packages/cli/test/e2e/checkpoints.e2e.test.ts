import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCheckpointing } from '@kodo/core/engine';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

/**
 * Checkpointing through the real `kodo`: with `general.checkpointing` on, every file-changing
 * call (shell commands too, with `shell: true`) leaves a checkpoint in
 * `~/.kodo/history/<project id>`, the project's own git repository is left alone, and the files
 * can be put back from those checkpoints.
 */
const dirs = e2eDirs();

const turn = (parts: unknown[]) =>
  JSON.stringify({
    method: 'generateContentStream',
    response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
  });
const call = (name: string, args: Record<string, unknown>) => turn([{ functionCall: { name, args } }]);

function fake(...turns: string[]): string {
  const file = join(dirs.root, 'fake.jsonl');
  writeFileSync(file, `${turns.join('\n')}\n`);
  return file;
}

const kodo = (args: string[]) =>
  runKodo(args, {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home },
    timeoutMs: 30_000,
  });
const git = (...args: string[]) => execFileSync('git', args, { cwd: dirs.workspace, encoding: 'utf8' });
const read = (name: string) => readFileSync(join(dirs.workspace, name), 'utf8');

describe('checkpointing', () => {
  it('checkpoints before edits and shell commands, and the files can be restored', async () => {
    writeFileSync(
      join(dirs.home, 'settings.json'),
      JSON.stringify({ general: { checkpointing: { enabled: true, shell: true } } }),
    );
    writeFileSync(join(dirs.workspace, 'a.txt'), 'original\n');
    writeFileSync(join(dirs.workspace, 'keep.txt'), 'keep\n');
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'project commit');
    const projectHead = git('rev-parse', 'HEAD');
    const projectIndex = readFileSync(join(dirs.workspace, '.git', 'index'));

    const run = await kodo([
      '-y',
      '-p',
      'change things',
      '--fake-responses',
      fake(
        call('write_file', { file_path: 'a.txt', content: 'edited\n' }),
        call('run_shell_command', { command: 'rm keep.txt; echo made > made.txt' }),
        turn([{ text: 'Changed.' }]),
      ),
    ]);
    expect(run.code).toBe(0);
    expect(read('a.txt')).toBe('edited\n');

    const { CheckpointStore, checkpointHistoryDir } = await loadCheckpointing();
    const historyDir = checkpointHistoryDir(dirs.home, dirs.workspace);
    const ids = readdirSync(join(historyDir, 'checkpoints')).sort();
    expect(ids).toEqual([
      expect.stringMatching(/-a\.txt-write_file\.json$/),
      expect.stringMatching(/-run_shell_command\.json$/),
    ]);

    // The project's repository saw nothing.
    expect(git('rev-parse', 'HEAD')).toBe(projectHead);
    expect(readFileSync(join(dirs.workspace, '.git', 'index')).equals(projectIndex)).toBe(true);
    expect(git('status', '--porcelain')).toBe(' M a.txt\n D keep.txt\n?? made.txt\n');

    const store = new CheckpointStore({ workspaceRoot: dirs.workspace, historyDir });
    const [beforeEdit, beforeShell] = store.list();
    expect(beforeEdit!.toolCall).toMatchObject({ name: 'write_file', args: { file_path: 'a.txt' } });
    await store.restoreFiles(beforeShell!.commit, 'restore');
    expect(read('a.txt')).toBe('edited\n');
    expect(read('keep.txt')).toBe('keep\n');
    expect(existsSync(join(dirs.workspace, 'made.txt'))).toBe(false);
    await store.restoreFiles(beforeEdit!.commit, 'restore');
    expect(read('a.txt')).toBe('original\n');
    expect(git('status', '--porcelain')).toBe('');
  });

  it('takes no checkpoints unless enabled', async () => {
    const run = await kodo([
      '-y',
      '-p',
      'write',
      '--fake-responses',
      fake(call('write_file', { file_path: 'a.txt', content: 'x\n' }), turn([{ text: 'ok' }])),
    ]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dirs.home, 'history'))).toBe(false);
  });
});
