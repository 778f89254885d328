import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTempWorkspace } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin';
import { diffStat, unifiedDiff, updatedSnippet } from '../../src/tools/diff';
import { countOccurrences, findMatches } from '../../src/tools/edit/find-matches';
import { isPlaceholderLine } from '../../src/tools/edit/placeholders';
import { classifyFile } from '../../src/tools/file-kind';
import { decodeText, encodeText, looksBinary, splitLines, writeErrorType } from '../../src/tools/file-text';
import { IgnoreFilter } from '../../src/tools/ignore-filter';

describe('builtinTools', () => {
  it('offers the built-in tools with their names, kinds and parameters', () => {
    const tools = builtinTools();
    expect(tools.map((t) => [t.name, t.kind])).toEqual([
      ['read_file', 'read'],
      ['write_file', 'edit'],
      ['replace', 'edit'],
      ['apply_patch', 'edit'],
      ['list_directory', 'search'],
      ['glob', 'search'],
      ['grep_search', 'search'],
      ['run_shell_command', 'execute'],
      ['list_background_processes', 'read'],
      ['read_background_output', 'read'],
      ['web_fetch', 'fetch'],
      ['google_web_search', 'search'],
      ['web_search', 'search'],
      ['save_memory', 'edit'],
      ['write_todos', 'other'],
      ['invoke_agent', 'agent'],
      ['enter_plan_mode', 'plan'],
      ['exit_plan_mode', 'plan'],
      ['ask_user', 'communicate'],
    ]);
    const schema = (name: string) => tools.find((t) => t.name === name)!.declaration().parametersJsonSchema;
    expect(schema('read_file')).toMatchObject({
      type: 'object',
      required: ['file_path'],
      properties: { file_path: { type: 'string' }, start_line: { type: 'integer', minimum: 1 } },
    });
    expect(schema('replace').required).toEqual(['file_path', 'instruction', 'old_string', 'new_string']);
    expect(Object.keys(schema('grep_search').properties as object)).toEqual(
      expect.arrayContaining(['pattern', 'dir_path', 'include_pattern', 'names_only', 'total_max_matches']),
    );
    for (const tool of tools) {
      // A freeform tool's call carries only its text (see apply-patch.test.ts).
      if (tool.declaration().freeform) continue;
      expect(tool.declaration().parametersJsonSchema.properties).toHaveProperty('wait_for_previous');
    }
  });
});

describe('file-text', () => {
  it('round-trips every BOM encoding', () => {
    for (const encoding of ['utf8', 'utf8-bom', 'utf16le', 'utf16be', 'utf32le', 'utf32be'] as const) {
      const bytes = encodeText('héllo 𝄞\n', encoding);
      expect(decodeText(bytes)).toEqual({ text: 'héllo 𝄞\n', encoding });
    }
  });

  it('detects binary data by NUL bytes, not in BOM-marked text', () => {
    expect(looksBinary(Buffer.from('plain text'))).toBe(false);
    expect(looksBinary(Buffer.from([0x50, 0x00, 0x4b]))).toBe(true);
    expect(looksBinary(encodeText('a', 'utf16le'))).toBe(false);
  });

  it('splits lines without a phantom last line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });

  it('maps write errors to error types', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(writeErrorType(err('EACCES'))).toBe('permission_denied');
    expect(writeErrorType(err('ENOSPC'))).toBe('no_space_left');
    expect(writeErrorType(err('EISDIR'))).toBe('target_is_directory');
    expect(writeErrorType(err('EIO'))).toBe('file_write_failure');
  });
});

describe('file-kind', () => {
  it('classifies by extension, then content', () => {
    const text = Buffer.from('hello');
    const kind = (path: string, head: Buffer) => classifyFile(path, head).kind;
    expect(kind('a.ts', Buffer.from([0]))).toBe('text');
    expect(kind('a.PNG', Buffer.from('89504e470d0a1a0a', 'hex'))).toBe('image');
    expect(kind('a.pdf', Buffer.from('%PDF-1.4'))).toBe('pdf');
    expect(kind('a.mp3', Buffer.from('ID3'))).toBe('audio');
    expect(kind('a.svg', text)).toBe('svg');
    expect(kind('a.exe', text)).toBe('binary');
    expect(kind('noext', Buffer.from([1, 0, 2]))).toBe('binary');
    expect(kind('noext', text)).toBe('text');
  });
});

