// context.fileFiltering and tools.useRipgrep as the file tools see them (ToolContext), besides
// grep_search (grep-backends.test.ts runs those cases on every backend).
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/builtin/glob';
import { listDirectoryTool } from '../../src/tools/builtin/list-directory';
import { readFileTool } from '../../src/tools/builtin/read-file';
import { autoGrepBackends } from '../../src/tools/grep/select';
import { buildError, runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace({
    '.gitignore': 'built/\n',
    '.geminiignore': 'private.md\n',
    'extra-ignores': 'scratch.md\n',
    'built/out.md': 'out\n',
    'private.md': 'private\n',
    'scratch.md': 'scratch\n',
    'notes.md': 'notes\n',
  });
});
afterEach(() => ws.cleanup());

const withFiltering = (fileFiltering: Record<string, unknown>) => ({ ...ws.ctx, fileFiltering });

describe('context.fileFiltering', () => {
  it('sets the defaults of glob; the call’s own parameters still win', async () => {
    const names = async (ctx: typeof ws.ctx, args: Record<string, unknown> = {}) =>
      text(await runTool(globTool, { pattern: '**/*.md', ...args }, ctx))
        .split('\n')
        .slice(1)
        .map((line) => line.replace(`${ws.root}/`, ''))
        .sort();
    expect(await names(ws.ctx)).toEqual(['notes.md', 'scratch.md']);
    expect(await names(withFiltering({ customIgnoreFilePaths: ['extra-ignores'] }))).toEqual(['notes.md']);
    expect(await names(withFiltering({ respectGitIgnore: false }))).toEqual([
      'built/out.md',
      'notes.md',
      'scratch.md',
    ]);
    expect(await names(withFiltering({ respectGitIgnore: false }), { respect_git_ignore: true })).toEqual([
      'notes.md',
      'scratch.md',
    ]);
  });

  it('sets the defaults of list_directory and read_file', async () => {
    const listing = async (ctx: typeof ws.ctx) =>
      text(await runTool(listDirectoryTool, { dir_path: '.' }, ctx));
    expect(await listing(ws.ctx)).not.toContain('private.md');
    expect(await listing(withFiltering({ respectGeminiIgnore: false }))).toContain('private.md');
    expect(await listing(withFiltering({ customIgnoreFilePaths: ['extra-ignores'] }))).not.toContain(
      'scratch.md',
    );

    // read_file refuses an ignored file when the call is built, before it runs.
    expect(buildError(readFileTool, { file_path: 'private.md' }, ws.ctx)?.message).toContain(
      'is ignored by configured ignore patterns',
    );
    const ctx = withFiltering({ respectGeminiIgnore: false });
    expect(text(await runTool(readFileTool, { file_path: 'private.md' }, ctx))).toContain('private');
  });
});

describe('tools.useRipgrep', () => {
  it('false picks git grep or the JavaScript scan even where ripgrep works', async () => {
    const choice = autoGrepBackends();
    const target = { searchPath: ws.root, env: process.env, signal: new AbortController().signal };
    expect((await choice.pick(target)).name).toBe('ripgrep');
    expect((await choice.pick({ ...target, useRipgrep: false })).name).not.toBe('ripgrep');
  });
});
