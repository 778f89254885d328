import { describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { toAnthropicRequestBody } from '../../src/llm/providers/anthropic-convert';
import { toGeminiRequestBody } from '../../src/llm/providers/gemini';
import { toOpenAIRequestBody } from '../../src/llm/providers/openai-convert';
import { toResponsesRequestBody } from '../../src/llm/providers/openai-responses-convert';
import { unwrapAnthropicStructuredOutput } from '../../src/llm/structured-output/anthropic';
import { openAIResponsesTextFormat } from '../../src/llm/structured-output/openai';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const request = (config: GenerateRequest['config']): GenerateRequest => ({
  model: 'claude-sonnet-4-5',
  contents: [{ role: 'user', parts: [{ text: 'answer' }] }],
  config,
});

describe('structured output on the wire, per family', () => {
  it('Gemini: responseMimeType and responseJsonSchema beside the other settings', () => {
    const body = toGeminiRequestBody(request({ temperature: 0.2, responseJsonSchema: SCHEMA }));
    expect(body.generationConfig).toEqual({
      temperature: 0.2,
      responseMimeType: 'application/json',
      responseJsonSchema: SCHEMA,
    });
    expect(
      (toGeminiRequestBody(request({})).generationConfig as object | undefined) ?? {},
    ).not.toHaveProperty('responseMimeType');
  });

  it('OpenAI Chat Completions: response_format json_schema (not strict)', () => {
    const body = toOpenAIRequestBody(request({ responseJsonSchema: SCHEMA }), {
      stream: true,
      maxTokensField: 'max_completion_tokens',
      topK: false,
    });
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'structured_output', schema: SCHEMA, strict: false },
    });
  });

  it('OpenAI Responses API: text.format, in the request body', () => {
    expect(openAIResponsesTextFormat(SCHEMA)).toEqual({
      format: { type: 'json_schema', name: 'structured_output', schema: SCHEMA, strict: false },
    });
    const body = toResponsesRequestBody(
      { ...request({ responseJsonSchema: SCHEMA }), model: 'gpt-5' },
      {
        stream: true,
      },
    );
    expect(body.text).toEqual(openAIResponsesTextFormat(SCHEMA));
    expect(toResponsesRequestBody({ ...request({}), model: 'gpt-5' }, { stream: true })).not.toHaveProperty(
      'text',
    );
  });

  it('Anthropic: the forced tool replaces the tools, and thinking is dropped (a forced choice refuses it)', () => {
    const body = toAnthropicRequestBody(
      { ...request({ includeThoughts: true, responseJsonSchema: SCHEMA }), tools: [] },
      { stream: true },
    );
    expect(body.tools).toEqual([
      expect.objectContaining({ name: 'structured_output', input_schema: SCHEMA }),
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'structured_output' });
    expect(body.thinking).toBeUndefined();
    const plain = toAnthropicRequestBody(request({ includeThoughts: true }), { stream: true });
    expect(plain.thinking).toBeDefined();
    expect(plain.tool_choice).toBeUndefined();
  });

  it('Anthropic: the forced tool call comes back as the answer text; other parts pass', async () => {
    async function* chunks(): AsyncGenerator<GenerateResponse> {
      yield { candidates: [{ content: { role: 'model', parts: [{ text: 'Here: ' }] } }] };
      yield {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'structured_output', args: { ok: true } } }],
            },
            finishReason: 'STOP',
          },
        ],
      };
    }
    const out: GenerateResponse[] = [];
    for await (const chunk of unwrapAnthropicStructuredOutput(chunks())) out.push(chunk);
    expect(out.map((chunk) => chunk.candidates?.[0]?.content?.parts)).toEqual([
      [{ text: 'Here: ' }],
      [{ text: '{"ok":true}' }],
    ]);
    expect(out[1]!.candidates?.[0]?.finishReason).toBe('STOP');
  });
});
