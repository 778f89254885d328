/**
 * What each family's request carries (issue P), read back from the mocks' request logs: Gemini
 * CLI's generationConfig (thinking per generation, thoughts included, sampling; utility calls
 * deterministic), Claude Code's thinking with the interleaved-thinking beta and the catalogue's
 * output limit, Codex's Responses API request (reasoning effort, store:false, encrypted reasoning
 * sent back, prompt_cache_key), Chat Completions for every other OpenAI-type server, and one
 * effort setting turning each family's knob.
 */
import {
  anthropicTextReply,
  anthropicToolUseReply,
  geminiChunk,
  geminiTextReply,
  openaiTextReply,
  responsesReply,
  responsesTextReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
  startOpenAIResponsesMock,
} from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { Content, GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import type { Effort } from '../../src/llm/effort';
import type { ProviderProfileSettings } from '../../src/llm/providers/registry';
import { ProviderResolver } from '../../src/llm/providers/registry';
import { ProviderRouter } from '../../src/llm/providers/router';

type Json = Record<string, unknown>;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const TOOL = {
  name: 'read_file',
  description: 'Reads a file',
  parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
};

function request(model: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { model, contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...extra };
}

async function drain(router: ProviderRouter, req: GenerateRequest): Promise<GenerateResponse[]> {
  const chunks: GenerateResponse[] = [];
  for await (const chunk of router.generateContentStream(req, new AbortController().signal))
    chunks.push(chunk);
  return chunks;
}

function routerFor(
  env: NodeJS.ProcessEnv,
  model: string,
  options: {
    profiles?: Record<string, ProviderProfileSettings>;
    effort?: Effort;
    effortOverride?: Effort;
    warnings?: string[];
  } = {},
): ProviderRouter {
  const resolver = new ProviderResolver({
    env,
    profiles: options.profiles,
    effort: options.effort,
    effortOverride: options.effortOverride,
  });
  return new ProviderRouter({
    resolver,
    env,
    defaultModel: model,
    onWarning: (message) => options.warnings?.push(message),
  });
}

async function geminiMock(replies: number) {
  const mock = await startGeminiMock({
    script: Array.from({ length: replies }, () => ({ chunks: geminiTextReply('ok') })),
  });
  closers.push(() => mock.close());
  return { mock, env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url } };
}

