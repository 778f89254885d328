import { mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool, sortByRecency } from '../../src/tools/builtin/glob';
import { Workspace } from '../../src/tools/workspace';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const find = (args: Record<string, unknown>) => runTool(globTool, args, ws.ctx);
const DAY_AGO_S = Date.now() / 1000 - 2 * 24 * 3600;

/** Makes files look old (two days) so they sort alphabetically. */
function age(...rels: string[]): void {
  for (const rel of rels) utimesSync(join(ws.root, rel), DAY_AGO_S, DAY_AGO_S);
}

function header(count: number, pattern: string, where: string): string {
  return `Found ${count} file(s) matching "${pattern}" within ${where}, sorted by modification time (newest first):\n`;
}

describe('glob', () => {
  it('finds matching files, including dotfiles, as absolute paths', async () => {
    ws.write('src/b.ts', '');
    ws.write('src/a.ts', '');
    ws.write('src/.config.ts', '');
    ws.write('src/c.js', '');
    age('src/a.ts', 'src/b.ts', 'src/.config.ts');
    const result = await find({ pattern: '**/*.ts' });
    expect(result.error).toBeUndefined();
    const paths = ['src/.config.ts', 'src/a.ts', 'src/b.ts'].map((rel) => join(ws.root, rel));
    expect(text(result)).toBe(header(3, '**/*.ts', ws.root) + paths.join('\n'));
  });

  it('puts files changed in the last 24 h first, newest first', async () => {
    for (const rel of ['old-b.md', 'old-a.md', 'new-1.md', 'new-2.md']) ws.write(rel, '');
    age('old-a.md', 'old-b.md');
    const now = Date.now() / 1000;
    utimesSync(join(ws.root, 'new-1.md'), now - 100, now - 100);
    utimesSync(join(ws.root, 'new-2.md'), now - 10, now - 10);
    const lines = text(await find({ pattern: '*.md' }))
      .split('\n')
      .slice(1);
    expect(lines).toEqual(['new-2.md', 'new-1.md', 'old-a.md', 'old-b.md'].map((rel) => join(ws.root, rel)));
  });

  it('sorts by the rule in isolation', () => {
    const now = 10 * 24 * 3600 * 1000;
    const files = [
      { path: '/b', mtimeMs: 0 },
      { path: '/a', mtimeMs: 0 },
      { path: '/recent-old', mtimeMs: now - 3600_000 },
      { path: '/recent-new', mtimeMs: now - 1000 },
    ];
    expect(sortByRecency(files, now).map((f) => f.path)).toEqual(['/recent-new', '/recent-old', '/a', '/b']);
  });

  it('matches case-insensitively by default', async () => {
    ws.write('README.MD', '');
    expect(text(await find({ pattern: '*.md' }))).toContain('README.MD');
    expect(text(await find({ pattern: '*.md', case_sensitive: true }))).toBe(
      `No files found matching pattern "*.md" within ${ws.root}`,
    );
  });

  it('skips node_modules and .git', async () => {
    ws.write('node_modules/pkg/index.js', '');
    ws.write('.git/hooks/x.js', '');
    ws.write('lib/deep/node_modules/y.js', '');
    ws.write('app.js', '');
    const result = text(await find({ pattern: '**/*.js' }));
    expect(result).toBe(header(1, '**/*.js', ws.root) + join(ws.root, 'app.js'));
  });

  it('obeys .gitignore and counts what it left out', async () => {
    ws.write('.gitignore', 'build/\n');
    ws.write('build/out.js', '');
    ws.write('src/in.js', '');
    const result = text(await find({ pattern: '**/*.js' }));
    expect(result).toBe(
      `Found 1 file(s) matching "**/*.js" within ${ws.root} (1 additional files were ignored), sorted by modification time (newest first):\n${join(ws.root, 'src/in.js')}`,
    );
    expect(text(await find({ pattern: 'build/*.js' }))).toBe(
      `No files found matching pattern "build/*.js" within ${ws.root} (1 files were ignored)`,
    );
    expect(text(await find({ pattern: '**/*.js', respect_git_ignore: false }))).toContain('build/out.js');
  });

  it('obeys .geminiignore and .kodoignore unless respect_gemini_ignore is false', async () => {
    ws.write('.geminiignore', 'private/\n');
    ws.write('.kodoignore', '*.draft.md\n');
    ws.write('private/a.md', '');
    ws.write('post.draft.md', '');
    ws.write('post.md', '');
    age('private/a.md', 'post.draft.md', 'post.md');
    expect(text(await find({ pattern: '**/*.md' }))).toBe(
      `Found 1 file(s) matching "**/*.md" within ${ws.root} (2 additional files were ignored), sorted by modification time (newest first):\n${join(ws.root, 'post.md')}`,
    );
    const all = text(await find({ pattern: '**/*.md', respect_gemini_ignore: false }));
    expect(all.split('\n').slice(1)).toEqual(
      ['post.draft.md', 'post.md', 'private/a.md'].map((rel) => join(ws.root, rel)),
    );
  });

  it('skips version-control and dependency directories even with ignore files off', async () => {
    ws.write('bower_components/x/y.js', '');
    ws.write('.hg/store/z.js', '');
    ws.write('node_modules/m.js', '');
    ws.write('ok.js', '');
    const result = text(await find({ pattern: '**/*.js', respect_git_ignore: false }));
    expect(result).toBe(header(1, '**/*.js', ws.root) + join(ws.root, 'ok.js'));
  });

  it('does not follow symlinked directories', async () => {
    ws.write('real/file.ts', '');
    symlinkSync(join(ws.root, 'real'), join(ws.root, 'alias'));
    age('real/file.ts');
    expect(text(await find({ pattern: '**/*.ts' }))).toBe(
      header(1, '**/*.ts', ws.root) + join(ws.root, 'real/file.ts'),
    );
  });

  it('searches a given directory', async () => {
    ws.write('a/x.txt', '');
    ws.write('b/y.txt', '');
    const result = text(await find({ pattern: '*.txt', dir_path: 'a' }));
    expect(result).toBe(header(1, '*.txt', join(ws.root, 'a')) + join(ws.root, 'a/x.txt'));
  });

  it('says when nothing matches', async () => {
    const result = await find({ pattern: '*.nothing' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(`No files found matching pattern "*.nothing" within ${ws.root}`);
  });

  it('searches every workspace directory when no dir_path is given', async () => {
    const second = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-ws2-')));
    try {
      writeFileSync(join(second, 'two.md'), '');
      ws.write('one.md', '');
      const ctx = { ...ws.ctx, workspace: new Workspace({ roots: [ws.root, second] }) };
      const result = text(await runTool(globTool, { pattern: '*.md' }, ctx));
      expect(result.split('\n')[0]).toBe(
        'Found 2 file(s) matching "*.md" across 2 workspace directories, sorted by modification time (newest first):',
      );
      expect(result).toContain(join(second, 'two.md'));
    } finally {
      rmSync(second, { recursive: true, force: true });
    }
  });

  it('validates parameters', () => {
    ws.write('file.txt', '');
    expect(buildError(globTool, {}, ws.ctx)?.message).toBe("params must have required property 'pattern'");
    expect(buildError(globTool, { pattern: ' ' }, ws.ctx)?.message).toBe(
      "The 'pattern' parameter cannot be empty.",
    );
    expect(buildError(globTool, { pattern: '*', dir_path: 'nope' }, ws.ctx)?.message).toBe(
      `Search path does not exist ${join(ws.root, 'nope')}`,
    );
    expect(buildError(globTool, { pattern: '*', dir_path: 'file.txt' }, ws.ctx)?.message).toBe(
      `Search path is not a directory: ${join(ws.root, 'file.txt')}`,
    );
  });

  describe('hostile input', () => {
    it('refuses a dir_path outside the workspace', () => {
      for (const dir_path of ['..', '/etc', 'x/../..']) {
        expect(buildError(globTool, { pattern: '*', dir_path }, ws.ctx)?.type).toBe('path_not_in_workspace');
      }
    });

    it('never reports files outside the workspace, whatever the pattern', async () => {
      const outside = outsideWithLinks(ws.root);
      try {
        for (const pattern of ['../**/*', '**/*', 'link-dir/**', `${outside.outside}/**`]) {
          expect(text(await find({ pattern }))).not.toContain('secret.txt');
        }
        expect(buildError(globTool, { pattern: '*', dir_path: 'link-dir' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
      } finally {
        outside.cleanup();
      }
    });
  });
});
