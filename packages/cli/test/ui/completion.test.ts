import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadInputFiles, Workspace } from '@kodo/core/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCommands, parseSlashCommand } from '../../src/ui/commands/registry';
import { completionQuery, suggestionsFor } from '../../src/ui/input/completion';
import { fuzzyFilter } from '../../src/ui/input/fuzzy';
import { bufferOf } from '../../src/ui/input/text-buffer';

const { expandAtReferences, FileIndex, findAtReferences } = await loadInputFiles();

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'kodo-complete-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

describe('slash commands', () => {
  const commands = builtinCommands();

  it('has every command of the issue', () => {
    const names = commands.map((command) => command.name);
    for (const name of [
      'help',
      'clear',
      'compress',
      'copy',
      'memory',
      'tools',
      'mcp',
      'model',
      'stats',
      'chat',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of ['restore', 'settings', 'theme', 'about', 'quit']) expect(names).toContain(name);
  });

  it('parses names, aliases and arguments; paths are not commands', () => {
    expect(parseSlashCommand('/model  gemini-2.5-flash ', commands)).toMatchObject({
      command: { name: 'model' },
      args: 'gemini-2.5-flash',
    });
    expect(parseSlashCommand('/exit', commands)).toMatchObject({ command: { name: 'quit' } });
    expect(parseSlashCommand('/nope', commands)).toEqual({ unknown: 'nope' });
    expect(parseSlashCommand('/usr/bin/env is missing', commands)).toBeUndefined();
    expect(parseSlashCommand('hello', commands)).toBeUndefined();
  });

  it('completes command names and subcommands', () => {
    const query = completionQuery(bufferOf('/th'))!;
    expect(suggestionsFor(query, commands, undefined).map((s) => s.value)).toEqual(['/theme']);
    const sub = completionQuery(bufferOf('/memory s'))!;
    expect(suggestionsFor(sub, commands, undefined).map((s) => s.value)).toEqual(['show']);
    expect(completionQuery(bufferOf('plain text'))).toBeUndefined();
  });
});

describe('@path completion and attachment', () => {
  it('ranks fuzzy matches: consecutive letters in the file name first', () => {
    const files = ['src/ui/app.tsx', 'src/api/client.ts', 'docs/apple.md', 'src/ui/input/paste.ts'];
    expect(fuzzyFilter('app', files, 2)).toEqual(['src/ui/app.tsx', 'docs/apple.md']);
    expect(fuzzyFilter('pst', files, 5)).toEqual(['src/ui/input/paste.ts']);
    expect(fuzzyFilter('zzz', files, 5)).toEqual([]);
  });

  it('finds the query after @', () => {
    expect(completionQuery(bufferOf('read @src/a'))).toEqual({ kind: 'file', query: 'src/a' });
    expect(completionQuery(bufferOf('mail me@host'))).toBeUndefined();
    expect(findAtReferences('see @a.ts and @my\\ file.md, not me@x or @')).toEqual(['a.ts', 'my file.md,']);
  });

  it('lists files respecting .gitignore outside git, and git ls-files inside', async () => {
    const root = tree({
      '.gitignore': 'dist/\n*.log\n',
      'src/app.ts': 'x',
      'dist/app.js': 'x',
      'debug.log': 'x',
      'node_modules/pkg/index.js': 'x',
      'sub/.gitignore': 'secret.txt\n',
      'sub/secret.txt': 'x',
      'sub/keep.txt': 'x',
      '.kodoignore': 'sub/keep.txt\n',
    });
    const walked = await new FileIndex(root).entries();
    expect(walked).toEqual(['.gitignore', '.kodoignore', 'src/', 'src/app.ts', 'sub/', 'sub/.gitignore']);
    execFileSync('git', ['init', '-q'], { cwd: root });
    const listed = await new FileIndex(root).entries();
    expect(listed).toEqual(walked);
  });

  it('attaches files and directories in the Gemini CLI layout, and skips what it cannot', async () => {
    const root = tree({ 'a.txt': 'alpha\n', 'lib/b.txt': 'beta\n', 'bin.dat': 'x\u0000y' });
    const workspace = new Workspace({ roots: [root] });
    const listFiles = () => new FileIndex(root).entries();
    const expanded = await expandAtReferences('check @a.txt @lib @bin.dat @missing.txt @../outside', {
      workspace,
      listFiles,
    });
    expect(expanded.attached).toEqual(['a.txt', 'lib/b.txt']);
    expect(expanded.text).toBe(
      'check @a.txt @lib @bin.dat @missing.txt @../outside\n--- Content from referenced files ---' +
        '\nContent from @a.txt:\nalpha\n\nContent from @lib/b.txt:\nbeta\n\n--- End of content ---',
    );
    expect(expanded.skipped.join('\n')).toMatch(/bin\.dat: binary file/);
    expect(expanded.skipped.join('\n')).toMatch(/missing\.txt: not found/);
    expect(expanded.skipped).toHaveLength(3);
  });
});