describe('Gemini: generationConfig as Gemini CLI sends it', () => {
  it('2.5 models: budget 8192 with thoughts and its sampling; 3.x: level HIGH, no budget', async () => {
    const { mock, env } = await geminiMock(2);
    await drain(routerFor(env, 'gemini-2.5-pro'), request('gemini-2.5-pro'));
    await drain(routerFor(env, 'gemini-3.1-pro-preview'), request('gemini-3.1-pro-preview'));
    const [v25, v3] = mock.requests.map((r) => (r.body as Json).generationConfig);
    expect(v25).toEqual({
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    });
    expect(v3).toEqual({
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
    });
  });

  it('utility calls: temperature 0, topP 1, no thinking where the model allows', async () => {
    const { mock, env } = await geminiMock(1);
    const router = routerFor(env, 'gemini-2.5-flash', { effort: 'max' });
    await drain(router, request('gemini-2.5-flash', { config: { utility: true } }));
    expect((mock.requests[0]!.body as Json).generationConfig).toEqual({
      temperature: 0,
      topP: 1,
      thinkingConfig: { thinkingBudget: 0 },
    });
  });

  it('each effort turns the budget (2.5) or the level (3); a setting of the request wins', async () => {
    const { mock, env } = await geminiMock(6);
    const efforts: Effort[] = ['off', 'low', 'high', 'max'];
    for (const effort of efforts)
      await drain(routerFor(env, 'gemini-2.5-flash', { effort }), request('gemini-2.5-flash'));
    await drain(
      routerFor(env, 'gemini-3-flash-preview', { effort: 'low' }),
      request('gemini-3-flash-preview'),
    );
    await drain(
      routerFor(env, 'gemini-2.5-flash', { effort: 'low' }),
      request('gemini-2.5-flash', { config: { effort: 'high', temperature: 0.2 } }),
    );
    const configs = mock.requests.map((r) => (r.body as Json).generationConfig as Json);
    expect(configs.slice(0, 4).map((c) => c.thinkingConfig)).toEqual([
      { thinkingBudget: 0 },
      { includeThoughts: true, thinkingBudget: 1024 },
      { includeThoughts: true, thinkingBudget: 16384 },
      { includeThoughts: true, thinkingBudget: 24576 },
    ]);
    expect(configs[4]!.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'LOW' });
    expect(configs[5]).toMatchObject({ temperature: 0.2, thinkingConfig: { thinkingBudget: 16384 } });
  });

  it('off on a model that cannot stop thinking: the smallest setting, said once', async () => {
    const { mock, env } = await geminiMock(3);
    const warnings: string[] = [];
    const router = routerFor(env, 'gemini-2.5-pro', { effortOverride: 'off', warnings });
    await drain(router, request('gemini-2.5-pro'));
    await drain(router, request('gemini-2.5-pro'));
    expect((mock.requests[0]!.body as Json).generationConfig).toMatchObject({
      thinkingConfig: { thinkingBudget: 128 },
    });
    expect(warnings).toEqual([
      'gemini-2.5-pro cannot turn thinking off; it thinks with the smallest budget (128 tokens).',
    ]);
    const v3: string[] = [];
    await drain(
      routerFor(env, 'gemini-3.1-pro-preview', { effort: 'off', warnings: v3 }),
      request('gemini-3.1-pro-preview'),
    );
    expect(v3[0]).toMatch(/cannot turn thinking off; it thinks at level LOW/);
  });

  it('thoughtSignature goes back unchanged; other providers’ signatures never reach Gemini', async () => {
    const mock = await startGeminiMock({
      script: [
        {
          chunks: [
            geminiChunk([
              { text: '**Plan**\nread it', thought: true },
              { functionCall: { name: 'read_file', args: { file_path: 'a' } }, thoughtSignature: 'c2lnLTE=' },
            ]),
          ],
        },
        { chunks: geminiTextReply('done') },
      ],
    });
    closers.push(() => mock.close());
    const router = routerFor(
      { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url },
      'gemini-3.1-pro-preview',
    );
    const first = await drain(router, request('gemini-3.1-pro-preview', { tools: [TOOL] }));
    const parts = first.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'hi' }] },
      {
        role: 'model',
        parts: [...parts, { text: '', thought: true, thoughtSignature: 'openai-reasoning:enc' }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'x' } } }] },
    ];
    await drain(router, { model: 'gemini-3.1-pro-preview', contents: history, tools: [TOOL] });
    const sent = (mock.requests[1]!.body as { contents: Content[] }).contents[1]!.parts;
    expect(sent.find((part) => part.functionCall)?.thoughtSignature).toBe('c2lnLTE=');
    expect(JSON.stringify(sent)).not.toContain('openai-reasoning');
  });
});

