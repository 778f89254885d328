import { describe, expect, it } from 'vitest';
import { cleanToolSchema, type SchemaTarget, schemaTargetForModel } from '../../src/mcp/schema';

type Case = {
  name: string;
  input: Record<string, unknown>;
  expected: Partial<Record<SchemaTarget, Record<string, unknown>>>;
};

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

// One row per thing a provider rejects: what each target makes of it.
const CASES: Case[] = [
  {
    name: 'metadata keywords are dropped everywhere',
    input: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'x',
      ...object({ a: { type: 'string' } }),
    },
    expected: {
      gemini: object({ a: { type: 'string' } }),
      openai: object({ a: { type: 'string' } }),
      anthropic: object({ a: { type: 'string' } }),
      portable: object({ a: { type: 'string' } }),
    },
  },
  {
    name: 'additionalProperties: Gemini rejects it, the others keep it',
    input: object({ a: { type: 'string' } }, { additionalProperties: false }),
    expected: {
      gemini: object({ a: { type: 'string' } }),
      openai: object({ a: { type: 'string' } }, { additionalProperties: false }),
      anthropic: object({ a: { type: 'string' } }, { additionalProperties: false }),
      portable: object({ a: { type: 'string' } }),
    },
  },
  {
    name: 'formats Gemini does not know move into the description',
    input: object({
      url: { type: 'string', format: 'uri', description: 'Where.' },
      at: { type: 'string', format: 'date-time' },
    }),
    expected: {
      gemini: object({
        url: { type: 'string', description: 'Where. Format: uri.' },
        at: { type: 'string', format: 'date-time' },
      }),
      openai: object({
        url: { type: 'string', format: 'uri', description: 'Where.' },
        at: { type: 'string', format: 'date-time' },
      }),
    },
  },
  {
    name: 'type arrays become one type plus nullable for Gemini',
    input: object({ n: { type: ['integer', 'null'] }, v: { type: ['string', 'number'], description: 'd' } }),
    expected: {
      gemini: object({
        n: { type: 'integer', nullable: true },
        v: { description: 'd', anyOf: [{ type: 'string' }, { type: 'number' }] },
      }),
      anthropic: object({
        n: { type: ['integer', 'null'] },
        v: { type: ['string', 'number'], description: 'd' },
      }),
    },
  },
  {
    name: 'local $refs are inlined and $defs removed',
    input: {
      ...object({ to: { $ref: '#/$defs/addr' }, cc: { $ref: '#/definitions/addr', description: 'Copy.' } }),
      $defs: { addr: { type: 'string' } },
      definitions: { addr: { type: 'string' } },
    },
    expected: {
      openai: object({ to: { type: 'string' }, cc: { type: 'string', description: 'Copy.' } }),
      gemini: object({ to: { type: 'string' }, cc: { type: 'string', description: 'Copy.' } }),
    },
  },
  {
    name: 'recursive $refs are cut after a few levels',
    input: {
      ...object({ root: { $ref: '#/$defs/node' } }),
      $defs: { node: object({ child: { $ref: '#/$defs/node' } }) },
    },
    expected: {
      anthropic: object({ root: object({ child: { description: 'A node value.' } }) }),
    },
  },
  {
    name: 'const becomes a one-value enum and oneOf becomes anyOf for Gemini',
    input: object({ k: { const: 'x' }, u: { oneOf: [{ type: 'string' }, { type: 'number' }] } }),
    expected: {
      gemini: object({ k: { enum: ['x'] }, u: { anyOf: [{ type: 'string' }, { type: 'number' }] } }),
      openai: object({ k: { const: 'x' }, u: { oneOf: [{ type: 'string' }, { type: 'number' }] } }),
    },
  },
  {
    name: 'arrays without items get items: {} (OpenAI: "array schema missing items")',
    input: object({ tags: { type: 'array' } }),
    expected: {
      openai: object({ tags: { type: 'array', items: {} } }),
      anthropic: object({ tags: { type: 'array' } }),
      gemini: object({ tags: { type: 'array', items: {} } }),
    },
  },
  {
    name: 'combinators at the top level are merged into one object (Anthropic, OpenAI refuse them)',
    input: {
      anyOf: [
        object({ id: { type: 'string' } }, { required: ['id'] }),
        object({ name: { type: 'string' } }, { required: ['name'] }),
      ],
    },
    expected: {
      anthropic: object({ id: { type: 'string' }, name: { type: 'string' } }),
      openai: object({ id: { type: 'string' }, name: { type: 'string' } }),
    },
  },
  {
    name: 'allOf of objects is merged for Gemini',
    input: object(
      {},
      { allOf: [object({ a: { type: 'string' } }, { required: ['a'] }), object({ b: { type: 'number' } })] },
    ),
    expected: {
      gemini: object({ a: { type: 'string' }, b: { type: 'number' } }, { required: ['a'] }),
    },
  },
  {
    name: 'required names that are not properties are dropped',
    input: object({ a: { type: 'string' } }, { required: ['a', 'ghost'] }),
    expected: {
      gemini: object({ a: { type: 'string' } }, { required: ['a'] }),
      openai: object({ a: { type: 'string' } }, { required: ['a'] }),
    },
  },
  {
    name: 'a schema without type or properties becomes an empty object',
    input: {},
    expected: { gemini: object({}), openai: object({}), anthropic: object({}), portable: object({}) },
  },
  {
    name: 'property names that look like keywords are kept',
    input: object({ format: { type: 'string' }, $ref: { type: 'string' } }),
    expected: { gemini: object({ format: { type: 'string' }, $ref: { type: 'string' } }) },
  },
];

describe('cleanToolSchema', () => {
  for (const row of CASES) {
    for (const [target, expected] of Object.entries(row.expected)) {
      it(`${row.name} (${target})`, () => {
        expect(cleanToolSchema(row.input, target as SchemaTarget)).toEqual(expected);
      });
    }
  }

  it('portable output has only keywords every provider accepts', () => {
    const cleaned = cleanToolSchema(
      {
        $schema: 'x',
        type: 'object',
        properties: { a: { type: ['string', 'null'], format: 'email', const: 'q' }, b: { type: 'array' } },
        additionalProperties: false,
        oneOf: [{ required: ['a'] }],
      },
      'portable',
    );
    const keys = JSON.stringify(cleaned).match(/"(\$schema|additionalProperties|oneOf|const|format)"/g);
    expect(keys).toBeNull();
    expect(cleaned.properties).toEqual({
      a: { type: 'string', nullable: true, enum: ['q'], description: 'Format: email.' },
      b: { type: 'array', items: {} },
    });
  });
});

describe('schemaTargetForModel', () => {
  it.each([
    ['gemini:gemini-2.5-pro', 'gemini'],
    ['gemini-2.5-flash', 'gemini'],
    ['anthropic:claude-sonnet-4-5', 'anthropic'],
    ['openai:gpt-5', 'openai'],
    ['ollama:qwen3:8b', 'openai'],
    ['my-gateway:some-model', 'portable'],
  ])('%s → %s', (model, target) => {
    expect(schemaTargetForModel(model)).toBe(target);
  });
});
