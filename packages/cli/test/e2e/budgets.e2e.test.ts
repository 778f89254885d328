import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GeminiMock,
  geminiFunctionCallReply,
  geminiTextReply,
  runKodo,
  startGeminiMock,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

// Hard budgets end a headless run between steps with exit code 45, a clear message, and the
// session log on disk.
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
beforeEach(() => writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n'));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock?.url) });

const usage = (prompt: number, output = 10) => ({
  usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output },
});
const readA = (prompt = 100) => ({
  chunks: geminiFunctionCallReply('read_file', { file_path: 'a.txt' }, usage(prompt)),
});

function sessionLog(): string {
  const root = join(dirs.home, 'sessions');
  const [project] = readdirSync(root);
  const [file] = readdirSync(join(root, project!));
  return readFileSync(join(root, project!, file!), 'utf8');
}

describe('budgets', () => {
  it('--max-tool-calls refuses the batch that would pass it: exit 45, message, history saved', async () => {
    mock = await startGeminiMock({ script: [readA(), readA(), { chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', 'read twice', '--max-tool-calls', '1']);
    expect(run.code).toBe(45);
    expect(run.stderr).toContain(
      '[ERROR] Tool call budget reached: 1 of 1 tool calls made, and the model asked for 1 more. The session was stopped.',
    );
    expect(mock.requests).toHaveLength(2);
    expect(mock.remaining).toBe(1);
    const log = sessionLog();
    expect(log).toContain('read twice');
    expect(log).toContain('The session was stopped before this call ran.');
  });

  it('--max-tokens stops before the next request; -o json keeps the answer, stats and cost', async () => {
    mock = await startGeminiMock({ script: [readA(5_000), { chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', 'go', '-o', 'json', '--max-tokens', '1000']);
    expect(run.code).toBe(45);
    const output = JSON.parse(run.stdout);
    expect(output.error).toEqual({
      type: 'BUDGET_EXCEEDED',
      message: 'Token budget reached: 5,010 tokens used of 1,000 allowed.',
    });
    // gemini-2.5-pro: $1.25 per million prompt tokens, $10 per million output tokens.
    expect(output.cost).toEqual({ total_usd: 0.00635, models: { 'gemini-2.5-pro': 0.00635 } });
    expect(output.stats.models['gemini-2.5-pro'].tokens.total).toBe(5_010);
    expect(mock.requests).toHaveLength(1);
  });

  it('budgets.maxBudgetUsd in settings: stream-json reports the stop as the result', async () => {
    mkdirSync(join(dirs.workspace, '.kodo'));
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ budgets: { maxBudgetUsd: 0.01 } }),
    );
    mock = await startGeminiMock({ script: [readA(10_000), { chunks: geminiTextReply('never') }] });
    const run = await kodo(['-p', 'go', '-o', 'stream-json']);
    expect(run.code).toBe(45);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const result = events.at(-1);
    expect(result).toMatchObject({
      type: 'result',
      status: 'error',
      error: {
        type: 'BudgetExceededError',
        message: 'Cost budget reached: $0.0126 spent of $0.0100 allowed.',
      },
      stats: { cost: { total_usd: 0.0126 } },
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_result', status: 'error' }));
  });

  it('the flag wins over the setting, and --max-time counts from the first prompt', async () => {
    mkdirSync(join(dirs.workspace, '.kodo'));
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({ budgets: { maxTime: '1h' } }),
    );
    mock = await startGeminiMock({
      script: [{ ...readA(), initialDelayMs: 400 }, { chunks: geminiTextReply('never') }],
    });
    const run = await kodo(['-p', 'go', '--max-time', '300ms']);
    expect(run.code).toBe(45);
    expect(run.stderr).toMatch(/\[ERROR\] Time budget reached: 0\.\d s elapsed of 0\.3 s allowed\./);
    expect(mock.requests).toHaveLength(1);
  });

  it('rejects a budget that is not a positive number', async () => {
    const run = await kodo(['-p', 'go', '--max-tool-calls', '2.5']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'Invalid value for --max-tool-calls: "2.5" (expected a positive whole number)',
    );
    const time = await kodo(['-p', 'go', '--max-time', 'soon']);
    expect(time.stderr).toContain('Invalid value for --max-time: "soon"');
  });
});