describe('Anthropic: thinking as Claude Code turns it on', () => {
  async function anthropic(script: Json[][]) {
    const mock = await startAnthropicMock({ script: script.map((chunks) => ({ chunks })) });
    closers.push(() => mock.close());
    return { mock, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: mock.url } };
  }

  it('a reasoning model: thinking budget 31999, max_tokens from the catalogue, interleaved beta with tools', async () => {
    const { mock, env } = await anthropic([anthropicTextReply('a'), anthropicTextReply('b')]);
    const router = routerFor(env, 'claude-sonnet-4-5');
    await drain(router, request('claude-sonnet-4-5', { tools: [TOOL] }));
    await drain(router, request('claude-sonnet-4-5'));
    const [withTools, plain] = mock.requests;
    expect(withTools!.body).toMatchObject({
      max_tokens: 64000,
      thinking: { type: 'enabled', budget_tokens: 31999 },
    });
    expect(withTools!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    // Cache breakpoints are kept: system, last tool, newest user block.
    expect(JSON.stringify(withTools!.body)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(plain!.headers['anthropic-beta']).toBeUndefined();
    expect(plain!.body).toMatchObject({ thinking: { type: 'enabled' } });
  });

  it('--effort off: no thinking and sampling allowed again; low and max set the budget', async () => {
    const { mock, env } = await anthropic([
      anthropicTextReply('a'),
      anthropicTextReply('b'),
      anthropicTextReply('c'),
    ]);
    await drain(
      routerFor(env, 'claude-sonnet-4-5', { effortOverride: 'off' }),
      request('claude-sonnet-4-5', { tools: [TOOL] }),
    );
    await drain(routerFor(env, 'claude-sonnet-4-5', { effort: 'low' }), request('claude-sonnet-4-5'));
    await drain(routerFor(env, 'claude-sonnet-4-5', { effort: 'max' }), request('claude-sonnet-4-5'));
    const [off, low, max] = mock.requests;
    expect(off!.body).not.toHaveProperty('thinking');
    expect(off!.headers['anthropic-beta']).toBeUndefined();
    expect((low!.body as Json).thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect((max!.body as Json).thinking).toEqual({ type: 'enabled', budget_tokens: 63999 });
  });

  it('signed thinking blocks go back with their signatures before the tool use', async () => {
    const { mock, env } = await anthropic([
      anthropicToolUseReply([{ name: 'read_file', args: { file_path: 'a' }, id: 'toolu_1' }], {
        thinking: { text: 'Let me read it.', signature: 'sig-abc' },
      }),
      anthropicTextReply('done'),
    ]);
    const router = routerFor(env, 'claude-sonnet-4-5');
    const first = await drain(router, request('claude-sonnet-4-5', { tools: [TOOL] }));
    const parts = first.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    await drain(router, {
      model: 'claude-sonnet-4-5',
      tools: [TOOL],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'toolu_1', name: 'read_file', response: { output: 'x' } } }],
        },
      ],
    });
    const assistant = ((mock.requests[1]!.body as Json).messages as Json[])[1]!;
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Let me read it.', signature: 'sig-abc' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { file_path: 'a' } },
    ]);
  });

  it('a model that rejects the thinking setting: one line naming the setting to change', async () => {
    const mock = await startAnthropicMock({
      script: [
        {
          fault: 'status',
          status: 400,
          message: 'thinking.budget_tokens: Input should be greater than or equal to 1024',
        },
      ],
    });
    closers.push(() => mock.close());
    const router = routerFor({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: mock.url }, 'claude-sonnet-4-5', {
      effort: 'low',
    });
    const failure = await drain(router, request('claude-sonnet-4-5')).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(/^claude-sonnet-4-5 refused a thinking budget of 4096 tokens \(effort low\): /);
    expect(message).toContain(
      '--effort, /effort or model.effort (providers.anthropic.effort for this provider)',
    );
  });
});

