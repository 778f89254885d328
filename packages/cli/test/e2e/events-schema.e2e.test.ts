/**
 * docs/events.schema.json is current with the event types, and real `-o stream-json` output
 * validates against it: every line kodo writes for every fixture, for
 * a stream-json input session (with a malformed line), with budget costs, retries and errors.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiChunk, runKodo, startGeminiMock } from '@kodo/testkit';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { eventsJsonSchema } from '../../src/headless/events-json-schema';
import { e2eDirs, geminiMockEnv } from './helpers';

const dirs = e2eDirs();
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const checkedIn = JSON.parse(readFileSync(join(repoRoot, 'docs', 'events.schema.json'), 'utf8'));
const validate = new Ajv({ strict: true, allErrors: true }).compile(checkedIn);

function checkLines(stdout: string): { type: string }[] {
  const events = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string });
  for (const event of events) {
    if (!validate(event)) {
      throw new Error(`${JSON.stringify(event)} does not match: ${JSON.stringify(validate.errors)}`);
    }
  }
  return events;
}

describe('docs/events.schema.json', () => {
  it('is generated from the event types (npm run events-schema)', () => {
    expect(checkedIn).toEqual(eventsJsonSchema());
  });

  it('rejects events that break it (an unknown field, a missing one, a wrong kind)', () => {
    const init = { type: 'init', timestamp: 't', session_id: 's', model: 'm', version: 1 };
    expect(validate(init)).toBe(true);
    expect(validate({ ...init, parent_tool_id: 'call_1' })).toBe(true);
    expect(validate({ ...init, extra: 1 })).toBe(false);
    expect(validate({ type: 'init', timestamp: 't', model: 'm', version: 1 })).toBe(false);
    expect(validate({ type: 'telemetry', timestamp: 't' })).toBe(false);
  });

  it('validates every stream-json line of every fixture', async () => {
    const seen = new Set<string>();
    const names = readdirSync(fixtures).filter((name) => name.endsWith('.jsonl'));
    expect(names.length).toBeGreaterThan(5);
    // Default mode: approvals refused headless add error results to the tool calls.
    const runs = names.map((name) => ({ name, mode: 'default' }));
    // A few at a time, each in a workspace of its own (fixtures write files).
    for (let index = 0; index < runs.length; index += 4) {
      const batch = runs.slice(index, index + 4).map(async ({ name, mode }, offset) => {
        const cwd = join(dirs.root, `w${index + offset}`);
        mkdirSync(cwd);
        const run = await runKodo(
          [
            '-o',
            'stream-json',
            '--approval-mode',
            mode,
            '--fake-responses-non-strict',
            join(fixtures, name),
            '-p',
            'go',
          ],
          {
            cwd,
            env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, GEMINI_API_KEY: 'k' },
            timeoutMs: 30_000,
          },
        );
        return checkLines(run.stdout);
      });
      for (const events of await Promise.all(batch)) for (const event of events) seen.add(event.type);
    }
    expect([...seen].sort()).toEqual(['init', 'message', 'result', 'tool_result', 'tool_use']);
  }, 90_000);

  it('validates stream-json input sessions, budget costs, retries and fatal errors', async () => {
    const mock = await startGeminiMock({
      script: [
        { fault: 'status', status: 503 },
        {
          chunks: [
            geminiChunk([{ text: 'one' }], {
              usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
            }),
          ],
        },
        { chunks: [geminiChunk([{ text: 'two' }])] },
      ],
    });
    try {
      const input = [
        JSON.stringify({ type: 'user', message: { role: 'user', content: 'first' } }),
        '{not json',
        JSON.stringify({
          type: 'user',
          message: { role: 'user', content: [{ type: 'text', text: 'second' }] },
        }),
      ].join('\n');
      const run = await runKodo(
        ['--input-format', 'stream-json', '-o', 'stream-json', '--max-budget-usd', '5'],
        {
          cwd: dirs.workspace,
          env: geminiMockEnv(dirs.home, mock.url),
          input,
        },
      );
      const events = checkLines(run.stdout);
      expect(events.filter((event) => event.type === 'result')).toHaveLength(2);
      expect(events.some((event) => event.type === 'error')).toBe(true);
      const fatal = await runKodo(['-o', 'stream-json', '-p', 'x'], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home },
      });
      expect(checkLines(fatal.stdout).at(-1)).toMatchObject({ type: 'result', status: 'error' });
    } finally {
      await mock.close();
    }
  });

  it('announces an approval-mode switch made by a tool as an approval_mode event, in order', async () => {
    const mock = await startGeminiMock({
      script: [
        { chunks: [geminiChunk([{ functionCall: { name: 'enter_plan_mode', args: { reason: 'risky' } } }])] },
        { chunks: [geminiChunk([{ text: 'Planning now.' }])] },
      ],
    });
    try {
      const run = await runKodo(['-o', 'stream-json', '--approval-mode', 'auto_edit', '-p', 'plan it'], {
        cwd: dirs.workspace,
        env: geminiMockEnv(dirs.home, mock.url),
      });
      const events = checkLines(run.stdout) as { type: string; [field: string]: unknown }[];
      const switched = events.findIndex((event) => event.type === 'approval_mode');
      expect(events[switched]).toMatchObject({ mode: 'plan', previous: 'auto_edit' });
      // Between the tool's call and its result: when it happened, not polled after the turn.
      expect(events.findIndex((event) => event.type === 'tool_use')).toBeLessThan(switched);
      expect(events.findIndex((event) => event.type === 'tool_result')).toBeGreaterThan(switched);
    } finally {
      await mock.close();
    }
  });
});
