/**
 * Context-window discovery and the compact tool profile against a real llama.cpp `llama-server`
 * (the generated tiny Qwen2 model with its Qwen-style chat template; see llama-server.e2e.test.ts):
 * the server's own count of kodo's first request (`usage.prompt_tokens`) is at most 2,000 tokens
 * with the compact profile and far more with the full one; a server started with `-c 4096` gets
 * the compact profile by itself (kodo read `/props`); one whose window cannot hold the request
 * makes kodo say so once, with the `-c` to use.
 *
 * Skipped when llama-server has not been built (`npm run test:llama` builds it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LlamaServer, llamaServerBinary, runKodo, startLlamaServer, tinyModelPath } from '@kodo/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const binary = llamaServerBinary();
if (process.env.KODO_LLAMA_REQUIRED === '1' && !binary)
  throw new Error('llama-server is not built: run `node scripts/llama/build-server.mjs`');

type Json = Record<string, unknown>;

/** The goal for the compact profile's first request, in the server's own tokens. */
const COMPACT_BUDGET = 2_000;

describe.skipIf(!binary)(
  'context windows and the compact profile on llama-server (skipped: llama-server not built; run npm run test:llama)',
  () => {
    const dirs = e2eDirs();
    let large: LlamaServer;
    let small: LlamaServer;
    let tiny: LlamaServer;

    beforeAll(async () => {
      const model = tinyModelPath();
      large = await startLlamaServer({ binary: binary!, model });
      small = await startLlamaServer({ binary: binary!, model, ctxSize: 4096 });
      tiny = await startLlamaServer({ binary: binary!, model, ctxSize: 1024 });
    }, 60_000);
    afterAll(async () => {
      await large?.close();
      await small?.close();
      await tiny?.close();
    });
    beforeEach(() => mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true }));

    const run = async (server: LlamaServer, tools: Json = {}) => {
      writeFileSync(
        join(dirs.workspace, '.kodo', 'settings.json'),
        JSON.stringify({
          providers: { local: { type: 'openai', baseUrl: server.url, models: ['kodo-tiny'] } },
          tools,
        }),
      );
      // --yolo: every tool is declared (headless otherwise hides the edit and shell tools).
      const result = await runKodo(['-m', 'local:kodo-tiny', '-p', 'Say hello', '-o', 'json', '--yolo'], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, HOME: dirs.home, KODO_RETRY_BASE_MS: '5' },
        timeoutMs: 60_000,
      });
      const parsed =
        result.code === 0 ? (JSON.parse(result.stdout) as { stats: { models: Json } }) : undefined;
      const tokens = (parsed?.stats.models['local:kodo-tiny'] as { tokens?: { prompt?: number } } | undefined)
        ?.tokens;
      return { ...result, prompt: tokens?.prompt };
    };

    it(`compact: the first request is at most ${COMPACT_BUDGET} tokens by the server's count; full is far more`, async () => {
      const compact = await run(large, { profile: 'compact' });
      expect(compact.code, `${compact.stderr}\n${large.log().slice(-2000)}`).toBe(0);
      expect(compact.prompt).toBeGreaterThan(500);
      expect(compact.prompt).toBeLessThanOrEqual(COMPACT_BUDGET);
      const full = await run(large);
      expect(full.code, full.stderr).toBe(0);
      expect(full.prompt).toBeGreaterThan(2 * compact.prompt!);
      // A 32k window is not small: no warning, and the full profile is the default.
      expect(full.stderr).toBe('');
    });

    it('a 4k server gets the compact profile by itself (its /props), without a warning', async () => {
      const result = await run(small);
      expect(result.code, result.stderr).toBe(0);
      expect(result.prompt).toBeLessThanOrEqual(COMPACT_BUDGET);
      expect(result.stderr).toBe('');
    });

    it('a window too small for the request: said once, with the -c to use', async () => {
      const result = await run(tiny);
      expect(result.code).not.toBe(0);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('[WARNING]'));
      expect(warnings, result.stderr).toHaveLength(1);
      expect(warnings[0]).toContain('1024-token context window llama-server gives local:kodo-tiny');
      expect(warnings[0]).toContain('-c 16384');
    });
  },
);