describe('OpenAI: the Responses API for OpenAI’s own models', () => {
  async function responses(script: Json[][]) {
    const mock = await startOpenAIResponsesMock({
      script: script.map((chunks) => ({ chunks })),
      apiKey: 'k',
    });
    closers.push(() => mock.close());
    // OpenAI's models on a server that is not api.openai.com need the override.
    const profiles = { openai: { baseUrl: mock.url, wireApi: 'responses' } };
    return { mock, env: { OPENAI_API_KEY: 'k' }, profiles };
  }

  it('reasoning effort medium, store:false with encrypted reasoning, the session’s cache key, custom tools', async () => {
    const { mock, env, profiles } = await responses([responsesTextReply('hi')]);
    const router = routerFor(env, 'openai:gpt-5', { profiles });
    const patchTool = {
      name: 'apply_patch',
      description: 'Edit files with a patch',
      parametersJsonSchema: { type: 'object', properties: { input: { type: 'string' } } },
      freeform: { syntax: 'lark' as const, definition: 'start: "x"' },
    };
    await drain(
      router,
      request('openai:gpt-5', {
        systemInstruction: 'Be brief.',
        tools: [TOOL, patchTool],
        config: { cacheKey: 'session-1' },
      }),
    );
    const body = mock.requests[0]!.body as Json;
    expect(mock.requests[0]!.path).toBe('/v1/responses');
    expect(body).toMatchObject({
      model: 'gpt-5',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-1',
      tool_choice: 'auto',
      parallel_tool_calls: true,
      stream: true,
    });
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'read_file',
        description: 'Reads a file',
        parameters: TOOL.parametersJsonSchema,
        strict: false,
      },
      {
        type: 'custom',
        name: 'apply_patch',
        description: 'Edit files with a patch',
        format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
      },
    ]);
  });

  it('reasoning summaries are thoughts; encrypted reasoning goes back in the next request', async () => {
    const { mock, env, profiles } = await responses([
      responsesReply({
        reasoning: { summary: ['**Reading**\nfirst', 'then more'], encrypted: 'ENC-1' },
        calls: [{ name: 'read_file', args: { file_path: 'a' }, id: 'call_1' }],
      }),
      responsesTextReply('done'),
    ]);
    const router = routerFor(env, 'openai:gpt-5', { profiles, effort: 'high' });
    const first = await drain(router, request('openai:gpt-5', { tools: [TOOL] }));
    const parts = first.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const thoughts = parts
      .filter((part) => part.thought)
      .map((part) => part.text)
      .join('');
    expect(thoughts).toBe('**Reading**\nfirst\n\nthen more');
    expect(parts.find((part) => part.functionCall)?.functionCall).toEqual({
      id: 'call_1',
      name: 'read_file',
      args: { file_path: 'a' },
    });
    await drain(router, {
      model: 'openai:gpt-5',
      tools: [TOOL],
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'call_1', name: 'read_file', response: { output: 'x' } } }],
        },
      ],
    });
    const second = mock.requests[1]!.body as Json;
    expect(second.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(second.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: '**Reading**\nfirst\n\nthen more' }],
        encrypted_content: 'ENC-1',
      },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"file_path":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'x' },
    ]);
  });

  it('usage with cached and reasoning tokens; max_output_tokens ends as MAX_TOKENS', async () => {
    const { env, profiles } = await responses([
      responsesReply({
        text: 'cut',
        incomplete: 'max_output_tokens',
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 60 },
          output_tokens: 30,
          output_tokens_details: { reasoning_tokens: 20 },
          total_tokens: 130,
        },
      }),
    ]);
    const chunks = await drain(routerFor(env, 'openai:gpt-5', { profiles }), request('openai:gpt-5'));
    const last = chunks.at(-1)!;
    expect(last.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(last.usageMetadata).toEqual({
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 10,
      thoughtsTokenCount: 20,
      totalTokenCount: 130,
    });
  });

  it('off: gpt-5 reasons minimally (said once), gpt-5.1 and later not at all; max is xhigh from 5.2', async () => {
    const { mock, env, profiles } = await responses([
      responsesTextReply('a'),
      responsesTextReply('b'),
      responsesTextReply('c'),
    ]);
    const warnings: string[] = [];
    await drain(
      routerFor(env, 'openai:gpt-5', { profiles, effort: 'off', warnings }),
      request('openai:gpt-5'),
    );
    await drain(routerFor(env, 'openai:gpt-5.1', { profiles, effort: 'off' }), request('openai:gpt-5.1'));
    await drain(routerFor(env, 'openai:gpt-5.2', { profiles, effort: 'max' }), request('openai:gpt-5.2'));
    expect(mock.requests.map((r) => (r.body as Json).reasoning)).toEqual([
      { effort: 'minimal', summary: 'auto' },
      { effort: 'none', summary: 'auto' },
      { effort: 'xhigh', summary: 'auto' },
    ]);
    expect(warnings).toEqual([
      'gpt-5 cannot turn reasoning off; it reasons with effort "minimal", the lowest it has.',
    ]);
  });

  it('a call whose arguments are not a string fails the request with the field named', async () => {
    const reply = responsesReply({ calls: [{ name: 'read_file', args: {}, id: 'call_1' }] }).map((event) =>
      event.type === 'response.output_item.done'
        ? { ...event, item: { ...(event.item as Json), arguments: { file_path: 'a' } } }
        : event,
    );
    const { env, profiles } = await responses([reply]);
    const failure = (await drain(routerFor(env, 'openai:gpt-5', { profiles }), request('openai:gpt-5')).catch(
      (error: Error) => error,
    )) as Error;
    expect(failure.message).toBe(
      "Malformed response from OpenAI's Responses API: item.arguments must be a string (got object).",
    );
  });

  it('a refused reasoning effort: one line naming the setting', async () => {
    const mock = await startOpenAIResponsesMock({
      script: [
        {
          fault: 'status',
          status: 400,
          message: "Unsupported value: 'reasoning.effort' does not support 'xhigh' with this model.",
        },
      ],
    });
    closers.push(() => mock.close());
    const router = routerFor({ OPENAI_API_KEY: 'k' }, 'openai:gpt-5.4', {
      profiles: { openai: { baseUrl: mock.url, wireApi: 'responses' } },
      effortOverride: 'max',
    });
    const failure = (await drain(router, request('openai:gpt-5.4')).catch((error: Error) => error)) as Error;
    expect(failure.message).toMatch(
      /^gpt-5\.4 refused reasoning effort "xhigh" \(effort max\): Unsupported value/,
    );
    expect(failure.message).toContain('--effort, /effort or model.effort');
  });
});

