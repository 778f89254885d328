/**
 * A response that is valid JSON but the wrong shape fails the request with one line naming what
 * was wrong, in every wire family (Gemini, OpenAI Chat Completions, Anthropic Messages) and in
 * recorded responses (`--fake-responses`), never with JavaScript's own words (`n?.some is not a
 * function`, `Cannot read properties of null`) and never by quietly dropping what it could not
 * read (a tool call's arguments read as `{}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../src/contracts/content-generator';
import { ApiError } from '../../src/contracts/errors';
import type { GenerateRequest } from '../../src/contracts/messages';
import { FakeContentGenerator, type RecordedCall } from '../../src/llm/fake';
import { HARNESSES, type Harness, type MockLike } from './provider-harnesses';

const REQUEST: GenerateRequest = {
  model: 'test-model',
  contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
};

/** What the stream threw (or undefined when it did not). */
async function failureOf(generator: ContentGenerator, how: 'stream' | 'unary' = 'stream'): Promise<unknown> {
  try {
    if (how === 'unary') {
      await generator.generateContent(REQUEST, new AbortController().signal);
    } else {
      for await (const _chunk of generator.generateContentStream(REQUEST, new AbortController().signal)) {
        // drained
      }
    }
    return undefined;
  } catch (error) {
    return error;
  }
}

function expectShapeError(error: unknown, path: string) {
  expect(error).toBeInstanceOf(ApiError);
  const message = (error as Error).message;
  expect(message).toMatch(/^Malformed response from /);
  expect(message).toContain(path);
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/is not a function|Cannot read properties|undefined \(reading/);
}

const part = (value: unknown) => ({ candidates: [{ content: { role: 'model', parts: [value] }, index: 0 }] });

/** Gemini-shaped chunks (the Gemini wire and recorded responses), and the path each must name. */
const GEMINI_CASES: [string, unknown, string][] = [
  ['candidates is an object', { candidates: { a: 1 } }, 'candidates must be an array (got object)'],
  [
    'parts is a string',
    { candidates: [{ content: { role: 'model', parts: 'hello' } }] },
    'candidates[0].content.parts must be an array (got string)',
  ],
  [
    'content is null',
    { candidates: [{ content: null }] },
    'candidates[0].content must be an object (got null)',
  ],
  ['a part is null', part(null), 'candidates[0].content.parts[0] must be an object (got null)'],
  [
    'text is a number',
    part({ text: 5 }),
    'candidates[0].content.parts[0].text must be a string (got number)',
  ],
  [
    'a call name is a number',
    part({ functionCall: { name: 5, args: {} } }),
    'candidates[0].content.parts[0].functionCall.name must be a string (got number)',
  ],
  [
    'call args are an array',
    part({ functionCall: { name: 'read_file', args: [] } }),
    'candidates[0].content.parts[0].functionCall.args must be an object (got array)',
  ],
  [
    'a usage count is a string',
    { ...part({ text: 'x' }), usageMetadata: { promptTokenCount: 'many' } },
    'usageMetadata.promptTokenCount must be a number (got string)',
  ],
  [
    'finishReason is a number',
    { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 7 }] },
    'candidates[0].finishReason must be a string (got number)',
  ],
  ['the chunk is an array', [1], 'must be an object (got array)'],
];

describe('recorded responses (--fake-responses)', () => {
  it.each(GEMINI_CASES)('%s', async (_name, chunk, path) => {
    const calls = [{ method: 'generateContentStream', response: [chunk] }] as unknown as RecordedCall[];
    expectShapeError(await failureOf(new FakeContentGenerator(calls)), path);
  });

  it('a unary recorded response is checked too', async () => {
    const calls = [{ method: 'generateContent', response: { candidates: 'x' } }] as unknown as RecordedCall[];
    expectShapeError(
      await failureOf(new FakeContentGenerator(calls), 'unary'),
      'candidates must be an array',
    );
  });

  it('control: a well-formed response passes unchanged', async () => {
    const chunk = { ...part({ text: 'ok' }), usageMetadata: { promptTokenCount: 1 } };
    const calls = [{ method: 'generateContentStream', response: [chunk] }] as RecordedCall[];
    expect(await failureOf(new FakeContentGenerator(calls))).toBeUndefined();
  });
});

