import { join } from 'node:path';
import { geminiTextReply, runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv, geminiMockPerTest, writeFileIn } from './helpers';

// `kodo models` lists the catalogue and the settings' overrides; budgets price current models
// with it, overrides included.
const dirs = e2eDirs();
const gemini = geminiMockPerTest();
const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: geminiMockEnv(dirs.home, gemini.url) });
const projectSettings = (settings: unknown) =>
  writeFileIn(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify(settings));

const OVERRIDES = {
  providers: {
    local: {
      type: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: ['qwen3-coder'],
      modelOverrides: { 'qwen3-coder': { contextWindow: 32768, price: { input: 0, output: 0 } } },
    },
    gemini: { modelOverrides: { 'gemini-4-neon': { price: { input: 100, output: 1000 } } } },
  },
};

describe('kodo models', () => {
  it('--help answers with the usage and exit 0', async () => {
    const run = await kodo(['models', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: kodo models [provider] [--json]');
  });

  it('--json lists current models with windows, limits, cache prices and capabilities, overrides marked', async () => {
    projectSettings(OVERRIDES);
    const run = await kodo(['models', '--json']);
    expect(run.code).toBe(0);
    const { catalogue, models } = JSON.parse(run.stdout);
    expect(catalogue.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sonnet = models.find((row: { model: string }) => row.model === 'claude-sonnet-5-5');
    expect(sonnet).toMatchObject({
      provider: 'anthropic',
      capabilities: { reasoning: true, images: true, tools: true, responsesApi: false },
      overridden: [],
    });
    expect(sonnet.contextWindow).toBeGreaterThan(100_000);
    expect(sonnet.price.cacheRead).toBeGreaterThan(0);
    expect(models.find((row: { model: string }) => row.model === 'gemini-4-neon')).toMatchObject({
      price: { input: 100, output: 1000 },
      overridden: ['price'],
    });
    expect(models.find((row: { provider: string }) => row.provider === 'local')).toMatchObject({
      model: 'qwen3-coder',
      contextWindow: 32768,
      price: { input: 0, output: 0 },
      overridden: ['contextWindow', 'price'],
    });
  });

  it('the table for one provider says where the data came from', async () => {
    const run = await kodo(['models', 'openai']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Model catalogue: .*models\.dev.*, \d{4}-\d{2}-\d{2}\./);
    expect(run.stdout).toMatch(/\nopenai +gpt-6\.2-sol +\S+ +\S+ +[\d.]+ +[\d.]+/);
    expect(run.stdout).not.toContain('\nanthropic ');
  });

  it('an unknown option is a usage error (exit 42)', async () => {
    const run = await kodo(['models', '--yaml']);
    expect(run.code).toBe(42);
  });
});

describe('budgets and the catalogue', () => {
  const usage = { promptTokenCount: 10_000, candidatesTokenCount: 1_000, totalTokenCount: 11_000 };

  it('a current model has a price; a settings override changes it', async () => {
    const mock = await gemini.start({
      script: [{ chunks: geminiTextReply('hi', { usageMetadata: usage }) }],
    });
    const listed = await kodo(['-p', 'hi', '-m', 'gemini-4-neon', '-o', 'json', '--max-budget-usd', '5']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).not.toContain('is not known');
    const cost = JSON.parse(listed.stdout).cost;
    expect(cost.total_usd).toBeGreaterThan(0);
    expect(cost.total_usd).toBeLessThan(1);

    projectSettings(OVERRIDES);
    mock.setScript([{ chunks: geminiTextReply('hi', { usageMetadata: usage }) }]);
    const overridden = await kodo([
      '-p',
      'hi',
      '-m',
      'gemini-4-neon',
      '-o',
      'json',
      '--max-budget-usd',
      '50',
    ]);
    // 10k prompt tokens at $100/M + 1k output tokens at $1000/M.
    expect(JSON.parse(overridden.stdout).cost.total_usd).toBeCloseTo(2, 5);
  });
});
