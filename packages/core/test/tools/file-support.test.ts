import { join } from 'node:path';
import { createTempWorkspace } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { classifyFile } from '../../src/tools/file-kind';
import { MatchSink } from '../../src/tools/grep/backend';
import { cutLine } from '../../src/tools/grep/format';
import { expandBraces, gitGrepArgs } from '../../src/tools/grep/git-backend';
import { runLineProcess } from '../../src/tools/grep/line-process';
import { ripgrepArgs } from '../../src/tools/grep/rg-backend';
import { parseMatch as parseMatchBytes } from '../../src/tools/grep/rg-json';

const parseMatch = (line: string) => parseMatchBytes(Buffer.from(line));

import { IgnoreFilter } from '../../src/tools/ignore-filter';

const hex = (value: string) => Buffer.from(value.replace(/ /g, ''), 'hex');

describe('classifyFile', () => {
  it('recognises media by extension and signature, with the MIME type to send', () => {
    const cases: [string, Buffer, string, string][] = [
      ['a.png', hex('89504e47 0d0a1a0a'), 'image', 'image/png'],
      ['a.jpeg', hex('ffd8ffe1'), 'image', 'image/jpeg'],
      ['a.gif', Buffer.from('GIF87a'), 'image', 'image/gif'],
      ['a.webp', Buffer.from('RIFF\0\0\0\0WEBP'), 'image', 'image/webp'],
      ['a.bmp', Buffer.from('BM'), 'image', 'image/bmp'],
      ['a.heic', Buffer.from('\0\0\0\x18ftypheic'), 'image', 'image/heic'],
      ['a.pdf', Buffer.from('\n%PDF-1.7'), 'pdf', 'application/pdf'],
      ['a.mp3', hex('fffb9064'), 'audio', 'audio/mpeg'],
      ['a.ogg', Buffer.from('OggS'), 'audio', 'audio/ogg'],
      ['a.flac', Buffer.from('fLaC'), 'audio', 'audio/flac'],
      ['a.aac', hex('fff15080'), 'audio', 'audio/aac'],
      ['a.aiff', Buffer.from('FORM\0\0\0\0AIFF'), 'audio', 'audio/aiff'],
      ['a.mov', Buffer.from('\0\0\0\x14ftypqt  '), 'video', 'video/quicktime'],
      ['a.webm', hex('1a45dfa3'), 'video', 'video/webm'],
      ['a.avi', Buffer.from('RIFF\0\0\0\0AVI '), 'video', 'video/x-msvideo'],
      ['a.mpg', hex('000001ba'), 'video', 'video/mpeg'],
    ];
    for (const [path, head, kind, mimeType] of cases) {
      expect(classifyFile(path, head), path).toEqual({ kind, mimeType });
    }
  });

  it('classifies a mislabelled file by its content', () => {
    expect(classifyFile('a.png', Buffer.from('version https://git-lfs'))).toEqual({ kind: 'text' });
    expect(classifyFile('a.jpg', hex('00010203'))).toEqual({ kind: 'binary' });
    expect(classifyFile('a.wav', Buffer.from('RIFF\0\0\0\0AVI '))).toEqual({ kind: 'binary' });
  });

  it('refuses formats models do not take inline, and keeps TypeScript text', () => {
    expect(classifyFile('a.mkv', hex('1a45dfa3')).kind).toBe('binary');
    expect(classifyFile('a.tiff', Buffer.from('II*\0')).kind).toBe('binary');
    expect(classifyFile('a.ts', hex('47400011')).kind).toBe('text');
    expect(classifyFile('a.svg', Buffer.from('<svg')).kind).toBe('svg');
  });
});

describe('IgnoreFilter project ignore files', () => {
  it('reads .geminiignore and .kodoignore together; the later can re-include', () => {
    const ws = createTempWorkspace({
      '.geminiignore': '*.secret\nbuild/\n',
      '.kodoignore': 'scratch/\n!keep.secret\n',
    });
    try {
      const filter = new IgnoreFilter({
        workspaceRoot: ws.root,
        respectGitIgnore: false,
        respectGeminiIgnore: true,
      });
      const ignored = (rel: string, isDirectory = false) => filter.isIgnored(join(ws.root, rel), isDirectory);
      expect(ignored('a.secret')).toBe(true);
      expect(ignored('keep.secret')).toBe(false);
      expect(ignored('build/x.js')).toBe(true);
      expect(ignored('scratch/y.md')).toBe(true);
      expect(ignored('src/z.ts')).toBe(false);
      expect(filter.inactive).toBe(false);
      const off = new IgnoreFilter({
        workspaceRoot: ws.root,
        respectGitIgnore: false,
        respectGeminiIgnore: false,
      });
      expect(off.isIgnored(join(ws.root, 'a.secret'), false)).toBe(false);
    } finally {
      ws.cleanup();
    }
  });
});