const harness = (label: string) => HARNESSES.find((entry) => entry.label === label)!;

describe.each<[Harness, [string, unknown[], string][]]>([
  [
    harness('gemini'),
    GEMINI_CASES.filter(([name]) => name !== 'the chunk is an array').map(([n, c, p]) => [n, [c], p]),
  ],
  [
    harness('openai'),
    [
      ['choices is an object', [{ choices: {} }], 'choices must be an array (got object)'],
      [
        'delta is a string',
        [{ choices: [{ index: 0, delta: 'x' }] }],
        'choices[0].delta must be an object (got string)',
      ],
      [
        'content is a number',
        [{ choices: [{ index: 0, delta: { content: 5 } }] }],
        'choices[0].delta.content must be a string (got number)',
      ],
      [
        'tool_calls is an object',
        [{ choices: [{ index: 0, delta: { tool_calls: { name: 'x' } }, finish_reason: 'tool_calls' }] }],
        'choices[0].delta.tool_calls must be an array (got object)',
      ],
      [
        'arguments is a number',
        [
          {
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [{ index: 0, id: 'c1', function: { name: 'read_file', arguments: 42 } }],
                },
                finish_reason: 'tool_calls',
              },
            ],
          },
        ],
        'choices[0].delta.tool_calls[0].function.arguments must be a string (got number)',
      ],
      [
        'a usage count is a string',
        [{ choices: [], usage: { prompt_tokens: 'x' } }],
        'usage.prompt_tokens must be a number (got string)',
      ],
      ['the chunk is an array', [[1]], 'must be an object (got array)'],
    ],
  ],
  [
    harness('anthropic'),
    [
      [
        'message is null',
        [{ type: 'message_start', message: null }],
        'message_start.message must be an object (got null)',
      ],
      [
        'a block index is a string',
        [{ type: 'content_block_start', index: 'a', content_block: { type: 'text', text: '' } }],
        'content_block_start.index must be a number (got string)',
      ],
      [
        'a tool name is a number',
        [
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 5, input: {} },
          },
        ],
        'content_block_start.content_block.name must be a string (got number)',
      ],
      [
        'a text delta is a number',
        [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 5 } },
        ],
        'content_block_delta.delta.text must be a string (got number)',
      ],
      [
        'partial_json is a number',
        [
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 'x', input: {} },
          },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 5 } },
        ],
        'content_block_delta.delta.partial_json must be a string (got number)',
      ],
      [
        'a usage count is a string',
        [{ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 'x' } }],
        'message_delta.usage.output_tokens must be a number (got string)',
      ],
      [
        'delta is a string',
        [{ type: 'message_delta', delta: 'x' }],
        'message_delta.delta must be an object (got string)',
      ],
    ],
  ],
])('the $label wire', (h, cases) => {
  let mock: MockLike;
  let generator: ContentGenerator;
  beforeAll(async () => {
    mock = await h.start();
    generator = await h.create(mock.url);
  });
  afterAll(() => mock.close());

  it.each(cases)('%s', async (_name, chunks, path) => {
    mock.setScript([{ chunks }]);
    expectShapeError(await failureOf(generator), path);
  });

  it('control: a well-formed answer passes', async () => {
    mock.setScript([{ chunks: h.text(['fine']) }]);
    expect(await failureOf(generator)).toBeUndefined();
  });
});

describe('the OpenAI wire, not streamed', () => {
  let mock: MockLike;
  beforeAll(async () => {
    mock = await harness('openai').start();
  });
  afterAll(() => mock.close());

  it('message.tool_calls that is not an array is named', async () => {
    mock.setScript([
      {
        response: {
          id: 'x',
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', tool_calls: { a: 1 } }, finish_reason: 'stop' },
          ],
        },
      },
    ]);
    const generator = await harness('openai').create(mock.url);
    expectShapeError(
      await failureOf(generator, 'unary'),
      'choices[0].message.tool_calls must be an array (got object)',
    );
  });
});
