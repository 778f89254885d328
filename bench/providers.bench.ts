// Providers: what each provider costs before the first request: launch → first request received
// by the mock for `kodo -p "hi"` on each provider, round-robin against the floor (a bare
// node:http request). Budget: every provider within issue O's first-request budget (2.0× the
// floor on Node 20; FIRST_REQUEST_BUDGET in table.ts), like the Gemini client.
// (kodo ships no provider SDK; docs/performance.md records what the official SDKs cost.)
// The mocks listen on 127.0.0.1, and an OpenAI-type URL that is not OpenAI's or OpenRouter's is a
// local server to kodo: before its first chat request it asks the server for the model's context
// window (docs/providers.md): four probes in three round trips, all answered 404 here. So the
// OpenAI row measures the path of a local server (llama.cpp, vLLM, LM Studio), not of
// api.openai.com, which skips the probes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  anthropicTextReply,
  geminiTextReply,
  openaiTextReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
} from '@kodo/testkit';
import { FIRST_REQUEST_BUDGET, fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 3;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const floorClient = join(root, 'bench', 'floor-client.mjs');
const work = mkdtempSync(join(root, '.kodo-bench', 'providers-'));

interface Case {
  label: string;
  command: string[];
  env: Record<string, string>;
  /** Receipt times of the mock this case talks to, when it sends a request. */
  received?: () => number[];
}

async function runOnce(c: Case): Promise<{ firstRequestMs: number | undefined; totalMs: number }> {
  const before = c.received?.().length ?? 0;
  const started = performance.now();
  const child = spawn(c.command[0]!, c.command.slice(1), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...c.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: work,
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const totalMs = performance.now() - started;
  if (code !== 0) throw new Error(`${c.label} exited ${code}: ${stderr}`);
  const at = c.received?.().slice(before)[0];
  return { firstRequestMs: at !== undefined ? at - started : undefined, totalMs };
}

async function measure(cases: Case[]) {
  const samples = new Map<Case, { first: number[]; total: number[] }>(
    cases.map((c) => [c, { first: [], total: [] }]),
  );
  for (let round = 0; round < RUNS + WARMUP; round += 1) {
    for (const c of cases) {
      const sample = await runOnce(c);
      if (round < WARMUP) continue;
      samples.get(c)!.total.push(sample.totalMs);
      if (sample.firstRequestMs !== undefined) samples.get(c)!.first.push(sample.firstRequestMs);
    }
  }
  return cases.map((c) => {
    const s = samples.get(c)!;
    return { label: c.label, first: s.first.length ? median(s.first) : undefined, total: median(s.total) };
  });
}

console.log(`${RUNS} runs each, medians.\n`);

const gemini = await startGeminiMock();
const openai = await startOpenAIMock();
const anthropic = await startAnthropicMock();
const steps = RUNS + WARMUP + 4;
gemini.setScript(Array.from({ length: steps * 2 }, () => ({ chunks: geminiTextReply('hello') })));
openai.setScript(Array.from({ length: steps * 2 }, () => ({ chunks: openaiTextReply('hello') })));
anthropic.setScript(Array.from({ length: steps * 2 }, () => ({ chunks: anthropicTextReply('hello') })));
const home = mkdtempSync(join(tmpdir(), 'kodo-bench-home-'));
const base = {
  KODO_HOME: home,
  KODO_TRUST_WORKSPACE: 'true',
  GEMINI_API_KEY: 'bench',
  OPENAI_API_KEY: 'bench',
  ANTHROPIC_API_KEY: 'bench',
  GOOGLE_GEMINI_BASE_URL: gemini.url,
  OPENAI_BASE_URL: openai.url,
  ANTHROPIC_BASE_URL: anthropic.url,
  FLOOR_BASE_URL: gemini.url,
};
const at = (mock: { requests: { receivedAt: number }[] }) => () => mock.requests.map((r) => r.receivedAt);
const kodo = (label: string, model: string, env: Record<string, string>, received: () => number[]): Case => ({
  label,
  command: [process.execPath, KODO_BIN, '-p', 'hi', '-m', model],
  env: { ...base, ...env },
  received,
});
try {
  const rows = await measure([
    {
      label: 'floor: node + node:http request',
      command: [process.execPath, floorClient],
      env: base,
      received: at(gemini),
    },
    kodo('kodo, gemini', 'gemini-test', {}, at(gemini)),
    kodo('kodo, openai:gpt-test (local URL: context probes first)', 'openai:gpt-test', {}, at(openai)),
    kodo('kodo, anthropic:claude-test', 'anthropic:claude-test', {}, at(anthropic)),
  ]);
  const floor = rows[0]!;
  const limit = `${fmt(FIRST_REQUEST_BUDGET)}×`;
  printTable(
    ['run', 'launch → first request (ms)', 'wall (ms)', 'vs floor', `≤ ${limit} floor`],
    rows.map((row) => {
      const ratio = row.first !== undefined && floor.first ? row.first / floor.first : undefined;
      return [
        row.label,
        row.first !== undefined ? fmt(row.first) : '-',
        fmt(row.total),
        ratio !== undefined ? `${fmt(ratio, 2)}×` : '-',
        row === floor || ratio === undefined ? '-' : ratio <= FIRST_REQUEST_BUDGET ? 'yes' : 'NO',
      ];
    }),
  );
  const providers = rows.filter((row) => row !== floor);
  const met = providers.every(
    (row) => row.first !== undefined && floor.first && row.first <= FIRST_REQUEST_BUDGET * floor.first,
  );
  console.log('');
  printTable(['budget', 'met'], [[`every provider: first request ≤ ${limit} floor`, met ? 'yes' : 'NO']]);
} finally {
  await Promise.all([gemini.close(), openai.close(), anthropic.close()]);
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