describe('MatchSink', () => {
  const match = (file: string, lineNumber: number, line = 'hit') => ({ filePath: file, lineNumber, line });

  it('drops excluded lines before counting, then applies the per-file and total caps', () => {
    const sink = new MatchSink({ excludePattern: '^SKIP', caseSensitive: false, maxTotal: 3, maxPerFile: 2 });
    expect(sink.add(match('/a', 1, 'skip me'))).toBe('more');
    expect(sink.add(match('/a', 2))).toBe('more');
    expect(sink.add(match('/a', 3))).toBe('next_file');
    expect(sink.add(match('/a', 4))).toBe('next_file');
    expect(sink.add(match('/b', 1))).toBe('done');
    expect(sink.add(match('/b', 2))).toBe('done');
    expect(sink.matches.map((m) => `${m.filePath}:${m.lineNumber}`)).toEqual(['/a:2', '/a:3', '/b:1']);
  });
});

describe('grep command lines', () => {
  const query = {
    searchPath: '/ws/src',
    workspaceRoot: '/ws',
    pattern: '-x',
    caseSensitive: false,
    fixedStrings: true,
    respectIgnoreFiles: true,
    maxTotal: 100,
    maxPerFile: 3,
    env: {},
    signal: new AbortController().signal,
  };

  it('runs rg from the workspace root with the search dir, caps and default excludes', () => {
    const args = ripgrepArgs({ ...query, include: 'lib/**/*.ts' }, { isDirectory: true });
    expect(args.slice(0, 6)).toEqual([
      '--json',
      '--no-config',
      '--hidden',
      '--no-messages',
      '--no-ignore-messages',
      '--engine=auto',
    ]);
    expect(args).toEqual(
      expect.arrayContaining(['--ignore-case', '--fixed-strings', '--max-count=3', '--glob=src/lib/**/*.ts']),
    );
    expect(args).toEqual(expect.arrayContaining(['--glob=!node_modules', '--glob=!*.log', '--glob=!.git']));
    expect(args.slice(-4)).toEqual(['--regexp', '-x', '--', 'src']);
    // exclude_pattern: rg must not stop a file early, the sink counts.
    expect(ripgrepArgs({ ...query, excludePattern: 'y' }, { isDirectory: true })).not.toContain(
      '--max-count=3',
    );
    const all = ripgrepArgs({ ...query, respectIgnoreFiles: false, include: '*.ts' }, { isDirectory: true });
    expect(all).toEqual(
      expect.arrayContaining(['--no-ignore', '--type-add=kodoinclude:*.ts', '--glob=!.git']),
    );
    expect(all).not.toContain('--glob=!node_modules');
  });

  it('gives git grep pathspecs for includes, braces expanded, and excludes', () => {
    const args = gitGrepArgs({ ...query, include: '*.{ts,tsx}' }, { isDirectory: true, dialect: 'perl' });
    expect(args).toEqual(expect.arrayContaining(['--untracked', '-I', '-n', '-z', '-i', '-F', '-e', '-x']));
    const pathspecs = args.slice(args.indexOf('--') + 1);
    expect(pathspecs).toEqual([
      ':(glob)**/*.ts',
      ':(glob)**/*.tsx',
      ':(exclude,glob)**/.svn/**',
      ':(exclude,glob)**/.hg/**',
      ':(exclude,glob)**/node_modules/**',
      ':(exclude,glob)**/bower_components/**',
      ':(exclude,glob)**/*.log',
      ':(exclude,glob)**/*.tmp',
    ]);
  });

  it('expands nested braces', () => {
    expect(expandBraces('src/{a,b{1,2}}/*.{js,ts}')).toEqual([
      'src/a/*.js',
      'src/a/*.ts',
      'src/b1/*.js',
      'src/b1/*.ts',
      'src/b2/*.js',
      'src/b2/*.ts',
    ]);
    expect(expandBraces('{single}')).toEqual(['{single}']);
    expect(expandBraces('open{a,b')).toEqual(['open{a,b']);
  });
});

