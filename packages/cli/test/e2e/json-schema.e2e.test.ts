/**
 * `--json-schema FILE`: the final answer asked for in each provider family's native way (on the
 * wire, against the mocks), validated, retried once with the validator's words, and returned as
 * `structured_output`; a second mismatch exits 47; a bad schema file is a usage error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AnthropicMock,
  anthropicTextReply,
  anthropicToolUseReply,
  type GeminiMock,
  geminiFunctionCallsReply,
  geminiTextReply,
  type OpenAIMock,
  openaiTextReply,
  runKodo,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
let gemini: GeminiMock | undefined;
let openai: OpenAIMock | undefined;
let anthropic: AnthropicMock | undefined;
afterEach(async () => {
  await gemini?.close();
  await openai?.close();
  await anthropic?.close();
  gemini = openai = anthropic = undefined;
});

const SCHEMA = {
  type: 'object',
  properties: { files: { type: 'integer' }, names: { type: 'array', items: { type: 'string' } } },
  required: ['files', 'names'],
};
beforeEach(() => {
  writeFileSync(join(dirs.workspace, 'schema.json'), JSON.stringify(SCHEMA));
  writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n');
});

const kodo = (args: string[], env: Record<string, string | undefined> = {}) =>
  runKodo(args, {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home, KODO_RETRY_BASE_MS: '5', KODO_TRUST_WORKSPACE: 'true', ...env },
  });

type Json = Record<string, unknown>;
const ANSWER = { files: 1, names: ['a.txt'] };

describe('--json-schema on Gemini', () => {
  it('asks for the final answer with responseMimeType and responseJsonSchema (no tools), after the tool round trip', async () => {
    gemini = await startGeminiMock({
      script: [
        { chunks: geminiFunctionCallsReply([{ name: 'list_directory', args: { dir_path: '.' } }]) },
        { chunks: geminiTextReply('There is one file, a.txt.') },
        { chunks: geminiTextReply(JSON.stringify(ANSWER)) },
      ],
    });
    const run = await kodo(['-p', 'count the files', '-o', 'json', '--json-schema', 'schema.json'], {
      ...geminiMockEnv(dirs.home, gemini.url),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Json;
    expect(result.structured_output).toEqual(ANSWER);
    expect(result.error).toBeUndefined();
    expect(gemini.requests).toHaveLength(3);
    // The work itself runs as usual: tools offered, no constraint.
    const first = gemini.requests[0]!.body as Json;
    expect(first.tools).toBeDefined();
    expect((first.generationConfig as Json | undefined)?.responseJsonSchema).toBeUndefined();
    const final = gemini.requests[2]!.body as Json;
    expect(final.tools).toBeUndefined();
    expect(final.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: SCHEMA,
    });
  });

  it('retries once with the validation error, then exits 47 with the reason', async () => {
    gemini = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('Done.') },
        { chunks: geminiTextReply('{"files": "one"}') },
        { chunks: geminiTextReply('{"files": 1}') },
      ],
    });
    const run = await kodo(['-p', 'count', '-o', 'json', '--json-schema', 'schema.json'], {
      ...geminiMockEnv(dirs.home, gemini.url),
    });
    expect(run.code).toBe(47);
    const result = JSON.parse(run.stdout) as { error: { type: string; message: string } } & Json;
    expect(result.structured_output).toBeUndefined();
    expect(result.error.type).toBe('STRUCTURED_OUTPUT_MISMATCH');
    expect(result.error.message).toBe(
      "The answer did not match the JSON Schema after a retry: (root) must have required property 'names'",
    );
    const retry = (gemini.requests[2]!.body as { contents: { parts: { text?: string }[] }[] }).contents.at(
      -1,
    )!;
    expect(retry.parts.at(-1)?.text).toBe(
      "That answer does not match the JSON Schema: (root) must have required property 'names'; /files must be integer. Answer again with only a JSON value that matches the schema.",
    );
  });

  it('a retry that matches succeeds (stream-json: structured_output on the result event)', async () => {
    gemini = await startGeminiMock({
      script: [
        { chunks: geminiTextReply('Done.') },
        { chunks: geminiTextReply('not json') },
        { chunks: geminiTextReply(JSON.stringify(ANSWER)) },
      ],
    });
    const run = await kodo(['-p', 'count', '-o', 'stream-json', '--json-schema', 'schema.json'], {
      ...geminiMockEnv(dirs.home, gemini.url),
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    const result = events.find((event) => event.type === 'result')!;
    expect(result).toMatchObject({ status: 'success', structured_output: ANSWER });
  });
});

describe('--json-schema on OpenAI', () => {
  it('Chat Completions: response_format json_schema, validated', async () => {
    openai = await startOpenAIMock({
      script: [{ chunks: openaiTextReply('One file.') }, { chunks: openaiTextReply(JSON.stringify(ANSWER)) }],
    });
    const run = await kodo(
      ['-p', 'count', '-m', 'openai:gpt-test', '-o', 'json', '--json-schema', 'schema.json'],
      { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: openai.url },
    );
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Json).structured_output).toEqual(ANSWER);
    const final = openai.requests[1]!.body as Json;
    expect(final.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'structured_output', schema: SCHEMA, strict: false },
    });
    expect(final.tools).toBeUndefined();
    expect((openai.requests[0]!.body as Json).response_format).toBeUndefined();
  });
});

describe('--json-schema on Anthropic', () => {
  it('a forced tool carries the answer; thinking is off for that request', async () => {
    anthropic = await startAnthropicMock({
      script: [
        { chunks: anthropicTextReply('One file.') },
        { chunks: anthropicToolUseReply([{ name: 'structured_output', args: ANSWER, id: 'toolu_1' }]) },
      ],
    });
    const run = await kodo(
      ['-p', 'count', '-m', 'anthropic:claude-test', '-o', 'json', '--json-schema', 'schema.json'],
      { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.url },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Json;
    expect(result.structured_output).toEqual(ANSWER);
    const final = anthropic.requests[1]!.body as Json;
    expect(final.tools).toEqual([
      {
        name: 'structured_output',
        description: 'Give the final answer. Its input is the answer, matching the requested JSON schema.',
        input_schema: SCHEMA,
      },
    ]);
    expect(final.tool_choice).toEqual({ type: 'tool', name: 'structured_output' });
    expect(final.thinking).toBeUndefined();
  });
});

describe('--json-schema usage errors', () => {
  it.each([
    [
      'a missing file',
      ['--json-schema', 'nope.json', '-o', 'json'],
      '--json-schema: cannot read nope.json: ENOENT',
    ],
    ['a file that is not JSON', ['--json-schema', 'a.txt', '-o', 'json'], '--json-schema: a.txt is not JSON'],
    ['text output', ['--json-schema', 'schema.json'], '--json-schema needs -o json or -o stream-json'],
  ])('%s: exit 1 before any request', async (_name, flags, message) => {
    gemini = await startGeminiMock({ script: [] });
    const run = await kodo(['-p', 'hi', ...flags], geminiMockEnv(dirs.home, gemini.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`[ERROR] ${message}`);
    expect(run.stderr).toContain('(see kodo --help)');
    expect(gemini.requests).toHaveLength(0);
  });

  it('a schema that does not compile', async () => {
    writeFileSync(join(dirs.workspace, 'bad.json'), JSON.stringify({ type: 'nonsense' }));
    gemini = await startGeminiMock({ script: [] });
    const run = await kodo(
      ['-p', 'hi', '-o', 'json', '--json-schema', 'bad.json'],
      geminiMockEnv(dirs.home, gemini.url),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('[ERROR] --json-schema: bad.json is not a valid JSON Schema:');
  });
});
