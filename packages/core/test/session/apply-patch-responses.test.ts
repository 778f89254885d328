/**
 * apply_patch round trips on the OpenAI Responses mock, through the whole session: the model's
 * `custom_tool_call` carries a patch, kodo's edit pipeline changes the file, and the next request
 * sends the call back with its `custom_tool_call_output` (and the reasoning item, encrypted, before
 * it). A malformed patch comes back as a tool error naming the hunk, and the file is untouched.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { responsesReply, responsesTextReply, startOpenAIResponsesMock } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderResolver } from '../../src/llm/providers/registry';
import { ProviderRouter } from '../../src/llm/providers/router';
import { Session } from '../../src/session/session';
import { applyPatchTool } from '../../src/tools/builtin/apply-patch';
import { readFileTool } from '../../src/tools/builtin/read-file';
import { ToolRegistry } from '../../src/tools/registry';
import { Workspace } from '../../src/tools/workspace';
import { collect, tempContext } from '../helpers';

type Json = Record<string, unknown>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

async function setup(firstReply: Json[]) {
  const mock = await startOpenAIResponsesMock({
    script: [{ chunks: firstReply }, { chunks: responsesTextReply('Done.') }],
  });
  cleanups.push(() => mock.close());
  const { ctx, root, cleanup } = tempContext();
  cleanups.push(cleanup);
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const env = { OPENAI_API_KEY: 'k' };
  const resolver = new ProviderResolver({
    env,
    profiles: { openai: { baseUrl: mock.url, wireApi: 'responses' } },
  });
  const session = new Session({
    generator: new ProviderRouter({ resolver, env, defaultModel: 'openai:gpt-5' }),
    model: 'openai:gpt-5',
    tools: new ToolRegistry([readFileTool, applyPatchTool]),
    toolContext: { ...ctx, workspace: new Workspace({ roots: [ws] }) },
    approvalMode: 'auto_edit',
    includeEnvironmentContext: false,
    retry: { streamInitialDelayMs: 0, initialDelayMs: 0 },
  });
  const file = join(ws, 'app.ts');
  writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
  await collect(session.sendMessage('edit app.ts', new AbortController().signal));
  return { mock, session, file };
}

describe('apply_patch on the Responses API', () => {
  it('custom_tool_call with a patch → the file changes → custom_tool_call_output goes back', async () => {
    const input = patch('*** Update File: app.ts', '@@', ' const a = 1;', '-const b = 2;', '+const b = 3;');
    const t = await setup(
      responsesReply({
        reasoning: { summary: ['**Editing**'], encrypted: 'ENC-PATCH' },
        customCalls: [{ name: 'apply_patch', input, id: 'call_patch' }],
      }),
    );
    expect(readFileSync(t.file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(t.mock.requests).toHaveLength(2);
    const first = t.mock.requests[0]!.body as Json;
    expect((first.tools as Json[]).find((tool) => tool.name === 'apply_patch')).toMatchObject({
      type: 'custom',
      format: { type: 'grammar', syntax: 'lark' },
    });
    expect(first.prompt_cache_key).toBe(t.session.id);
    const input2 = (t.mock.requests[1]!.body as Json).input as Json[];
    expect(input2.slice(1, 3)).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: '**Editing**' }],
        encrypted_content: 'ENC-PATCH',
      },
      { type: 'custom_tool_call', call_id: 'call_patch', name: 'apply_patch', input },
    ]);
    const output = input2[3]!;
    expect(output).toMatchObject({ type: 'custom_tool_call_output', call_id: 'call_patch' });
    expect(output.output).toMatch(/M app\.ts/);
  });

  it('a malformed patch: a tool error naming the hunk, the file untouched', async () => {
    const input = patch('*** Update File: app.ts', '@@', ' const a = 1;', 'const b = 2;');
    const t = await setup(responsesReply({ customCalls: [{ name: 'apply_patch', input, id: 'call_bad' }] }));
    expect(readFileSync(t.file, 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
    const output = ((t.mock.requests[1]!.body as Json).input as Json[]).find(
      (item) => item.type === 'custom_tool_call_output',
    )!;
    expect(output.call_id).toBe('call_bad');
    expect(output.output).toMatch(
      /Invalid patch at line 5 \(hunk 1 of \\"\*\*\* Update File: app\.ts\\"\): expected a hunk line/,
    );
  });
});