describe("parsing rg's JSON matches", () => {
  const message = (path: object, lines: object) =>
    JSON.stringify({
      type: 'match',
      data: {
        path,
        lines,
        line_number: 42,
        absolute_offset: 7,
        submatches: [{ match: { text: 'x' }, start: 0, end: 1 }],
      },
    });

  it('reads path, text (without its line ending) and line number, unescaping JSON strings', () => {
    const tricky = 'say "hi" \\ tab\there \u00e9 ✓ "}","lines":{"text":"fake';
    expect(parseMatch(message({ text: 'dir/"odd".ts' }, { text: `${tricky}\n` }))).toEqual({
      path: 'dir/"odd".ts',
      line: tricky,
      lineNumber: 42,
      // Where the first match starts (rg's submatch), so a long line is shown around it.
      matchStart: 0,
    });
    for (const [text, line] of [
      ['plain ✓ text\n', 'plain ✓ text'],
      ['windows\r\n', 'windows'],
      ['ends in a backslash-n: \\n\n', 'ends in a backslash-n: \\n'],
      ['no newline at the end of the file', 'no newline at the end of the file'],
    ]) {
      expect(parseMatch(message({ text: 'a.txt' }, { text }))?.line).toBe(line);
    }
    expect(parseMatch(message({ text: 'a\\' }, { text: 'b\\' }))).toEqual({
      path: 'a\\',
      line: 'b\\',
      lineNumber: 42,
      matchStart: 0,
    });
  });

  it('decodes base64 bytes for paths and lines that are not UTF-8', () => {
    const bytes = (text: string) => ({ bytes: Buffer.from(text).toString('base64') });
    expect(parseMatch(message(bytes('weird.txt'), bytes('caf\u00e9\n')))).toEqual({
      path: 'weird.txt',
      line: 'café',
      lineNumber: 42,
      matchStart: 0,
    });
  });

  it('ignores anything that is not a match message', () => {
    expect(parseMatch('{"type":"match","data":{"path":{"text":"a"')).toBeUndefined();
    expect(parseMatch('{"type":"begin","data":{"path":{"text":"a"}}}')).toBeUndefined();
    expect(parseMatch('garbage')).toBeUndefined();
  });
});

describe('cutLine', () => {
  it('keeps short lines and cuts long ones at 2000 characters, never inside a grapheme, saying how much', () => {
    expect(cutLine('short')).toBe('short');
    expect(cutLine('é'.repeat(2000))).toBe('é'.repeat(2000));
    const accented = 'e\u0301'.repeat(2001); // 4002 code units, 2001 graphemes
    expect(cutLine(accented)).toBe(`${'e\u0301'.repeat(1000)} [2,002 characters cut]`);
  });
});

describe('runLineProcess', () => {
  // Writes its argument pieces with pauses, so lines arrive split across chunks.
  const writer = `const parts = JSON.parse(process.argv[1]);
    (function next() { const p = parts.shift(); if (p === undefined) return; process.stdout.write(p); setTimeout(next, 15); })();`;

  const run = (parts: string[], extra: { maxLineChars?: number; stopAt?: string } = {}) => {
    const lines: string[] = [];
    const outcome = runLineProcess({
      command: process.execPath,
      args: ['-e', writer, JSON.stringify(parts)],
      cwd: process.cwd(),
      env: process.env,
      signal: new AbortController().signal,
      maxLineBytes: extra.maxLineChars,
      onLine(line) {
        lines.push(line.toString());
        return line.toString() === extra.stopAt ? 'stop' : 'more';
      },
    });
    return outcome.then((result) => ({ ...result, lines }));
  };

  it('joins lines split across chunks and keeps a last line without newline', async () => {
    const result = await run(['al', 'pha\nbe', 'ta\n', 'gam', 'ma']);
    expect(result).toMatchObject({ code: 0, stopped: false, lines: ['alpha', 'beta', 'gamma'] });
  });

  it('skips lines longer than the limit, even when they span chunks', async () => {
    const result = await run(['short\n', 'x'.repeat(30), 'y'.repeat(30), 'z\nafter\n'], { maxLineChars: 40 });
    expect(result.lines).toEqual(['short', 'after']);
  });

  it('stops the process when asked', async () => {
    const result = await run(['one\n', 'two\n', 'three\n'], { stopAt: 'two' });
    expect(result).toMatchObject({ stopped: true, code: null, lines: ['one', 'two'] });
  });

  it('rejects when the command cannot start', async () => {
    await expect(
      runLineProcess({
        command: '/nonexistent/kodo-rg',
        args: [],
        cwd: process.cwd(),
        env: process.env,
        signal: new AbortController().signal,
        onLine: () => 'more',
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
