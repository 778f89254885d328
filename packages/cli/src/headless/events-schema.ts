/**
 * The `-o stream-json` events, described once: the emitter's types are inferred from these
 * schemas (a type-only import, so zod never loads at run time) and `docs/events.schema.json` is
 * generated from them (`npm run events-schema`; a test checks the file is current and that real
 * output validates against it).
 */
import { z } from 'zod';

const base = {
  timestamp: z.string().describe('ISO 8601 time the event was written'),
  /** Events from inside a subagent: the parent's tool call that runs it. Absent for the main conversation. */
  parent_tool_id: z.string().optional().describe('The tool call of the parent agent this event comes from'),
  agent: z.string().optional().describe('With parent_tool_id: the subagent that produced the event'),
};

const tokenStats = {
  total_tokens: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cached: z.number().int(),
  input: z.number().int(),
};

export const initEvent = z
  .object({
    type: z.literal('init'),
    ...base,
    session_id: z.string(),
    model: z.string(),
    version: z.number().int().describe('Version of this event format'),
  })
  .strict();

export const messageEvent = z
  .object({
    type: z.literal('message'),
    ...base,
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    delta: z.boolean().optional().describe('A streamed piece of the assistant message'),
    steering: z
      .boolean()
      .optional()
      .describe('A user message sent while a turn ran, taken in at its next step boundary'),
  })
  .strict();

export const thoughtEvent = z
  .object({
    type: z.literal('thought'),
    ...base,
    content: z
      .string()
      .describe("A streamed piece of the model's thinking (its summary, where the API sends one)"),
    subject: z
      .string()
      .optional()
      .describe("The heading the piece opens with (`**Subject**`), as Gemini CLI's thought summary names it"),
    delta: z.literal(true),
  })
  .strict();

export const toolUseEvent = z
  .object({
    type: z.literal('tool_use'),
    ...base,
    tool_name: z.string(),
    tool_id: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  })
  .strict();

export const toolResultEvent = z
  .object({
    type: z.literal('tool_result'),
    ...base,
    tool_id: z.string(),
    status: z.enum(['success', 'error']),
    output: z.string().optional(),
    error: z.object({ type: z.string(), message: z.string() }).strict().optional(),
  })
  .strict();

export const errorEvent = z
  .object({
    type: z.literal('error'),
    ...base,
    severity: z.enum(['warning', 'error']),
    message: z.string(),
  })
  .strict();

export const approvalModeEvent = z
  .object({
    type: z.literal('approval_mode'),
    ...base,
    mode: z.enum(['default', 'auto_edit', 'plan', 'yolo']),
    previous: z.enum(['default', 'auto_edit', 'plan', 'yolo']),
  })
  .strict()
  .describe('The approval mode switched (exit_plan_mode, the kodo tool); kodo only');

export const resultEvent = z
  .object({
    type: z.literal('result'),
    ...base,
    status: z.enum(['success', 'error']),
    error: z.object({ type: z.string(), message: z.string() }).strict().optional(),
    structured_output: z
      .unknown()
      .optional()
      .describe('With --json-schema: the final answer, parsed, matching the schema'),
    stats: z
      .object({
        ...tokenStats,
        duration_ms: z.number().int(),
        tool_calls: z.number().int(),
        models: z.record(z.string(), z.object(tokenStats).strict()),
        cost: z
          .object({
            total_usd: z.number(),
            models: z.record(z.string(), z.number()),
            unpriced_models: z.array(z.string()).optional(),
          })
          .strict()
          .optional()
          .describe('With a budget flag: what the session cost'),
      })
      .strict(),
  })
  .strict();

export const streamEvent = z.discriminatedUnion('type', [
  initEvent,
  messageEvent,
  thoughtEvent,
  toolUseEvent,
  toolResultEvent,
  errorEvent,
  approvalModeEvent,
  resultEvent,
]);

export type StreamEvent = z.infer<typeof streamEvent>;
