import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore, checkpointHistoryDir } from '../../src/safety/checkpoints';
import { anchoredPattern, excludeFileText, largeFilesIn } from '../../src/safety/checkpoints/excludes';
import { parseStatus } from '../../src/safety/checkpoints/git';

let base: string;
let ws: string;
let history: string;
let store: CheckpointStore;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-ckpt-')));
  ws = join(base, 'ws');
  history = join(base, 'home', 'history', 'p');
  mkdirSync(ws);
  store = new CheckpointStore({ workspaceRoot: ws, historyDir: history, maxFileBytes: 2000 });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(rel: string, content: string): void {
  const path = join(ws, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
const read = (rel: string) => readFileSync(join(ws, rel), 'utf8');
const exists = (rel: string) => existsSync(join(ws, rel));

/** Every regular file under the workspace (relative paths), without the project's .git. */
function files(dir = ws, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) return entry.name === '.git' ? [] : files(join(dir, entry.name), `${rel}/`);
      return [rel];
    })
    .sort();
}

describe('CheckpointStore', () => {
  it('restores edited, deleted and created files, including ones a shell command touched', async () => {
    write('src/app.ts', 'v1\n');
    write('src/keep.ts', 'keep\n');
    write('docs/readme.md', 'docs\n');
    const checkpoint = await store.create({
      label: 'Snapshot for write_file',
      toolCall: { name: 'write_file', args: { file_path: 'src/app.ts', content: 'v2' }, callId: 'c1' },
      promptId: 'p#1',
    });
    write('src/app.ts', 'v2\n');
    unlinkSync(join(ws, 'docs/readme.md'));
    rmSync(join(ws, 'docs'), { recursive: true });
    write('src/generated/new.ts', 'new\n');
    write('script-output.txt', 'made by a shell command\n');

    const restored = await store.restoreFiles(checkpoint.commit, `Restore ${checkpoint.id}`);
    expect(read('src/app.ts')).toBe('v1\n');
    expect(read('docs/readme.md')).toBe('docs\n');
    expect(exists('src/generated/new.ts')).toBe(false);
    expect(exists('src/generated')).toBe(false);
    expect(exists('script-output.txt')).toBe(false);
    expect(files()).toEqual(['docs/readme.md', 'src/app.ts', 'src/keep.ts']);
    expect(restored.changed.sort()).toEqual(
      ['docs/readme.md', 'script-output.txt', 'src/app.ts', 'src/generated/new.ts'].sort(),
    );

    // The restore is itself undoable: the state before it was checkpointed.
    await store.restoreFiles(restored.before.commit, 'Undo');
    expect(read('src/app.ts')).toBe('v2\n');
    expect(read('script-output.txt')).toBe('made by a shell command\n');
    expect(exists('docs/readme.md')).toBe(false);
  });

  it('never touches ignored files: node_modules, .gitignore patterns, .kodoignore', async () => {
    write('.gitignore', 'dist/\n*.log\n');
    write('.kodoignore', 'secret-notes.txt\n');
    write('index.js', 'a\n');
    write('node_modules/lib/index.js', 'dep v1\n');
    write('dist/bundle.js', 'bundle v1\n');
    const checkpoint = await store.create({ label: 'first' });
    write('node_modules/lib/index.js', 'dep v2\n');
    write('node_modules/added/index.js', 'added\n');
    write('dist/bundle.js', 'bundle v2\n');
    write('debug.log', 'log\n');
    write('secret-notes.txt', 'notes\n');
    write('index.js', 'b\n');

    await store.restoreFiles(checkpoint.commit, 'restore');
    expect(read('index.js')).toBe('a\n');
    // Ignored: neither put back nor deleted.
    expect(read('node_modules/lib/index.js')).toBe('dep v2\n');
    expect(read('node_modules/added/index.js')).toBe('added\n');
    expect(read('dist/bundle.js')).toBe('bundle v2\n');
    expect(read('debug.log')).toBe('log\n');
    expect(read('secret-notes.txt')).toBe('notes\n');
    const tracked = execFileSync('git', ['ls-tree', '-r', '--name-only', checkpoint.commit], {
      env: { ...process.env, GIT_DIR: join(history, 'git') },
      encoding: 'utf8',
    });
    expect(tracked.trim().split('\n').sort()).toEqual(['.gitignore', '.kodoignore', 'index.js']);
  });

  it('leaves out files over the size limit and keeps them through a restore', async () => {
    write('small.txt', 'small\n');
    const checkpoint = await store.create({ label: 'first' });
    write('big.bin', 'x'.repeat(5000));
    write('small.txt', 'changed\n');
    const second = await store.create({ label: 'second' });
    expect(second.commit).not.toBe(checkpoint.commit);
    await store.restoreFiles(checkpoint.commit, 'restore');
    expect(read('small.txt')).toBe('small\n');
    // Not in any snapshot, so not a file "created since": it stays.
    expect(read('big.bin')).toHaveLength(5000);
    expect(largeFilesIn(readFileSync(join(history, 'git', 'info', 'exclude'), 'utf8'))).toEqual(['big.bin']);
  });

  it("uses its own repository and leaves the project's .git alone", async () => {
    execFileSync('git', ['init', '-q', ws]);
    const before = readdirSync(join(ws, '.git')).sort();
    const head = readFileSync(join(ws, '.git', 'HEAD'), 'utf8');
    write('a.txt', 'a\n');
    const checkpoint = await store.create({ label: 'first' });
    write('a.txt', 'b\n');
    await store.restoreFiles(checkpoint.commit, 'restore');
    expect(read('a.txt')).toBe('a\n');
    expect(readdirSync(join(ws, '.git')).sort()).toEqual(before);
    expect(readFileSync(join(ws, '.git', 'HEAD'), 'utf8')).toBe(head);
    expect(existsSync(join(ws, '.git', 'index'))).toBe(false);
    expect(existsSync(join(history, 'git', 'HEAD'))).toBe(true);
  });

  it('leaves nested repositories to their own git', async () => {
    write('main.txt', 'main\n');
    mkdirSync(join(ws, 'vendor', 'lib'), { recursive: true });
    execFileSync('git', ['init', '-q', join(ws, 'vendor', 'lib')]);
    write('vendor/lib/file.txt', 'lib\n');
    const checkpoint = await store.create({ label: 'first' });
    write('vendor/lib/file.txt', 'lib changed\n');
    await store.restoreFiles(checkpoint.commit, 'restore');
    expect(read('vendor/lib/file.txt')).toBe('lib changed\n');
  });

  it('reuses the last snapshot when nothing changed, and records each checkpoint with its call', async () => {
    write('a.txt', 'a\n');
    const first = await store.create({
      label: 'Snapshot for replace',
      toolCall: { name: 'replace', args: { file_path: '/x/src/a.txt' }, callId: 'c1' },
      promptId: 'p#1',
      sessionId: 's',
      historyLength: 3,
    });
    const second = await store.create({
      label: 'Snapshot for run_shell_command',
      toolCall: { name: 'run_shell_command', args: { command: 'ls' }, callId: 'c2' },
    });
    expect(second.commit).toBe(first.commit);
    expect(first.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}_\d{3}Z-a\.txt-replace$/);
    expect(second.id).toMatch(/Z-run_shell_command(-2)?$/);
    expect(store.list().map((checkpoint) => checkpoint.id)).toEqual([first.id, second.id]);
    expect(store.get(first.id)).toEqual(first);
    const onDisk = JSON.parse(readFileSync(join(history, 'checkpoints', `${first.id}.json`), 'utf8'));
    expect(onDisk).toMatchObject({ promptId: 'p#1', historyLength: 3, toolCall: { name: 'replace' } });
  });

  it('handles file names with spaces, quotes and glob characters', async () => {
    write('we ird/[a]*?.txt', 'one\n');
    write('quote"d.txt', 'two\n');
    const checkpoint = await store.create({ label: 'first' });
    write('we ird/[a]*?.txt', 'changed\n');
    unlinkSync(join(ws, 'quote"d.txt'));
    await store.restoreFiles(checkpoint.commit, 'restore');
    expect(read('we ird/[a]*?.txt')).toBe('one\n');
    expect(read('quote"d.txt')).toBe('two\n');
  });

  it('places the history under ~/.kodo/history/<project id>', () => {
    expect(checkpointHistoryDir('/home/u/.kodo', '/work/My App')).toMatch(
      /^\/home\/u\/\.kodo\/history\/my-app-[0-9a-f]{8}$/,
    );
  });

  it('fails with a clear error when git cannot run, without touching the workspace', async () => {
    const broken = new CheckpointStore({
      workspaceRoot: ws,
      historyDir: history,
      path: join(base, 'no-bin'),
    });
    write('a.txt', 'a\n');
    await expect(broken.create({ label: 'x' })).rejects.toThrow(/git is not installed/);
    expect(read('a.txt')).toBe('a\n');
    await expect(store.restoreFiles('--output=/tmp/x', 'x')).rejects.toThrow(/Not a snapshot id/);
  });
});

describe('checkpoint helpers', () => {
  it('anchors and escapes exclude patterns, and reads them back', () => {
    expect(anchoredPattern('a b/[x]*.txt')).toBe('/a b/\\[x\\]\\*.txt');
    const text = excludeFileText(base, ['z.bin', 'we ird/#1.bin']);
    expect(text).toContain('node_modules/');
    expect(largeFilesIn(text)).toEqual(['we ird/#1.bin', 'z.bin']);
  });

  it('parses porcelain status records', () => {
    expect(parseStatus(' M a.txt\0?? b c.txt\0D  gone.txt\0')).toEqual([
      { index: ' ', workTree: 'M', path: 'a.txt' },
      { index: '?', workTree: '?', path: 'b c.txt' },
      { index: 'D', workTree: ' ', path: 'gone.txt' },
    ]);
  });
});
