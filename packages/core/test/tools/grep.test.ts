import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool, grepTool } from '../../src/tools/builtin/grep';
import type { GrepBackend, GrepQuery } from '../../src/tools/grep/backend';
import { buildError, outsideWithLinks, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace({
    'src/app.ts': 'import x from "y";\nfunction main() {\n  return TODO;\n}\n',
    'src/util.ts': '// TODO: tidy\nexport const todo = 1;\n',
    'README.md': 'Nothing to see\n',
  });
});
afterEach(() => ws.cleanup());

const grep = (args: Record<string, unknown>) => runTool(grepTool, args, ws.ctx);

describe('grep_search', () => {
  it('lists matches grouped by file, in path and line order', async () => {
    const result = await grep({ pattern: 'todo' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(
      [
        'Found 3 matches for pattern "todo" in path ".":',
        '---',
        'File: src/app.ts',
        'L3:   return TODO;',
        '---',
        'File: src/util.ts',
        'L1: // TODO: tidy',
        'L2: export const todo = 1;',
        '---',
      ].join('\n'),
    );
  });

  it('uses "match" for a single match and shows the filter', async () => {
    const result = text(await grep({ pattern: 'function \\w+', dir_path: 'src', include_pattern: '*.ts' }));
    expect(result).toBe(
      'Found 1 match for pattern "function \\w+" in path "src" (filter: "*.ts"):\n---\nFile: app.ts\nL2: function main() {\n---',
    );
  });

  it('is case-insensitive unless case_sensitive', async () => {
    expect(text(await grep({ pattern: 'TODO', case_sensitive: true }))).toContain('Found 2 matches');
  });

  it('treats fixed_strings literally', async () => {
    ws.write('re.txt', 'a.b\naxb\n(x)\n');
    expect(text(await grep({ pattern: 'a.b', fixed_strings: true }))).toContain('Found 1 match ');
    expect(text(await grep({ pattern: '(x)', fixed_strings: true }))).toContain('L3: (x)');
  });

  it('returns only file names with names_only', async () => {
    expect(text(await grep({ pattern: 'todo', names_only: true }))).toBe(
      'Found 2 files with matches for pattern "todo" in path ".":\nsrc/app.ts\nsrc/util.ts',
    );
  });

  it('says when nothing matches', async () => {
    const result = await grep({ pattern: 'zebra', include_pattern: '*.md' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe('No matches found for pattern "zebra" in path "." (filter: "*.md").');
  });

  it('limits the total and per-file matches', async () => {
    ws.write('many.txt', 'hit\n'.repeat(10));
    const limited = text(await grep({ pattern: 'hit', total_max_matches: 3 }));
    expect(limited.split('\n')[0]).toBe(
      'Found 3 matches for pattern "hit" in path "." (results limited to 3 matches for performance):',
    );
    const perFile = text(await grep({ pattern: 'hit', max_matches_per_file: 2 }));
    expect(perFile).toContain('Found 2 matches');
    expect(perFile).toContain('L1: hit\nL2: hit\n---');
  });

  it('drops lines matching exclude_pattern', async () => {
    expect(text(await grep({ pattern: 'todo', exclude_pattern: '^//' }))).toContain('Found 2 matches');
  });

  it('skips ignored, binary and dependency files unless no_ignore', async () => {
    ws.write('.gitignore', 'generated/\n');
    ws.write('generated/out.ts', 'needle\n');
    ws.write('node_modules/dep/index.js', 'needle\n');
    ws.write('debug.log', 'needle\n');
    ws.write('blob.bin', Buffer.from('needle\0\0'));
    ws.write('found.txt', 'needle\n');
    expect(text(await grep({ pattern: 'needle', names_only: true }))).toBe(
      'Found 1 files with matches for pattern "needle" in path ".":\nfound.txt',
    );
    const all = text(await grep({ pattern: 'needle', names_only: true, no_ignore: true }));
    expect(all).toBe(
      'Found 3 files with matches for pattern "needle" in path ".":\ndebug.log\nfound.txt\ngenerated/out.ts',
    );
  });

  it('searches a single file given as dir_path', async () => {
    expect(text(await grep({ pattern: 'export', dir_path: 'src/util.ts' }))).toBe(
      'Found 1 match for pattern "export" in path "src/util.ts":\n---\nFile: util.ts\nL2: export const todo = 1;\n---',
    );
  });

  it('streams large files and handles CRLF', async () => {
    const filler = 'filler line of text\r\n'.repeat(60_000); // > 1 MB
    ws.write('big.txt', `${filler}needle at the end\r\n`);
    expect(text(await grep({ pattern: 'needle at', include_pattern: 'big.txt' }))).toBe(
      'Found 1 match for pattern "needle at" in path "." (filter: "big.txt"):\n---\nFile: big.txt\nL60001: needle at the end\n---',
    );
  });

  it('cuts very long matching lines', async () => {
    ws.write('min.js', `${'a'.repeat(3000)}needle\n`);
    const result = text(await grep({ pattern: 'needle', include_pattern: '*.js' }));
    expect(result).toContain(`L1: ${'a'.repeat(2000)}... [truncated]`);
  });

  it('validates parameters', () => {
    expect(buildError(grepTool, {}, ws.ctx)?.message).toBe("params must have required property 'pattern'");
    expect(buildError(grepTool, { pattern: '(' }, ws.ctx)?.message).toMatch(
      /^Invalid regular expression pattern provided: \(\. Error: /,
    );
    expect(buildError(grepTool, { pattern: '(', fixed_strings: true }, ws.ctx)).toBeUndefined();
    expect(buildError(grepTool, { pattern: 'x', total_max_matches: 0 }, ws.ctx)?.type).toBe(
      'invalid_tool_params',
    );
    expect(buildError(grepTool, { pattern: 'x', dir_path: 'nope' }, ws.ctx)).toEqual({
      type: 'file_not_found',
      message: `Path does not exist: ${join(ws.root, 'nope')}`,
    });
  });

  it('reports backend failures as an ordinary result', async () => {
    const broken: GrepBackend = {
      name: 'broken',
      search: async () => {
        throw new Error('boom');
      },
    };
    const result = await runTool(createGrepTool(broken), { pattern: 'x' }, ws.ctx);
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe('Error during grep search operation: boom');
  });

  it('hands the query to a swappable backend', async () => {
    let seen: GrepQuery | undefined;
    const fake: GrepBackend = {
      name: 'fake',
      search: async (query) => {
        seen = query;
        return [{ filePath: join(ws.root, 'src/app.ts'), lineNumber: 7, line: 'hello' }];
      },
    };
    const result = await runTool(createGrepTool(fake), { pattern: 'h', names_only: true }, ws.ctx);
    expect(text(result)).toContain('src/app.ts');
    expect(seen).toMatchObject({
      searchPath: ws.root,
      maxTotal: 100,
      maxPerFile: 1,
      respectIgnoreFiles: true,
    });
  });

  describe('hostile input', () => {
    it('refuses a dir_path outside the workspace', () => {
      for (const dir_path of ['..', '/etc', 'src/../..']) {
        expect(buildError(grepTool, { pattern: 'x', dir_path }, ws.ctx)?.type).toBe('path_not_in_workspace');
      }
    });

    it('never searches through symlinks that lead outside', async () => {
      const outside = outsideWithLinks(ws.root);
      try {
        expect(text(await grep({ pattern: 'top secret' }))).toBe(
          'No matches found for pattern "top secret" in path ".".',
        );
        expect(buildError(grepTool, { pattern: 'x', dir_path: 'link-dir' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
        expect(buildError(grepTool, { pattern: 'x', dir_path: 'link-file' }, ws.ctx)?.type).toBe(
          'path_not_in_workspace',
        );
      } finally {
        outside.cleanup();
      }
    });
  });
});
