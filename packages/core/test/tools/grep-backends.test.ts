import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { rgPath } from '@vscode/ripgrep';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/builtin/grep';
import type { GrepBackend } from '../../src/tools/grep/backend';
import { GitGrepBackend } from '../../src/tools/grep/git-backend';
import { JsGrepBackend } from '../../src/tools/grep/js-backend';
import { RipgrepBackend } from '../../src/tools/grep/rg-backend';
import { outsideWithLinks, runTool, text } from './helpers';

/**
 * Every backend must give the same answers: the same test body runs against ripgrep (inside and
 * outside a git repository, since rg treats ignore files differently there), git grep and the
 * JavaScript scan.
 */
interface BackendCase {
  label: string;
  make: () => GrepBackend;
  gitRepo: boolean;
}

const CASES: BackendCase[] = [
  { label: 'ripgrep', make: () => new RipgrepBackend(rgPath), gitRepo: false },
  { label: 'ripgrep in a git repository', make: () => new RipgrepBackend(rgPath), gitRepo: true },
  { label: 'git grep', make: () => new GitGrepBackend(), gitRepo: true },
  { label: 'javascript', make: () => new JsGrepBackend(), gitRepo: false },
];

describe.each(CASES)('grep_search on $label', ({ make, gitRepo }) => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace({
      'src/app.ts': 'import x from "y";\nfunction main() {\n  return TODO;\n}\n',
      'src/util.ts': '// TODO: tidy\nexport const todo = 1;\n',
      'src/deep/more.ts': 'todo: one\nnothing\ntodo: two\n',
      'README.md': 'Nothing to see\n',
    });
    if (gitRepo) execFileSync('git', ['init', '-q', ws.root]);
  });
  afterEach(() => ws.cleanup());

  const grep = (args: Record<string, unknown>) => runTool(createGrepTool({ backend: make() }), args, ws.ctx);

  it('lists matches grouped by file, files by path and lines in order', async () => {
    expect(text(await grep({ pattern: 'todo', context: 0 }))).toBe(
      [
        'Found 5 matches for pattern "todo" in path ".":',
        '---',
        'File: src/app.ts',
        'L3:   return TODO;',
        '---',
        'File: src/deep/more.ts',
        'L1: todo: one',
        'L3: todo: two',
        '---',
        'File: src/util.ts',
        'L1: // TODO: tidy',
        'L2: export const todo = 1;',
        '---',
      ].join('\n'),
    );
  });

  it('is case-insensitive unless case_sensitive, and literal with fixed_strings', async () => {
    expect(text(await grep({ pattern: 'TODO', case_sensitive: true, names_only: true }))).toBe(
      'Found 2 files with matches for pattern "TODO" in path ".":\nsrc/app.ts\nsrc/util.ts',
    );
    ws.write('re.txt', 'a.b\naxb\n(x)\n');
    expect(text(await grep({ pattern: 'a.b', fixed_strings: true, context: 0 }))).toBe(
      'Found 1 match for pattern "a.b" in path ".":\n---\nFile: re.txt\nL1: a.b\n---',
    );
    expect(text(await grep({ pattern: '(x)', fixed_strings: true, context: 0 }))).toContain('L3: (x)');
  });

  it('understands the usual regex syntax', async () => {
    const result = text(await grep({ pattern: '^\\s*return\\s+\\w+;$', context: 0 }));
    expect(result).toContain('File: src/app.ts\nL3:   return TODO;');
  });

  it('says when nothing matches, with the filter', async () => {
    const result = await grep({ pattern: 'zebra', include_pattern: '*.md' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe('No matches found for pattern "zebra" in path "." (filter: "*.md").');
  });

  it('caps the total and per-file matches', async () => {
    ws.write('many.txt', 'hit\n'.repeat(10));
    ws.write('more.txt', 'hit\n'.repeat(10));
    const limited = text(await grep({ pattern: 'hit', total_max_matches: 3 }));
    expect(limited.split('\n')[0]).toBe(
      'Found 3 matches for pattern "hit" in path "." (results limited to 3 matches for performance):',
    );
    const perFile = text(await grep({ pattern: 'hit', max_matches_per_file: 2, context: 0 }));
    expect(perFile).toBe(
      'Found 4 matches for pattern "hit" in path ".":\n---\nFile: many.txt\nL1: hit\nL2: hit\n---\nFile: more.txt\nL1: hit\nL2: hit\n---',
    );
  });

  it('drops excluded lines before they count against a cap', async () => {
    ws.write('x.txt', 'skip hit\nskip hit\nkeep hit 1\nkeep hit 2\nkeep hit 3\n');
    const result = text(
      await grep({
        pattern: 'hit',
        exclude_pattern: '^skip',
        max_matches_per_file: 2,
        dir_path: 'x.txt',
        context: 0,
      }),
    );
    expect(result).toBe(
      'Found 2 matches for pattern "hit" in path "x.txt":\n---\nFile: x.txt\nL3: keep hit 1\nL4: keep hit 2\n---',
    );
  });

  it('obeys context.fileFiltering: .gitignore and the project files can be switched off, custom files added', async () => {
    ws.write('.gitignore', 'generated/\n');
    ws.write('.geminiignore', 'secret-g.txt\n');
    ws.write('config/more-ignores', 'custom-*.txt\n!custom-keep.txt\n');
    ws.write('config/other-ignores', 'custom-keep.txt\n');
    for (const file of ['generated/out.ts', 'secret-g.txt', 'custom-a.txt', 'custom-keep.txt', 'found.txt'])
      ws.write(file, 'needle\n');
    const grepWith = (fileFiltering: Record<string, unknown>) =>
      runTool(
        createGrepTool({ backend: make() }),
        { pattern: 'needle', names_only: true },
        { ...ws.ctx, fileFiltering },
      );
    const files = async (fileFiltering: Record<string, unknown>) =>
      text(await grepWith(fileFiltering))
        .split('\n')
        .slice(1)
        .sort();
    // The first custom file has the last word: custom-keep.txt is re-included.
    expect(await files({ customIgnoreFilePaths: ['config/more-ignores', 'config/other-ignores'] })).toEqual([
      'custom-keep.txt',
      'found.txt',
    ]);
    expect(await files({ respectGitIgnore: false })).toEqual([
      'custom-a.txt',
      'custom-keep.txt',
      'found.txt',
      'generated/out.ts',
    ]);
    expect(
      await files({ respectGeminiIgnore: false, customIgnoreFilePaths: ['config/more-ignores'] }),
    ).toEqual(['custom-a.txt', 'custom-keep.txt', 'found.txt', 'secret-g.txt']);
  });

  it('skips ignored, dependency, log and binary files unless no_ignore', async () => {
    ws.write('.gitignore', 'generated/\n');
    ws.write('.geminiignore', 'secret-g.txt\n');
    ws.write('.kodoignore', 'secret-k.txt\n');
    ws.write('generated/out.ts', 'needle\n');
    ws.write('secret-g.txt', 'needle\n');
    ws.write('secret-k.txt', 'needle\n');
    ws.write('node_modules/dep/index.js', 'needle\n');
    ws.write('debug.log', 'needle\n');
    ws.write('blob.bin', Buffer.from('needle\0\0'));
    ws.write('.config/found.txt', 'needle\n');
    ws.write('found.txt', 'needle\n');
    expect(text(await grep({ pattern: 'needle', names_only: true }))).toBe(
      'Found 2 files with matches for pattern "needle" in path ".":\n.config/found.txt\nfound.txt',
    );
    const all = text(await grep({ pattern: 'needle', names_only: true, no_ignore: true }));
    expect(all).toBe(
      [
        'Found 7 files with matches for pattern "needle" in path ".":',
        '.config/found.txt',
        'debug.log',
        'found.txt',
        'generated/out.ts',
        'node_modules/dep/index.js',
        'secret-g.txt',
        'secret-k.txt',
      ].join('\n'),
    );
  });

  it('applies root-anchored project ignore rules when searching a subdirectory', async () => {
    ws.write('.geminiignore', '/src/private/\n');
    ws.write('src/private/key.ts', 'needle\n');
    ws.write('src/public/ok.ts', 'needle\n');
    expect(text(await grep({ pattern: 'needle', dir_path: 'src', names_only: true }))).toBe(
      'Found 1 files with matches for pattern "needle" in path "src":\npublic/ok.ts',
    );
  });

  it('filters by include_pattern: names at any depth, paths relative to dir_path, braces', async () => {
    ws.write('src/view.tsx', 'todo\n');
    ws.write('lib/todo.js', 'todo\n');
    const names = (args: Record<string, unknown>) => grep({ pattern: 'todo', names_only: true, ...args });
    expect(text(await names({ include_pattern: '*.{tsx,js}' }))).toBe(
      'Found 2 files with matches for pattern "todo" in path "." (filter: "*.{tsx,js}"):\nlib/todo.js\nsrc/view.tsx',
    );
    expect(text(await names({ include_pattern: 'deep/*.ts', dir_path: 'src' }))).toBe(
      'Found 1 files with matches for pattern "todo" in path "src" (filter: "deep/*.ts"):\ndeep/more.ts',
    );
    expect(text(await names({ include_pattern: 'src/**/*.ts' }))).toContain('\nsrc/deep/more.ts\n');
  });

  it('does not let a path include bring back ignored files', async () => {
    ws.write('.gitignore', '*.gen.ts\n');
    ws.write('src/made.gen.ts', 'todo\n');
    expect(text(await grep({ pattern: 'todo', names_only: true, include_pattern: 'src/*.ts' }))).toBe(
      'Found 2 files with matches for pattern "todo" in path "." (filter: "src/*.ts"):\nsrc/app.ts\nsrc/util.ts',
    );
  });

  it('searches a single file given as dir_path, even an ignored one', async () => {
    ws.write('.gitignore', 'notes.txt\n');
    ws.write('notes.txt', 'one\ntodo here\n');
    expect(text(await grep({ pattern: 'export', dir_path: 'src/util.ts', context: 0 }))).toBe(
      'Found 1 match for pattern "export" in path "src/util.ts":\n---\nFile: util.ts\nL2: export const todo = 1;\n---',
    );
    expect(text(await grep({ pattern: 'todo', dir_path: 'notes.txt', context: 0 }))).toContain(
      'L2: todo here',
    );
  });

  it('reads large files, CRLF line endings and UTF-8 text', async () => {
    const filler = 'filler line of text\r\n'.repeat(60_000); // > 1 MB
    ws.write('big.txt', `${filler}needle at the end — ✓ 日本\r\n`);
    expect(text(await grep({ pattern: 'needle at', include_pattern: 'big.txt', context: 0 }))).toBe(
      'Found 1 match for pattern "needle at" in path "." (filter: "big.txt"):\n---\nFile: big.txt\nL60001: needle at the end — ✓ 日本\n---',
    );
  });

  it('adds context lines when few lines match', async () => {
    ws.write('ctx.txt', `${Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    const one = text(await grep({ pattern: 'line 60$' }));
    expect(one).toContain('File: ctx.txt\nL10- line 10\n');
    expect(one).toContain('L59- line 59\nL60: line 60\nL61- line 61\n');
    expect(one).toMatch(/L110- line 110\n---$/);
    expect(one).not.toContain('L9- ');
    const explicit = text(await grep({ pattern: 'line 60$', before: 1, after: 2 }));
    expect(explicit).toBe(
      'Found 1 match for pattern "line 60$" in path ".":\n---\nFile: ctx.txt\nL59- line 59\nL60: line 60\nL61- line 61\nL62- line 62\n---',
    );
  });

  it('never searches through symlinks that lead outside the workspace', async () => {
    const outside = outsideWithLinks(ws.root);
    try {
      expect(text(await grep({ pattern: 'top secret' }))).toBe(
        'No matches found for pattern "top secret" in path ".".',
      );
    } finally {
      outside.cleanup();
    }
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runTool(createGrepTool({ backend: make() }), { pattern: 'todo' }, ws.ctx, {
      signal: controller.signal,
    });
    expect(text(result)).toBe('Search for "todo" was cancelled.');
  });

  it('reports results relative to a subdirectory', async () => {
    const result = text(await grep({ pattern: 'todo: one', dir_path: join(ws.root, 'src'), context: 0 }));
    expect(result).toBe(
      `Found 1 match for pattern "todo: one" in path "${join(ws.root, 'src')}":\n---\nFile: deep/more.ts\nL1: todo: one\n---`,
    );
  });
});
