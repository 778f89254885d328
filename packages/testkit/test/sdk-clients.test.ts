/**
 * The official SDKs (`@google/genai`, `openai`, `@anthropic-ai/sdk`) as clients of the mocks. kodo
 * itself talks to the APIs with its own HTTP clients and ships none of these SDKs; they are
 * devDependencies of the testkit only, as the independent reading of each wire protocol: if an SDK
 * can stream, assemble tool calls and surface errors from a mock, the mock speaks the real
 * protocol, and so the wire tests kodo's clients pass against it mean something.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicErrorEvent,
  anthropicTextReply,
  anthropicToolUseReply,
  geminiChunk,
  geminiFunctionCallReply,
  geminiTextReply,
  openaiChunk,
  openaiCompletion,
  openaiTextReply,
  openaiToolCallsReply,
  responsesReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
  startOpenAIResponsesMock,
} from '../src/index';

const KEY = 'sk-mock-key';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure');
}

describe('@google/genai against the Gemini mock', () => {
  async function setUp() {
    const mock = await startGeminiMock({ apiKey: KEY });
    closers.push(() => mock.close());
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot send this elsewhere.
    const client = new GoogleGenAI({ apiKey: KEY, vertexai: false, httpOptions: { baseUrl: mock.url } });
    return { mock, client };
  }

  it('streams text chunk by chunk and sends the body kodo sends', async () => {
    const { mock, client } = await setUp();
    mock.push({ chunks: geminiTextReply(['Hel', 'lo']) });
    const schema = { type: 'object', properties: {} };
    const stream = await client.models.generateContentStream({
      model: 'gemini-test',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: {
        systemInstruction: 'sys',
        tools: [{ functionDeclarations: [{ name: 't', description: 'd', parametersJsonSchema: schema }] }],
        temperature: 0.5,
        thinkingConfig: { includeThoughts: true },
        automaticContinuation: false,
      },
    });
    const texts: (string | undefined)[] = [];
    for await (const chunk of stream) texts.push(chunk.text);
    expect(texts).toEqual(['Hel', 'lo']);
    const [seen] = mock.requests;
    expect(seen?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(seen?.headers['x-goog-api-key']).toBe(KEY);
    // The same literal body packages/core/test/llm/gemini-wire.test.ts expects from kodo's client.
    expect(seen?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'sys' }] },
      tools: [{ functionDeclarations: [{ name: 't', description: 'd', parametersJsonSchema: schema }] }],
      generationConfig: { temperature: 0.5, thinkingConfig: { includeThoughts: true } },
    });
  });

  it('reads a function call, a token count and an in-stream thought', async () => {
    const { mock, client } = await setUp();
    mock.push(
      {
        response: geminiFunctionCallReply('read_file', { file_path: 'a.txt' })[0] as Record<string, unknown>,
      },
      { countTokens: { totalTokens: 42 } },
      {
        chunks: [
          geminiChunk([{ text: 'hmm', thought: true }], { last: false }),
          geminiChunk([{ text: 'ok' }]),
        ],
      },
    );
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const reply = await client.models.generateContent({ model: 'gemini-test', contents });
    expect(reply.functionCalls).toEqual([{ name: 'read_file', args: { file_path: 'a.txt' } }]);
    expect((await client.models.countTokens({ model: 'gemini-test', contents })).totalTokens).toBe(42);
    const parts = [];
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-test', contents })) {
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    }
    expect(parts).toEqual([{ text: 'hmm', thought: true }, { text: 'ok' }]);
  });

  it('surfaces an HTTP error with its status and a wrong key as refused', async () => {
    const { mock, client } = await setUp();
    mock.push({ fault: 'status', status: 429, retryAfter: 3 });
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const error = await failure(client.models.generateContent({ model: 'gemini-test', contents }));
    expect(error).toMatchObject({ name: 'ApiError', status: 429 });
    expect(error.message).toContain('RESOURCE_EXHAUSTED');
    const wrongKey = new GoogleGenAI({ apiKey: 'nope', vertexai: false, httpOptions: { baseUrl: mock.url } });
    const refused = await failure(wrongKey.models.generateContent({ model: 'gemini-test', contents }));
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.message).toContain('API key not valid');
  });
});

describe('openai against the OpenAI mock', () => {
  async function setUp() {
    const mock = await startOpenAIMock({ apiKey: KEY });
    closers.push(() => mock.close());
    const client = new OpenAI({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
    return { mock, client };
  }
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('streams text with usage, and assembles fragmented tool calls', async () => {
    const { mock, client } = await setUp();
    mock.push(
      {
        chunks: openaiTextReply(['Hel', 'lo'], {
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      },
      {
        chunks: openaiToolCallsReply([
          { name: 'read_file', args: { file_path: 'a.txt' }, id: 'call_1' },
          { name: 'glob', args: { pattern: '**/*.ts' }, id: 'call_2' },
        ]),
      },
    );
    const text = client.chat.completions.stream({
      model: 'gpt-test',
      messages,
      stream_options: { include_usage: true },
    });
    const answer = await text.finalChatCompletion();
    expect(answer.choices[0]?.message.content).toBe('Hello');
    expect(answer.usage?.total_tokens).toBe(5);
    const tools = await client.chat.completions.stream({ model: 'gpt-test', messages }).finalChatCompletion();
    expect(tools.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = tools.choices[0]?.message.tool_calls ?? [];
    expect(
      calls.map((call) =>
        call.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [],
      ),
    ).toEqual([
      ['call_1', 'read_file', { file_path: 'a.txt' }],
      ['call_2', 'glob', { pattern: '**/*.ts' }],
    ]);
    expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reads a non-streamed completion', async () => {
    const { mock, client } = await setUp();
    mock.push({ response: openaiCompletion({ text: 'y' }) });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(completion.choices[0]?.message.content).toBe('y');
    expect(mock.requests[0]?.body).not.toHaveProperty('stream');
  });

  it('surfaces HTTP errors with status and Retry-After, and errors inside the stream', async () => {
    const { mock, client } = await setUp();
    mock.push(
      { fault: 'status', status: 429, retryAfter: 7 },
      { chunks: [openaiChunk({ content: 'par' }), { error: { message: 'boom', type: 'server_error' } }] },
    );
    const error = await failure(client.chat.completions.create({ model: 'gpt-test', messages }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error.headers as Headers | undefined)?.get('retry-after')).toBe('7');
    const streamed = await failure(
      client.chat.completions.stream({ model: 'gpt-test', messages }).finalChatCompletion(),
    );
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
    expect(streamed.message).toContain('boom');
  });
});

