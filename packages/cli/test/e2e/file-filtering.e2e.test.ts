// context.fileFiltering from the settings reaches the file tools (through the session factory).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKodo } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let workspace: string;
let home: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'kodo-e2e-'));
  home = mkdtempSync(join(tmpdir(), 'kodo-home-'));
  writeFileSync(join(workspace, '.geminiignore'), 'private.md\n');
  writeFileSync(join(workspace, 'private.md'), 'the private notes\n');
});
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The model reads private.md, then answers; the stream-json tool_result says how it went. */
async function readPrivate(): Promise<Record<string, unknown>> {
  const turn = (parts: unknown[]) =>
    JSON.stringify({
      method: 'generateContentStream',
      response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
    });
  const fake = join(home, 'fake.jsonl');
  writeFileSync(
    fake,
    `${turn([{ functionCall: { name: 'read_file', args: { file_path: 'private.md' } } }])}\n${turn([{ text: 'ok' }])}\n`,
  );
  const run = await runKodo(['-p', 'read it', '-o', 'stream-json', '--fake-responses', fake], {
    cwd: workspace,
    env: { KODO_HOME: home },
  });
  expect(run.code, run.stderr).toBe(0);
  const events = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return events.find((event) => event.type === 'tool_result')!;
}

describe('context.fileFiltering', () => {
  it('respectGeminiIgnore: false lets read_file read a .geminiignore-d file', async () => {
    expect((await readPrivate()).status).toBe('error');
    mkdirSync(join(workspace, '.kodo'));
    writeFileSync(
      join(workspace, '.kodo', 'settings.json'),
      JSON.stringify({ context: { fileFiltering: { respectGeminiIgnore: false } } }),
    );
    expect((await readPrivate()).status).toBe('success');
  });
});
