import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { FakeContentGenerator } from '../../src/llm/fake';
import { toAnthropicRequestBody } from '../../src/llm/providers/anthropic-convert';
import { toGeminiRequestBody } from '../../src/llm/providers/gemini';
import { toOpenAIRequestBody } from '../../src/llm/providers/openai-convert';
import { toResponsesRequestBody } from '../../src/llm/providers/openai-responses-convert';
import { CheckpointStore } from '../../src/safety/checkpoints';
import { Session } from '../../src/session/session';
import { applyPatchTool } from '../../src/tools/builtin/apply-patch';
import { lazyBuiltinTools } from '../../src/tools/builtin/declared';
import { readFileTool } from '../../src/tools/builtin/read-file';
import { ToolRegistry } from '../../src/tools/registry';
import { Workspace } from '../../src/tools/workspace';
import { calls, collect, stream, tempContext, text } from '../helpers';

/**
 * apply_patch through the whole loop: a model's `functionCall {name: 'apply_patch', args:
 * {input}}` (what the Responses API's custom tool call becomes in kodo's message model) runs
 * through the scheduler, the files change, and the model reads what changed; a malformed patch
 * comes back as an error naming the hunk; a checkpoint is taken before the change. The session
 * declares it as a freeform tool; only the Responses API's wire carries it (apply-patch-responses
 * test: the round trip on that mock).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

class CapturingGenerator extends FakeContentGenerator {
  readonly requests: GenerateRequest[] = [];
  override generateContentStream(request: GenerateRequest, signal: AbortSignal) {
    this.requests.push(structuredClone(request));
    return super.generateContentStream(request, signal);
  }
}

function setup(script: GenerateResponse[][], options: { checkpoints?: boolean; tools?: ToolRegistry } = {}) {
  const { ctx, root, cleanup } = tempContext();
  cleanups.push(cleanup);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const generator = new CapturingGenerator(
    script.map((chunks) => stream(...chunks)),
    { strict: true },
  );
  const session = new Session({
    generator,
    model: 'test-model',
    tools: options.tools ?? new ToolRegistry([readFileTool, applyPatchTool]),
    toolContext: { ...ctx, workspace: new Workspace({ roots: [ws] }) },
    approvalMode: 'auto_edit',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
    ...(options.checkpoints
      ? {
          checkpointing: {
            store: new CheckpointStore({ workspaceRoot: ws, historyDir: join(root, 'history') }),
            shell: false,
            promptSnapshots: false,
          },
        }
      : {}),
  });
  const file = (rel: string) => join(ws, rel);
  const prompt = (value: string) => collect(session.sendMessage(value, new AbortController().signal));
  /** What the model read back for the call of the first round trip. */
  const response = () => session.history()[2]!.parts[0]!.functionResponse!;
  return { session, generator, file, prompt, response };
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const applyPatch = (input: string) => calls({ name: 'apply_patch', args: { input }, id: 'call_1' });