describe('openai against the Responses API mock', () => {
  async function setUp() {
    const mock = await startOpenAIResponsesMock({ apiKey: KEY });
    closers.push(() => mock.close());
    const client = new OpenAI({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
    return { mock, client };
  }

  it('assembles reasoning with encrypted content, text, function and custom tool calls', async () => {
    const { mock, client } = await setUp();
    mock.push({
      chunks: responsesReply({
        reasoning: { summary: ['**Plan**', 'Then edit.'], encrypted: 'ENC' },
        text: ['Hel', 'lo'],
        calls: [{ name: 'read_file', args: { file_path: 'a.txt' }, id: 'call_1' }],
        customCalls: [
          {
            name: 'apply_patch',
            input: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n',
            id: 'call_2',
          },
        ],
      }),
    });
    const stream = client.responses.stream({
      model: 'gpt-test',
      input: 'hi',
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'medium', summary: 'auto' },
    });
    const deltas: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => deltas.push(event.delta));
    const response = await stream.finalResponse();
    expect(deltas).toEqual(['**Plan**', 'Then edit.']);
    expect(response.output_text).toBe('Hello');
    expect(response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'custom_tool_call',
    ]);
    expect(response.output[0]).toMatchObject({
      encrypted_content: 'ENC',
      summary: [{ text: '**Plan**' }, { text: 'Then edit.' }],
    });
    expect(response.output[2]).toMatchObject({ call_id: 'call_1', arguments: '{"file_path":"a.txt"}' });
    expect(response.output[3]).toMatchObject({ call_id: 'call_2', name: 'apply_patch' });
    expect(response.usage?.total_tokens).toBe(17);
    expect(mock.requests[0]!.path).toBe('/v1/responses');
  });

  it('surfaces HTTP errors with their status', async () => {
    const { mock, client } = await setUp();
    mock.push({ fault: 'status', status: 400, message: 'Unsupported value: reasoning.effort' });
    const error = await failure(client.responses.create({ model: 'gpt-test', input: 'hi', stream: true }));
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toContain('reasoning.effort');
  });
});

describe('@anthropic-ai/sdk against the Anthropic mock', () => {
  async function setUp() {
    const mock = await startAnthropicMock({ apiKey: KEY });
    closers.push(() => mock.close());
    const client = new Anthropic({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
    return { mock, client };
  }
  const params = {
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'hi' }],
  };

  it('streams thinking and text, and assembles tool input from JSON fragments', async () => {
    const { mock, client } = await setUp();
    mock.push(
      { chunks: anthropicTextReply(['Hel', 'lo'], { thinking: { text: 'hmm', signature: 'sig-1' } }) },
      { chunks: anthropicToolUseReply([{ name: 'read_file', args: { file_path: 'a.txt' }, id: 'toolu_1' }]) },
    );
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      expect.objectContaining({ type: 'thinking', thinking: 'hmm', signature: 'sig-1' }),
      expect.objectContaining({ type: 'text', text: 'Hello' }),
    ]);
    expect(message.stop_reason).toBe('end_turn');
    const tool = await client.messages.stream(params).finalMessage();
    expect(tool.content).toEqual([
      expect.objectContaining({
        type: 'tool_use',
        id: 'toolu_1',
        name: 'read_file',
        input: { file_path: 'a.txt' },
      }),
    ]);
    // This SDK version sends the key as a bearer token; kodo's client sends x-api-key. The mock
    // takes both, as the API does (kodo's side is pinned in packages/core/test/llm).
    expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(mock.requests[0]?.headers['anthropic-version']).toBeTruthy();
  });

  it('surfaces HTTP errors with status and Retry-After, and an error event mid-stream', async () => {
    const { mock, client } = await setUp();
    const events = anthropicTextReply('partial');
    mock.push(
      { fault: 'status', status: 529, retryAfter: 2 },
      { chunks: [...events.slice(0, 4), anthropicErrorEvent()] },
    );
    const error = await failure(client.messages.create(params));
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: 529 });
    expect((error.headers as Headers | undefined)?.get('retry-after')).toBe('2');
    const streamed = await failure(client.messages.stream(params).finalMessage());
    expect(streamed).toBeInstanceOf(Anthropic.APIError);
    expect(streamed.message).toContain('overloaded_error');
  });
});
