import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GeminiMock, geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv } from './helpers';

/**
 * Issue N, "A dollar budget counts an unpriced model as free": a model missing from the price
 * table cost $0 to the budget, so `--max-budget-usd` never tripped. With a dollar budget and no
 * known price kodo refuses before sending anything: one line naming the model and the settings
 * key that gives it a price, exit 46.
 */
const dirs = e2eDirs();
let mock: GeminiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, mock?.url) });
const projectSettings = (settings: unknown) => {
  mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(settings));
};
const expensive = {
  usageMetadata: { promptTokenCount: 1_000_000, candidatesTokenCount: 1_000_000, totalTokenCount: 2_000_000 },
};

describe('a dollar budget and a model without a price', () => {
  /** The refusal as each output format carries it: one stderr line, or the error object's message. */
  const refusalOf: Record<string, (run: { stdout: string; stderr: string }) => string> = {
    text: (run) => {
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      return lines[0]!;
    },
    json: (run) => JSON.parse(run.stderr).error.message,
    'stream-json': (run) => JSON.parse(run.stdout.trim().split('\n').at(-1)!).error.message,
  };

  it.each([
    ['text', []],
    ['json', ['-o', 'json']],
    ['stream-json', ['-o', 'stream-json']],
  ])('--max-budget-usd with an unpriced model sends nothing and exits 46 (%s)', async (format, output) => {
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('spent', expensive) }] });
    const run = await kodo(['-p', 'hi', '-m', 'gemini-unpriced-9', '--max-budget-usd', '0.01', ...output]);
    expect(run.code).toBe(46);
    expect(mock.requests).toHaveLength(0);
    const refusal = refusalOf[format]!(run);
    expect(refusal).not.toContain('\n');
    expect(refusal).toContain('The price of gemini-unpriced-9 is not known');
    expect(refusal).toContain('providers.gemini.modelOverrides.gemini-unpriced-9.price');
    expect(run.stdout).not.toContain('spent');
  });

  it('budgets.maxBudgetUsd in settings is refused the same way', async () => {
    projectSettings({ budgets: { maxBudgetUsd: 0.01 } });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('spent', expensive) }] });
    const run = await kodo(['-p', 'hi', '-m', 'gemini-unpriced-9']);
    expect(run.code).toBe(46);
    expect(mock.requests).toHaveLength(0);
    expect(run.stderr).toContain('providers.gemini.modelOverrides.gemini-unpriced-9.price');
  });

  it('with --fake-responses too: nothing is replayed', async () => {
    const fake = join(dirs.workspace, 'fake.jsonl');
    writeFileSync(
      fake,
      `${JSON.stringify({ method: 'generateContentStream', response: [{ candidates: [{ content: { role: 'model', parts: [{ text: 'spent' }] } }], ...expensive }] })}\n`,
    );
    const run = await kodo([
      '-p',
      'hi',
      '-m',
      'gemini-unpriced-9',
      '--max-budget-usd',
      '1',
      '--fake-responses',
      fake,
    ]);
    expect(run.code).toBe(46);
    expect(run.stdout).not.toContain('spent');
  });

  it('controls: a price from the settings, or no dollar budget, runs as before', async () => {
    projectSettings({
      providers: { gemini: { modelOverrides: { 'gemini-unpriced-9': { price: { input: 1, output: 1 } } } } },
    });
    mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('priced', expensive) }] });
    const priced = await kodo(['-p', 'hi', '-m', 'gemini-unpriced-9', '--max-budget-usd', '5']);
    expect(priced.code).toBe(0);
    expect(priced.stdout).toContain('priced');

    projectSettings({});
    mock.setScript([{ chunks: geminiTextReply('free', expensive) }]);
    const unbudgeted = await kodo(['-p', 'hi', '-m', 'gemini-unpriced-9']);
    expect(unbudgeted.code).toBe(0);
    expect(unbudgeted.stdout).toContain('free');
  });
});