describe('apply_patch in a session', () => {
  it('round trips: the call runs, the files change, the model reads what changed', async () => {
    const t = setup([
      [
        applyPatch(
          patch(
            '*** Update File: src/app.ts',
            '@@',
            ' const a = 1;',
            '-const b = 2;',
            '+const b = 3;',
            '*** Add File: src/new.ts',
            '+export {};',
          ),
        ),
      ],
      [text('Done.')],
    ]);
    mkdirSync(t.file('src'));
    writeFileSync(t.file('src/app.ts'), 'const a = 1;\nconst b = 2;\n');
    const { result } = await t.prompt('change b');
    expect(result.kind).toBe('completed');
    expect(readFileSync(t.file('src/app.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(readFileSync(t.file('src/new.ts'), 'utf8')).toBe('export {};\n');
    expect(t.response()).toEqual({
      id: 'call_1',
      name: 'apply_patch',
      response: {
        output: 'Success. Updated the following files:\nM src/app.ts (+1 -1)\nA src/new.ts (+1 -0)',
      },
    });
  });

  it('a malformed patch comes back as an error naming the hunk, and the files are untouched', async () => {
    const t = setup([
      [applyPatch(patch('*** Update File: a.txt', '-one', '+ONE', '@@ two', 'three'))],
      [text('I will fix the patch.')],
    ]);
    writeFileSync(t.file('a.txt'), 'one\ntwo\nthree\n');
    await t.prompt('edit');
    expect(t.response().response.error).toBe(
      'Invalid patch at line 5 (hunk 2 of "*** Update File: a.txt"): the hunk has "@@" lines but no lines of its own (each starting with " ", "-" or "+"). Line 6 is "three".',
    );
    expect(readFileSync(t.file('a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('a hunk that does not fit comes back naming it, and no file of the patch changes', async () => {
    const t = setup([
      [
        applyPatch(
          patch(
            '*** Add File: b.txt',
            '+b',
            '*** Update File: a.txt',
            '-one',
            '+ONE',
            '@@',
            '-four',
            '+FOUR',
          ),
        ),
      ],
      [text('I will read the file again.')],
    ]);
    writeFileSync(t.file('a.txt'), 'one\ntwo\nthree\n');
    await t.prompt('edit');
    expect(t.response().response.error).toMatch(
      /^Patch not applied \(no file was changed\): hunk 2 of "\*\*\* Update File: a\.txt" \(patch line 7\): its context and "-" lines were not found/,
    );
    expect(readFileSync(t.file('a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(existsSync(t.file('b.txt'))).toBe(false);
  });

  it('takes a checkpoint before the change, which restores every file of the patch', async () => {
    const t = setup(
      [
        [
          applyPatch(
            patch(
              '*** Update File: a.txt',
              '-one',
              '+ONE',
              '*** Delete File: gone.txt',
              '*** Add File: c.txt',
              '+c',
            ),
          ),
        ],
        [text('Done.')],
      ],
      { checkpoints: true },
    );
    writeFileSync(t.file('a.txt'), 'one\n');
    writeFileSync(t.file('gone.txt'), 'bye\n');
    await t.prompt('edit');
    const [checkpoint] = t.session.listCheckpoints();
    expect(checkpoint?.toolCall).toMatchObject({ name: 'apply_patch', callId: 'call_1' });
    await t.session.restoreCheckpoint(checkpoint!.id, { files: true, conversation: false });
    expect(readFileSync(t.file('a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(t.file('gone.txt'), 'utf8')).toBe('bye\n');
    expect(existsSync(t.file('c.txt'))).toBe(false);
  });

  it('is declared as a freeform tool; only the Responses wire carries it, the others keep replace', async () => {
    const tools = new ToolRegistry(lazyBuiltinTools());
    const t = setup([[text('hi')]], { tools });
    await t.prompt('hello');
    const request = t.generator.requests[0]!;
    const declared = (request.tools ?? []).map((declaration) => declaration.name);
    expect(declared).toEqual(expect.arrayContaining(['replace', 'write_file', 'apply_patch']));
    const names = (list: unknown) => JSON.stringify(list);
    const gemini = toGeminiRequestBody(request);
    const anthropic = toAnthropicRequestBody(request, { stream: true });
    const chat = toOpenAIRequestBody(request, { stream: true, maxTokensField: 'max_tokens', topK: true });
    for (const body of [gemini, anthropic, chat]) {
      expect(names(body.tools)).toContain('"replace"');
      expect(names(body.tools)).not.toContain('apply_patch');
    }
    const responses = toResponsesRequestBody(request, { stream: true });
    const patchTool = (responses.tools as Record<string, unknown>[]).find(
      (tool) => tool.name === 'apply_patch',
    );
    expect(patchTool).toMatchObject({ type: 'custom', format: { type: 'grammar', syntax: 'lark' } });
  });
});
