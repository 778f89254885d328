/**
 * The built kodo against a real llama.cpp `llama-server` (built from the pinned node-llama-cpp
 * package's bundle by scripts/llama/build-server.mjs) serving the generated tiny Qwen2 model
 * (scripts/llama/make-model.mjs) with `--jinja`: streamed text with reasoning_content, a tool
 * call forced by `toolChoice: "required"` and answered through the chat template's tool
 * message, usage figures, the server's own error bodies (context too long; tools refused by a
 * server without Jinja), and Ctrl-C mid-stream.
 *
 * `npm run test:llama` builds the server first (minutes, then cached) and runs this file;
 * plain `npm test` skips it when the binary has not been built.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KODO_BIN,
  type LlamaServer,
  llamaServerBinary,
  runKodo,
  startLlamaServer,
  tinyModelFacts,
  tinyModelPath,
} from '@kodo/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { e2eDirs, spawnedKodoEnv } from './helpers';

const binary = llamaServerBinary();
const required = process.env.KODO_LLAMA_REQUIRED === '1';
if (required && !binary)
  throw new Error('llama-server is not built: run `node scripts/llama/build-server.mjs`');
const facts = tinyModelFacts();

type Json = Record<string, unknown>;

describe.skipIf(!binary)(
  'kodo against llama-server (skipped: llama-server not built; run npm run test:llama)',
  () => {
    const dirs = e2eDirs();
    let server: LlamaServer;
    let small: LlamaServer;
    let plain: LlamaServer;

    beforeAll(async () => {
      const model = tinyModelPath();
      server = await startLlamaServer({ binary: binary!, model });
      // A context too small for kodo's system prompt, for the server's context-size error.
      small = await startLlamaServer({ binary: binary!, model, ctxSize: 512 });
      // Started the way many users first try it: without --jinja, so it refuses tools.
      plain = await startLlamaServer({ binary: binary!, model, jinja: false });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await small?.close();
      await plain?.close();
    });

    const settings = (profile: Json) => {
      mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
      writeFileSync(
        join(dirs.workspace, '.kodo', 'settings.json'),
        JSON.stringify({
          providers: { local: { type: 'openai', models: ['kodo-tiny'], ...profile } },
          // Whatever tool the grammar picks, only read-only tools may run.
          tools: { core: ['read_file', 'list_directory', 'glob', 'grep_search'] },
        }),
      );
    };
    const kodo = (args: string[], env: Record<string, string | undefined> = {}) =>
      runKodo(['-m', 'local:kodo-tiny', ...args], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, HOME: dirs.home, KODO_RETRY_BASE_MS: '5', ...env },
        timeoutMs: 60_000,
      });
    const recorded = (file: string): Json[] =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Json);
    const parts = (entry: Json): Json[] =>
      ((entry.response as Json[]) ?? []).flatMap(
        (chunk) =>
          ((chunk.candidates as Json[] | undefined)?.[0]?.content as { parts?: Json[] })?.parts ?? [],
      );

    beforeEach(() => {
      writeFileSync(join(dirs.workspace, 'a.txt'), 'alpha\n');
      settings({ baseUrl: server.url });
    });

    it('streams the answer, keeps reasoning_content as a thought, and reports usage', async () => {
      const record = join(dirs.root, 'text.jsonl');
      const run = await kodo(['-p', 'Say hello', '-o', 'json', '--record-responses', record]);
      expect(run.stderr, server.log().slice(-2000)).toBe('');
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as { response: string; stats: { models: Record<string, Json> } };
      expect(result.response).toBe(facts.answer);
      const [entry] = recorded(record);
      const all = parts(entry!);
      expect(
        all
          .filter((p) => p.thought)
          .map((p) => p.text)
          .join(''),
      ).toBe(facts.reasoning);
      expect(
        all
          .filter((p) => !p.thought && typeof p.text === 'string')
          .map((p) => p.text)
          .join(''),
      ).toBe(facts.answer);
      const tokens = result.stats.models['local:kodo-tiny']?.tokens as Json;
      // kodo's system prompt and tool declarations, tokenized by the server.
      expect(tokens.prompt).toBeGreaterThan(1000);
      expect(tokens.candidates).toBeGreaterThan(5);
    });

    it('forces a tool call with toolChoice "required", runs it, and answers after the tool message', async () => {
      settings({ baseUrl: server.url, toolChoice: 'required' });
      const record = join(dirs.root, 'tool.jsonl');
      const run = await kodo(['-p', 'Look at a.txt', '-o', 'json', '--yolo', '--record-responses', record]);
      expect(run.code, `${run.stderr}\n${server.log().slice(-3000)}`).toBe(0);
      const result = JSON.parse(run.stdout) as { response: string; stats: { tools: { totalCalls: number } } };
      expect(result.stats.tools.totalCalls).toBe(1);
      expect(result.response).toBe(facts.answer);
      const [first, second] = recorded(record);
      const call = parts(first!).find((p) => p.functionCall)?.functionCall as { name: string; args: Json };
      expect(call.name).toMatch(/^[a-z_]+$/);
      expect(typeof call.args).toBe('object');
      // The second request carried the tool result: the server rendered it and the model answered.
      expect(parts(second!).some((p) => p.functionCall)).toBe(false);
    });

    it('shows the server error when the conversation exceeds its context', async () => {
      settings({ baseUrl: small.url });
      const run = await kodo(['-p', 'hi']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/context/i);
      expect(run.stderr).toMatch(/512/);
      expect(run.stderr).not.toMatch(/at .*\.(c?js|ts):\d+/);
    });

    it('says to add --jinja when the server refuses tools, without retrying', async () => {
      settings({ baseUrl: plain.url });
      const started = Date.now();
      // Real retry delays: a retried request would take seconds.
      const run = await kodo(['-p', 'hi'], { KODO_RETRY_BASE_MS: undefined });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('start llama-server with --jinja');
      expect(run.stderr).not.toMatch(/retry/i);
      expect(Date.now() - started).toBeLessThan(8_000);
    });

    it('stops on Ctrl-C mid-stream, and the server serves the next request', async () => {
      const child = spawn(
        process.execPath,
        [KODO_BIN, '-m', 'local:kodo-tiny', '-p', `${facts.loopMarker} sing`],
        {
          cwd: dirs.workspace,
          env: spawnedKodoEnv(dirs.home),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      let interruptedAt = 0;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (!interruptedAt && stdout.includes(facts.loopWord.repeat(5))) {
          interruptedAt = Date.now();
          child.kill('SIGINT');
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(interruptedAt, stderr).toBeGreaterThan(0);
      expect(code).toBe(130);
      expect(Date.now() - interruptedAt).toBeLessThan(5_000);
      expect(stderr).toContain('Operation cancelled.');
      const next = await kodo(['-p', 'Say hello']);
      expect(next.stdout).toBe(`${facts.answer}\n`);
    });
  },
);