describe('OpenAI-compatible servers: Chat Completions', () => {
  it('a custom base URL speaks Chat Completions; an effort goes out only when one was chosen', async () => {
    const mock = await startOpenAIMock({
      script: [
        { chunks: openaiTextReply('a') },
        { chunks: openaiTextReply('b') },
        { chunks: openaiTextReply('c') },
      ],
    });
    closers.push(() => mock.close());
    const env = { OPENAI_BASE_URL: mock.url };
    await drain(routerFor(env, 'openai:gpt-5'), request('openai:gpt-5'));
    await drain(routerFor(env, 'openai:gpt-5', { effort: 'low' }), request('openai:gpt-5'));
    const profiles = {
      local: { type: 'openai', baseUrl: mock.url, models: ['qwen3'], effort: 'off' as const },
    };
    await drain(routerFor({}, 'local:qwen3', { profiles }), request('local:qwen3'));
    expect(mock.requests.map((r) => r.path)).toEqual(Array(3).fill('/v1/chat/completions'));
    const [plain, low, off] = mock.requests.map((r) => r.body as Json);
    expect(plain).not.toHaveProperty('reasoning_effort');
    expect(plain).not.toHaveProperty('reasoning');
    expect(low!.reasoning_effort).toBe('low');
    expect(off!.reasoning_effort).toBe('none');
  });

  it('wireApi: "chat" keeps an OpenAI model on Chat Completions; freeform tools are left out there', async () => {
    const mock = await startOpenAIMock({ script: [{ chunks: openaiTextReply('a') }] });
    closers.push(() => mock.close());
    const profiles = { openai: { baseUrl: mock.url, wireApi: 'chat' } };
    const patchTool = {
      ...TOOL,
      name: 'apply_patch',
      freeform: { syntax: 'lark' as const, definition: 'start: "x"' },
    };
    await drain(
      routerFor({ OPENAI_API_KEY: 'k' }, 'openai:gpt-5', { profiles }),
      request('openai:gpt-5', { tools: [TOOL, patchTool] }),
    );
    const body = mock.requests[0]!.body as Json;
    expect(mock.requests[0]!.path).toBe('/v1/chat/completions');
    expect((body.tools as Json[]).map((tool) => (tool.function as Json).name)).toEqual(['read_file']);
  });
});