describe('diff helpers', () => {
  it('counts added and removed lines', () => {
    expect(diffStat('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual({ linesAdded: 2, linesRemoved: 1 });
    expect(diffStat('', 'x\n')).toEqual({ linesAdded: 1, linesRemoved: 0 });
  });

  it('shows changed lines with context and gaps', () => {
    const old = Array.from({ length: 40 }, (_, i) => `${i + 1}`).join('\n');
    const next = old.replace(/^3$/m, 'three').replace(/^35$/m, 'thirty-five');
    const expected = [
      '1',
      '2',
      'three',
      '4',
      '5',
      '6',
      '7',
      '8',
      '...',
      '30',
      '31',
      '32',
      '33',
      '34',
      'thirty-five',
    ];
    expect(updatedSnippet(old, next)).toBe([...expected, '36', '37', '38', '39', '40'].join('\n'));
    expect(updatedSnippet('same\n', 'same\n')).toBe('same\n');
  });

  it('writes a unified diff with file headers', () => {
    expect(unifiedDiff('f.txt', 'a\n', 'b\n')).toContain(
      '--- f.txt\tCurrent\n+++ f.txt\tProposed\n@@ -1,1 +1,1 @@\n-a\n+b',
    );
  });
});

describe('edit matching', () => {
  it('counts non-overlapping occurrences', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(2);
    expect(countOccurrences('abc', '')).toBe(0);
  });

  it('replaces exactly and reports counts', () => {
    const base = { content: 'x y x', oldString: 'x', newString: '$&' };
    expect(findMatches({ ...base, allowMultiple: false })).toEqual({
      strategy: 'exact',
      occurrences: 2,
      newContent: undefined,
    });
    expect(findMatches({ ...base, allowMultiple: true }).newContent).toBe('$& y $&');
    expect(findMatches({ ...base, oldString: 'z', allowMultiple: true }).occurrences).toBe(0);
  });

  it('lets later strategies plug in after exact', () => {
    const fuzzy = () => ({ strategy: 'fuzzy' as const, occurrences: 1, newContent: 'fixed' });
    const outcome = findMatches(
      { content: 'abc\n', oldString: 'zzz', newString: 'q', allowMultiple: false },
      [() => undefined, fuzzy],
    );
    expect(outcome).toMatchObject({ strategy: 'fuzzy', newContent: 'fixed\n' });
  });
});

describe('omission placeholders', () => {
  it('recognises the placeholder forms and nothing else', () => {
    for (const line of [
      '// rest of methods ...',
      '  (rest of code ...)',
      'Unchanged   Code ...',
      'rest of...',
    ]) {
      expect(isPlaceholderLine(line)).toBe(true);
    }
    for (const line of ['...', '// ... rest of code ...', 'rest of code ... here', 'const a = [...b];']) {
      expect(isPlaceholderLine(line)).toBe(false);
    }
  });
});

describe('IgnoreFilter', () => {
  it('applies nested .gitignore files, negations and ignored parents', () => {
    const ws = createTempWorkspace({
      '.gitignore': '*.log\nbuild/\n',
      'pkg/.gitignore': '!keep.log\nlocal/\n',
      'pkg/keep.log': '',
      'pkg/drop.log': '',
      'pkg/local/x.ts': '',
      'build/sub/y.ts': '',
      'src/z.ts': '',
    });
    try {
      const filter = new IgnoreFilter({
        workspaceRoot: ws.root,
        respectGitIgnore: true,
        respectGeminiIgnore: true,
      });
      const ignored = (rel: string) => filter.isIgnored(join(ws.root, rel), false);
      expect(ignored('pkg/keep.log')).toBe(false);
      expect(ignored('pkg/drop.log')).toBe(true);
      expect(ignored('pkg/local/x.ts')).toBe(true);
      expect(ignored('build/sub/y.ts')).toBe(true);
      expect(ignored('src/z.ts')).toBe(false);
      const off = new IgnoreFilter({
        workspaceRoot: ws.root,
        respectGitIgnore: false,
        respectGeminiIgnore: false,
      });
      expect(off.inactive).toBe(true);
    } finally {
      ws.cleanup();
    }
  });

  it("obeys the repository's rules when the workspace is a subdirectory", () => {
    const ws = createTempWorkspace({ '.gitignore': 'secret/\n', 'app/secret/k.txt': '', 'app/ok.txt': '' });
    try {
      mkdirSync(join(ws.root, '.git'));
      const filter = new IgnoreFilter({
        workspaceRoot: join(ws.root, 'app'),
        respectGitIgnore: true,
        respectGeminiIgnore: true,
      });
      expect(filter.isIgnored(join(ws.root, 'app/secret/k.txt'), false)).toBe(true);
      expect(filter.isIgnored(join(ws.root, 'app/ok.txt'), false)).toBe(false);
    } finally {
      ws.cleanup();
    }
  });
});
