import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemoryEntry, cleanFact, saveMemoryTool } from '../../src/tools/builtin/save-memory';
import type { ToolContext } from '../../src/tools/tool';
import { buildError, runTool, text } from './helpers';

let ws: TempWorkspace;
let home: string;
let memoryFile: string;
let ctx: ToolContext;
beforeEach(() => {
  ws = createTempWorkspace();
  home = mkdtempSync(join(tmpdir(), 'kodo-home-'));
  memoryFile = join(home, '.kodo', 'KODO.md');
  mkdirSync(join(home, '.kodo'));
  ctx = { ...ws.ctx, memoryFilePath: memoryFile };
});
afterEach(() => {
  ws.cleanup();
  rmSync(home, { recursive: true, force: true });
});

const save = (fact: string, context = ctx) => runTool(saveMemoryTool, { fact }, context);
const memory = () => readFileSync(memoryFile, 'utf8');

describe('save_memory', () => {
  it('creates the file and the section, and confirms in the Gemini CLI JSON', async () => {
    const result = await save('The user prefers tabs.');
    expect(memory()).toBe('## kodo Added Memories\n- The user prefers tabs.\n');
    expect(result.error).toBeUndefined();
    expect(JSON.parse(text(result))).toEqual({
      success: true,
      message: 'Okay, I\'ve remembered that: "The user prefers tabs."',
    });
    expect(text(result)).toBe(
      '{"success":true,"message":"Okay, I\'ve remembered that: \\"The user prefers tabs.\\""}',
    );
  });

  it('appends inside an existing section, before the next heading', async () => {
    writeFileSync(memoryFile, '# My rules\n\n## kodo Added Memories\n- first\n\n## Other\nkeep me\n');
    await save('second');
    expect(memory()).toBe('# My rules\n\n## kodo Added Memories\n- first\n- second\n\n## Other\nkeep me\n');
  });

  it('adds the section after a blank line when the file has none', async () => {
    writeFileSync(memoryFile, '# Notes\nSome text');
    await save('fact one');
    expect(memory()).toBe('# Notes\nSome text\n\n## kodo Added Memories\n- fact one\n');
    await save('fact two');
    expect(memory()).toBe('# Notes\nSome text\n\n## kodo Added Memories\n- fact one\n- fact two\n');
  });

  // Issue N: saving a memory turned the last entry's CRLF into LF (and every ending of a
  // CRLF-only file into LF after it).
  it('keeps every byte around the new entry in a file that mixes line endings', async () => {
    const before =
      'intro\r\nnotes\n\r\n## kodo Added Memories\r\n- old fact\r\n- lf fact\n\r\n## Other\r\nx\n';
    writeFileSync(memoryFile, before);
    expect((await save('new fact')).error).toBeUndefined();
    expect(memory()).toBe(before.replace('- lf fact\n', '- lf fact\n- new fact\r\n'));
    writeFileSync(memoryFile, 'a\r\n\r\n## kodo Added Memories\r\n- one\r\n');
    await save('two');
    expect(memory()).toBe('a\r\n\r\n## kodo Added Memories\r\n- one\r\n- two\r\n');
  });

  it('cleans the fact: one line, no leading bullets, no angle brackets', async () => {
    expect(cleanFact('  - - multi\nline\r\nfact <script>  ')).toBe('multi line fact  script');
    const result = await save('-- likes <b>bold</b>\nthings');
    expect(memory()).toBe('## kodo Added Memories\n- likes  b bold /b  things\n');
    expect(result.returnDisplay).toBe('Okay, I\'ve remembered that: "likes  b bold /b  things"');
  });

  it('section edge cases: header at the end of the file, empty section', () => {
    expect(addMemoryEntry('## kodo Added Memories', 'x')).toBe('## kodo Added Memories\n- x\n');
    expect(addMemoryEntry('## kodo Added Memories\n\n\n## Next\n', 'x')).toBe(
      '## kodo Added Memories\n- x\n\n## Next\n',
    );
    expect(addMemoryEntry('a\n', 'x')).toBe('a\n\n## kodo Added Memories\n- x\n');
    expect(addMemoryEntry('a\n\n', 'x')).toBe('a\n\n## kodo Added Memories\n- x\n');
  });

  it('rejects an empty fact', () => {
    for (const fact of ['', '   ', '- ', '\n']) {
      expect(buildError(saveMemoryTool, { fact }, ctx)).toEqual({
        type: 'invalid_tool_params',
        message: 'Parameter "fact" must be a non-empty string.',
      });
    }
  });

  it('asks for confirmation with a diff of the memory file', async () => {
    writeFileSync(memoryFile, '## kodo Added Memories\n- old\n');
    const built = saveMemoryTool.build({ fact: 'new' }, ctx);
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    expect(details.kind).toBe('edit');
    if (details.kind !== 'edit') return;
    expect(details.filePath).toBe(memoryFile);
    expect(details.diff).toContain('\n ## kodo Added Memories\n - old\n+- new\n');
    expect(details.newContent).toBe('## kodo Added Memories\n- old\n- new\n');
    expect(built.invocation.locations()).toEqual([memoryFile]);
  });

  it('reports failures as memory_tool_execution_error JSON', async () => {
    const noPath = await save('x', { ...ws.ctx });
    expect(noPath.error?.type).toBe('memory_tool_execution_error');
    // A directory where the file should be: the write fails.
    const result = await save('x', { ...ctx, memoryFilePath: home });
    expect(result.error?.type).toBe('memory_tool_execution_error');
    expect(JSON.parse(text(result))).toEqual({ success: false, error: result.error?.message });
    expect(result.error?.message).toMatch(/^Failed to save memory\. Detail: /);
  });
});
