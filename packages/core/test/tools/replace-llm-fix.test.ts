import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReplaceTool } from '../../src/tools/builtin/replace';
import { requestEditFix } from '../../src/tools/edit/llm-fixer';
import type { Tool, ToolContext } from '../../src/tools/tool';
import { type FakeModel, fakeModel, hangingAnswer, promptOf } from './edit/fake-model';
import { runTool, text } from './helpers';

let ws: TempWorkspace;
let tool: Tool;
beforeEach(() => {
  ws = createTempWorkspace();
  tool = createReplaceTool({ fixTimeoutMs: 200 });
});
afterEach(() => ws.cleanup());

const CONTENT = 'const retries = 3;\nconst timeoutMs = 5000;\n';
const fixed = (answer: Record<string, unknown>) =>
  fakeModel(() => `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``);
const context = (model: FakeModel, llmEditCorrection = true): ToolContext => ({
  ...ws.ctx,
  model,
  llmEditCorrection,
});
const STALE = {
  file_path: 'c.ts',
  instruction: 'raise the timeout',
  old_string: 'const timeout = 3000;',
  new_string: 'const timeout = 9000;',
};
const NOT_FOUND =
  "Failed to edit, 0 occurrences found for old_string in c.ts. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.";

describe('replace: LLM fixer', () => {
  it('is off by default, even with a model at hand', async () => {
    ws.write('c.ts', CONTENT);
    const model = fixed({ search: 'const timeoutMs = 5000;', replace: 'const timeoutMs = 9000;' });
    const result = await runTool(tool, STALE, context(model, false));
    expect(result.error).toEqual({ type: 'edit_no_occurrence_found', message: NOT_FOUND });
    expect(model.calls).toHaveLength(0);
  });

  it('asks once when nothing matches, and applies a proposal that matches one place', async () => {
    ws.write('c.ts', CONTENT);
    const model = fixed({
      search: 'const timeoutMs = 5000;',
      replace: 'const timeoutMs = 9000;',
      noChangesRequired: false,
      explanation: 'the constant is timeoutMs',
    });
    const result = await runTool(tool, STALE, context(model));
    expect(result.error).toBeUndefined();
    expect(text(result)).toContain('(1 replacements)');
    expect(ws.read('c.ts')).toBe('const retries = 3;\nconst timeoutMs = 9000;\n');
    expect(model.calls).toHaveLength(1);
    const prompt = promptOf(model);
    for (const part of [
      'raise the timeout',
      'const timeout = 3000;',
      'const timeout = 9000;',
      CONTENT.trim(),
      NOT_FOUND,
    ])
      expect(prompt).toContain(part);
    expect(model.calls[0]!.request.systemInstruction).toContain('"noChangesRequired": boolean');
  });

  it('reports the judgement when the model finds the change already made', async () => {
    ws.write('c.ts', CONTENT);
    const model = fixed({
      search: '',
      replace: '',
      noChangesRequired: true,
      explanation: 'timeoutMs is already 9000',
    });
    const result = await runTool(tool, STALE, context(model));
    expect(result.error?.type).toBe('edit_no_change_llm_judgement');
    expect(result.error?.message).toBe(
      `A secondary check by an LLM determined that no changes were necessary to fulfill the instruction. Explanation: timeoutMs is already 9000. Original error with the parameters given: ${NOT_FOUND}`,
    );
    expect(ws.read('c.ts')).toBe(CONTENT);
  });

  it('keeps the original error when the proposal matches nothing, several places, or is not JSON', async () => {
    ws.write('c.ts', 'const a = 1;\nconst a = 1;\n');
    for (const model of [
      fixed({ search: 'const b = 2;', replace: 'const b = 3;' }),
      fixed({ search: 'const a = 1;', replace: 'const a = 2;' }),
      fakeModel(() => 'I could not find it, sorry.'),
      fakeModel(() => {
        throw new Error('quota exceeded');
      }),
    ]) {
      const result = await runTool(tool, STALE, context(model));
      expect(result.error).toEqual({ type: 'edit_no_occurrence_found', message: NOT_FOUND });
      expect(model.calls).toHaveLength(1);
    }
    expect(ws.read('c.ts')).toBe('const a = 1;\nconst a = 1;\n');
  });

  it('is not asked when the strategies found the text, found it several times, or the file is JSON', async () => {
    const model = fixed({ search: 'x', replace: 'y' });
    ws.write('c.ts', CONTENT);
    await runTool(
      tool,
      { ...STALE, old_string: 'const retries = 3;', new_string: 'const retries = 4;' },
      context(model),
    );
    ws.write('d.ts', 'a;\na;\n');
    const many = await runTool(
      tool,
      { ...STALE, file_path: 'd.ts', old_string: 'a;', new_string: 'b;' },
      context(model),
    );
    expect(many.error?.type).toBe('edit_expected_occurrence_mismatch');
    ws.write('e.json', '{"a": 1}\n');
    const json = await runTool(tool, { ...STALE, file_path: 'e.json' }, context(model));
    expect(json.error?.type).toBe('edit_no_occurrence_found');
    expect(model.calls).toHaveLength(0);
  });

  it('asks once for confirmation and execution, and applies what was approved', async () => {
    ws.write('c.ts', CONTENT);
    let answers = 0;
    // A model that would answer differently the second time: the approved diff must still land.
    const model = fakeModel(() => {
      answers += 1;
      const value = answers === 1 ? 9000 : 1;
      return JSON.stringify({ search: 'const timeoutMs = 5000;', replace: `const timeoutMs = ${value};` });
    });
    const ctx = context(model);
    const built = tool.build(STALE, ctx);
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    if (details.kind !== 'edit') throw new Error('expected an edit confirmation');
    expect(details.diff).toContain('+const timeoutMs = 9000;');
    await built.invocation.execute({ signal: new AbortController().signal });
    expect(ws.read('c.ts')).toBe(details.newContent);
    expect(model.calls).toHaveLength(1);
  });

  it('gives up after its timeout and when the call is aborted', async () => {
    ws.write('c.ts', CONTENT);
    const model = fakeModel(hangingAnswer);
    const started = Date.now();
    const result = await runTool(tool, STALE, context(model));
    expect(result.error?.type).toBe('edit_no_occurrence_found');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(model.calls[0]!.signal.aborted).toBe(true);

    const controller = new AbortController();
    const slow = createReplaceTool({ fixTimeoutMs: 60_000 });
    const pending = runTool(slow, STALE, context(fakeModel(hangingAnswer)), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await pending).error?.type).toBe('edit_no_occurrence_found');
  });
});

describe('requestEditFix', () => {
  const input = {
    filePath: '/w/c.ts',
    instruction: 'i',
    oldString: 'a\r\nb',
    newString: 'c',
    error: 'e',
    content: 'x',
  };

  it('parses the answer, normalising line endings, and rejects unusable proposals', async () => {
    const signal = new AbortController().signal;
    const ok = fakeModel(() => 'Here: {"search": "x\\r\\ny", "replace": "z", "explanation": " because "}');
    expect(await requestEditFix(ok, input, { signal })).toEqual({
      kind: 'corrected',
      search: 'x\ny',
      replace: 'z',
      explanation: 'because',
    });
    for (const answer of [
      '{"search": "", "replace": "z"}',
      '{"search": "q", "replace": "q"}',
      '[1]',
      '{"search": 1}',
    ]) {
      expect(
        await requestEditFix(
          fakeModel(() => answer),
          input,
          { signal },
        ),
      ).toBeUndefined();
    }
  });

  it('does not send files that are too large', async () => {
    const model = fakeModel(() => '{}');
    const big = { ...input, content: 'x'.repeat(200_001) };
    expect(await requestEditFix(model, big, { signal: new AbortController().signal })).toBeUndefined();
    expect(model.calls).toHaveLength(0);
  });
});
