// The first model request of `kodo -p hi` per family (issue P): its size and the fields that
// decide how the model works (thinking, reasoning, sampling, caching, the wire API), read from
// the testkit's mocks. `KODO_BENCH_BIN=<path to kodo.cjs>` measures another build (an older
// kodo, to compare before and after); `KODO_BENCH_OPENAI_WIRE=chat` sends OpenAI to the Chat
// Completions mock (an older kodo knows no other); `KODO_BENCH_ARGS="--yolo"` adds flags (with
// --yolo the edit tools, apply_patch among them, are declared).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  anthropicTextReply,
  geminiTextReply,
  openaiTextReply,
  responsesTextReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
  startOpenAIResponsesMock,
} from '@kodo/testkit';
import { headlessBenchEnv } from './headless-env';
import { printTable } from './table';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = process.env.KODO_BENCH_BIN ?? join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const chatWire = process.env.KODO_BENCH_OPENAI_WIRE === 'chat';
const extraArgs = (process.env.KODO_BENCH_ARGS ?? '').split(' ').filter(Boolean);

type Json = Record<string, unknown>;
interface Mock {
  url: string;
  requests: { path: string; body: unknown; headers: Record<string, unknown> }[];
  push(...steps: { chunks: Json[] }[]): void;
  close(): Promise<void>;
}

const gemini = (await startGeminiMock()) as unknown as Mock;
const anthropic = (await startAnthropicMock()) as unknown as Mock;
const openai = (chatWire ? await startOpenAIMock() : await startOpenAIResponsesMock()) as unknown as Mock;

interface Family {
  label: string;
  model: string;
  mock: Mock;
  reply: Json[];
  env: Record<string, string>;
  settings?: Json;
}

const families: Family[] = [
  {
    label: 'Gemini 2.5',
    model: 'gemini-2.5-pro',
    mock: gemini,
    reply: geminiTextReply('ok') as Json[],
    env: {},
  },
  {
    label: 'Gemini 3',
    model: 'gemini-3.1-pro-preview',
    mock: gemini,
    reply: geminiTextReply('ok') as Json[],
    env: {},
  },
  {
    label: 'Anthropic',
    model: 'anthropic:claude-sonnet-4-5',
    mock: anthropic,
    reply: anthropicTextReply('ok'),
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: anthropic.url },
  },
  {
    label: 'OpenAI',
    model: 'openai:gpt-5',
    mock: openai,
    reply: chatWire ? openaiTextReply('ok') : responsesTextReply('ok'),
    env: { OPENAI_API_KEY: 'bench', ...(chatWire ? { OPENAI_BASE_URL: openai.url } : {}) },
    ...(chatWire
      ? {}
      : { settings: { providers: { openai: { baseUrl: openai.url, wireApi: 'responses' } } } }),
  },
];

/** The fields of a request body that say how the model is asked to work. */
function fieldsOf(body: Json, headers: Record<string, unknown>): string {
  const picked: Json = {};
  for (const key of [
    'generationConfig',
    'thinking',
    'max_tokens',
    'reasoning',
    'reasoning_effort',
    'store',
    'include',
    'prompt_cache_key',
    'temperature',
  ]) {
    if (body[key] !== undefined) picked[key] = body[key];
  }
  if (headers['anthropic-beta']) picked['anthropic-beta'] = headers['anthropic-beta'];
  return JSON.stringify(picked).replace(/"prompt_cache_key":"[^"]+"/, '"prompt_cache_key":"<session id>"');
}

async function firstRequest(family: Family) {
  const home = mkdtempSync(join(tmpdir(), 'kodo-bench-first-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-first-'));
  if (family.settings) writeFileSync(join(home, 'settings.json'), JSON.stringify(family.settings));
  family.mock.push({ chunks: family.reply });
  const before = family.mock.requests.length;
  const child = spawn(process.execPath, [KODO_BIN, '-p', 'hi', '-m', family.model, ...extraArgs], {
    cwd,
    env: { ...headlessBenchEnv(home, gemini.url), ...family.env },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  if (code !== 0) throw new Error(`kodo exited ${code} for ${family.label}`);
  const request = family.mock.requests[before]!;
  const body = request.body as Json;
  return {
    path: request.path.split('?')[0]!,
    bytes: JSON.stringify(body).length,
    fields: fieldsOf(body, request.headers),
  };
}

try {
  const rows: string[][] = [];
  for (const family of families) {
    const run = await firstRequest(family);
    rows.push([family.label, family.model, run.path, (run.bytes / 1024).toFixed(1), run.fields]);
  }
  printTable(['family', 'model', 'endpoint', 'body (KB)', 'fields'], rows);
} finally {
  await Promise.all([gemini.close(), anthropic.close(), openai.close()]);
}
