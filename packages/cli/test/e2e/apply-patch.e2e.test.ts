import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKodo } from '@kodo/testkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

/**
 * The built kodo runs a model's apply_patch call (recorded as Gemini-shaped JSONL: the call is
 * `functionCall {name: 'apply_patch', args: {input}}`, what a Responses API custom tool call
 * becomes in kodo's message model): the files change, or, for a stale patch, none does.
 */
const fixture = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', name);
const dirs = e2eDirs();
const APP = "export function greet() {\n  return 'hi';\n}\n";

beforeEach(() => {
  mkdirSync(join(dirs.workspace, 'src'));
  writeFileSync(join(dirs.workspace, 'src/app.ts'), APP);
  writeFileSync(join(dirs.workspace, 'old.txt'), 'old\n');
});

const run = (name: string, mode: string) =>
  runKodo(['-p', 'edit', '--approval-mode', mode, '-o', 'stream-json', '--fake-responses', fixture(name)], {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home },
  });

const toolResult = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .find((event) => event.type === 'tool_result');

describe('apply_patch in the built kodo', () => {
  it('applies a patch of several files in auto_edit mode', async () => {
    const result = await run('apply-patch.jsonl', 'auto_edit');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dirs.workspace, 'src/app.ts'), 'utf8')).toBe(
      "export function greet() {\n  return 'hello';\n}\n",
    );
    expect(readFileSync(join(dirs.workspace, 'src/util.ts'), 'utf8')).toBe('export const one = 1;\n');
    expect(existsSync(join(dirs.workspace, 'old.txt'))).toBe(false);
    const done = toolResult(result.stdout);
    expect(done).toMatchObject({ status: 'success' });
    // What the person sees: each file's diff.
    for (const file of ['src/app.ts', 'src/util.ts', 'old.txt'])
      expect(done.output).toContain(`+++ ${file}\t`);
  });

  it('is refused headless in default mode, and nothing changes', async () => {
    const result = await run('apply-patch.jsonl', 'default');
    expect(toolResult(result.stdout)).toMatchObject({ status: 'error' });
    expect(readFileSync(join(dirs.workspace, 'src/app.ts'), 'utf8')).toBe(APP);
    expect(existsSync(join(dirs.workspace, 'old.txt'))).toBe(true);
  });

  it('reports a stale patch naming the hunk, and changes no file', async () => {
    const result = await run('apply-patch-stale.jsonl', 'auto_edit');
    expect(result.code).toBe(0);
    expect(toolResult(result.stdout)).toMatchObject({
      status: 'error',
      error: {
        type: 'edit_no_occurrence_found',
        message: expect.stringMatching(
          /^Patch not applied \(no file was changed\): hunk 1 of "\*\*\* Update File: src\/app\.ts" \(patch line 3\)/,
        ),
      },
    });
    expect(readFileSync(join(dirs.workspace, 'src/app.ts'), 'utf8')).toBe(APP);
    expect(existsSync(join(dirs.workspace, 'src/util.ts'))).toBe(false);
  });
});
