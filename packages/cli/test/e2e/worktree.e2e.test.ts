import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

/**
 * Issue R: `kodo -w/--worktree [name]` runs the session in a new worktree and branch of the
 * project (real git, temp repositories, the built kodo with recorded model replies): the files
 * `.worktreeinclude` names are copied in, an unchanged worktree is removed at exit with its
 * branch, a changed one is kept and named.
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

const kodo = (args: string[], cwd = dirs.workspace) =>
  runKodo(args, {
    cwd,
    env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, KODO_SANDBOX: 'false' },
    timeoutMs: 30_000,
  });
const git = (...args: string[]) => execFileSync('git', args, { cwd: dirs.workspace, encoding: 'utf8' });

function project(): void {
  writeFileSync(join(dirs.workspace, 'app.txt'), 'v1\n');
  writeFileSync(join(dirs.workspace, '.gitignore'), '.env\nnode_modules/\n');
  writeFileSync(join(dirs.workspace, '.worktreeinclude'), '.env\n# not these\n*.log\n');
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
  // Untracked: .env (ignored) and debug.log are listed in .worktreeinclude, notes.txt is not.
  writeFileSync(join(dirs.workspace, '.env'), 'API_URL=http://localhost\n');
  writeFileSync(join(dirs.workspace, 'debug.log'), 'log\n');
  writeFileSync(join(dirs.workspace, 'notes.txt'), 'mine\n');
  // Matches `*.log` but is a link to a file outside the project: not copied.
  writeFileSync(join(dirs.root, 'outside-secret.txt'), 'secret\n');
  symlinkSync(join(dirs.root, 'outside-secret.txt'), join(dirs.workspace, 'linked.log'));
}

describe('kodo --worktree', () => {
  it('runs in a new worktree with the .worktreeinclude files, and keeps and names it when it changed', async () => {
    project();
    const run = await kodo([
      '-w',
      'feature-x',
      '-y',
      '-p',
      'add a file',
      '--fake-responses',
      fake(
        call('read_file', { file_path: '.env' }),
        call('write_file', { file_path: 'added.txt', content: 'new\n' }),
        turn([{ text: 'Added.' }]),
      ),
    ]);
    expect(run.code).toBe(0);
    const path = join(dirs.workspace, '.kodo', 'worktrees', 'feature-x');
    expect(run.stderr).toContain(`[INFO] Working in the worktree ${path} (branch worktree-feature-x).`);
    expect(run.stderr).toContain(
      `[INFO] Worktree kept (1 changed file): ${path} on branch worktree-feature-x. Continue there with: cd ${path} && kodo --resume latest`,
    );
    // The edit went to the worktree, not the project.
    expect(readFileSync(join(path, 'added.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(join(dirs.workspace, 'added.txt'))).toBe(false);
    expect(readFileSync(join(path, '.env'), 'utf8')).toBe('API_URL=http://localhost\n');
    expect(existsSync(join(path, 'debug.log'))).toBe(true);
    expect(existsSync(join(path, 'notes.txt'))).toBe(false);
    expect(existsSync(join(path, 'linked.log'))).toBe(false);
    expect(git('branch', '--list', 'worktree-feature-x')).toContain('worktree-feature-x');
    // The project's own status does not show the worktrees folder.
    expect(git('status', '--porcelain')).toBe('?? debug.log\n?? linked.log\n?? notes.txt\n');
  });

  it('removes an unchanged worktree and its branch at exit (copied files do not count as changes)', async () => {
    project();
    const run = await kodo([
      '--worktree',
      '-p',
      'just look',
      '--fake-responses',
      fake(turn([{ text: 'Looked.' }])),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Looked.');
    const name = /worktrees\/(worktree-[0-9a-f]{8}) \(branch (worktree-[0-9a-f]{8})\)/.exec(run.stderr);
    expect(name?.[1]).toBe(name?.[2]);
    const path = join(dirs.workspace, '.kodo', 'worktrees', name![1]!);
    expect(run.stderr).toContain(
      `[INFO] Worktree ${path} had no changes and was removed (with branch ${name![1]}).`,
    );
    expect(existsSync(path)).toBe(false);
    expect(git('branch', '--list', 'worktree-*')).toBe('');
    expect(git('worktree', 'list')).not.toContain('.kodo');
  });

  it('keeps a worktree with a new commit even when its files are clean', async () => {
    project();
    const run = await kodo([
      '-w',
      'committed',
      '-y',
      '-p',
      'commit',
      '--fake-responses',
      fake(
        call('run_shell_command', {
          command: 'echo v2 > app.txt && git -c user.name=k -c user.email=k@k commit -qam v2',
        }),
        turn([{ text: 'Committed.' }]),
      ),
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[INFO] Worktree kept (1 new commit):');
    expect(git('log', '--oneline', 'worktree-committed')).toContain('v2');
    expect(readFileSync(join(dirs.workspace, 'app.txt'), 'utf8')).toBe('v1\n');
  });

  it('outside a git repository: a one-line error and exit 42, nothing run', async () => {
    const run = await kodo(['-w', '-p', 'hi', '--fake-responses', fake(turn([{ text: 'never' }]))]);
    expect(run.code).toBe(42);
    expect(run.stderr).toBe(
      `[ERROR] --worktree needs a git repository, and ${dirs.workspace} is not inside one (run git init, or start kodo without -w).\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('refuses a name that cannot be a branch and one already taken', async () => {
    project();
    const bad = await kodo(['-w', 'no/slash', '-p', 'hi', '--fake-responses', fake(turn([{ text: 'x' }]))]);
    expect(bad.code).toBe(42);
    expect(bad.stderr).toContain('[ERROR] Invalid worktree name "no/slash"');
    git('branch', 'worktree-taken');
    const taken = await kodo(['-w', 'taken', '-p', 'hi', '--fake-responses', fake(turn([{ text: 'x' }]))]);
    expect(taken.code).toBe(42);
    expect(taken.stderr).toContain('[ERROR] The branch worktree-taken already exists; choose another name.');
  });
});
