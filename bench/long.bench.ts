// Long sessions: a replayed session of N tool turns (a read_file with different arguments each
// turn, usage figures that grow like a real conversation's, then an answer), run as
// `kodo -p … -y -o stream-json --fake-responses`. Prints wall time, the time per turn at the
// start and at the end of the session (the mean gap between the first and the last 100 tool
// calls, from the stream's timestamps), kodo's own CPU time per turn over the last 100 (noted at
// each tool call by bench/long-cpu.cjs, so a loaded machine's waits stay out of it), what is
// inherent to a request that late (serialising the history, which every provider must send),
// and peak RSS. Budgets: per-turn time at N = 1,600 within 1.5× of N = 100; 1,600 turns ≤ 8 s;
// RSS ≤ 100 MB.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, printTable } from './table';

const SIZES = (process.env.BENCH_LONG_SIZES ?? '100,400,1600,6400').split(',').map(Number);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const CPU_PRELOAD = join(root, 'bench', 'long-cpu.cjs');
const GNU_TIME = '/usr/bin/time';
if (!existsSync(GNU_TIME)) throw new Error('long bench needs GNU time (/usr/bin/time) for peak RSS');

function script(turns: number): string {
  const lines: string[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const prompt = 2_000 + turn * 150;
    lines.push(
      JSON.stringify({
        method: 'generateContentStream',
        response: [
          {
            candidates: [
              {
                content: {
                  role: 'model',
                  parts: [
                    {
                      functionCall: {
                        name: 'read_file',
                        args: { file_path: 'notes.txt', start_line: 1 + (turn % 40) },
                      },
                    },
                  ],
                },
                finishReason: 'STOP',
                index: 0,
              },
            ],
            usageMetadata: {
              promptTokenCount: prompt,
              candidatesTokenCount: 20,
              totalTokenCount: prompt + 20,
            },
          },
        ],
      }),
    );
  }
  lines.push(
    JSON.stringify({
      method: 'generateContentStream',
      response: [
        {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP', index: 0 },
          ],
        },
      ],
    }),
  );
  return `${lines.join('\n')}\n`;
}

interface Run {
  wallMs: number;
  rssMb: number;
  firstMsPerTurn: number;
  lastMsPerTurn: number;
  lastCpuMsPerTurn: number;
  serialiseMs: number;
  requestMb: number;
}

/** The history as the session log holds it at the end (records, upserts by id, `$set` lists). */
function loggedHistory(sessionsDir: string): { role: string; parts: unknown[] }[] {
  const [dir] = readdirSync(sessionsDir);
  const [file] = readdirSync(join(sessionsDir, dir!));
  const messages = new Map<string, { type: string; content: unknown[] }>();
  for (const text of readFileSync(join(sessionsDir, dir!, file!), 'utf8').split('\n')) {
    if (text === '') continue;
    const line = JSON.parse(text) as {
      id?: string;
      type?: string;
      content?: unknown[];
      $set?: { messages?: [] };
    };
    if (line.$set?.messages) {
      messages.clear();
      for (const message of line.$set.messages as { id: string; type: string; content: unknown[] }[]) {
        messages.set(message.id, message);
      }
    } else if (line.id && (line.type === 'user' || line.type === 'gemini')) {
      messages.set(line.id, { type: line.type, content: line.content ?? [] });
    }
  }
  return [...messages.values()].map((message) => ({
    role: message.type === 'gemini' ? 'model' : 'user',
    parts: message.content,
  }));
}

/** Fastest of 15 JSON.stringify runs over the request's contents: the least a provider does per request. */
function serialiseTime(contents: unknown[]): { ms: number; mb: number } {
  let best = Number.POSITIVE_INFINITY;
  let size = 0;
  for (let i = 0; i < 15; i += 1) {
    const started = performance.now();
    size = JSON.stringify({ contents }).length;
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, mb: size / 1024 / 1024 };
}

async function run(turns: number): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-long-'));
  const home = mkdtempSync(join(tmpdir(), 'kodo-bench-long-home-'));
  // The per-prompt turn limit (100 by default) would stop the replay long before its end.
  mkdirSync(join(home, '.kodo'), { recursive: true });
  writeFileSync(
    join(home, '.kodo', 'settings.json'),
    JSON.stringify({ model: { maxTurnsPerPrompt: 1_000_000 } }),
  );
  writeFileSync(
    join(cwd, 'notes.txt'),
    Array.from({ length: 60 }, (_, i) => `line ${i}: some notes`).join('\n'),
  );
  const fixture = join(cwd, '..', `long-${turns}-${process.pid}.jsonl`);
  const cpuFile = join(cwd, '..', `long-${turns}-${process.pid}.cpu.json`);
  writeFileSync(fixture, script(turns));
  const started = performance.now();
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      GNU_TIME,
      [
        '-f',
        '%M',
        process.execPath,
        '--require',
        CPU_PRELOAD,
        KODO_BIN,
        '-p',
        'go',
        '-y',
        '-o',
        'stream-json',
        '--fake-responses',
        fixture,
      ],
      {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          KODO_HOME: join(home, '.kodo'),
          KODO_TRUST_WORKSPACE: 'true',
          KODO_BENCH_CPU_FILE: cpuFile,
        },
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stdout: out, stderr: err }) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
  const wallMs = performance.now() - started;
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8')) as number[];
  const inherent = serialiseTime(loggedHistory(join(home, '.kodo', 'sessions')));
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  rmSync(fixture, { force: true });
  rmSync(cpuFile, { force: true });
  const times = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; timestamp: string })
    .filter((event) => event.type === 'tool_use')
    .map((event) => Date.parse(event.timestamp));
  const window = Math.min(100, Math.floor(times.length / 2));
  const gap = (slice: number[]) => (slice.at(-1)! - slice[0]!) / (slice.length - 1);
  return {
    wallMs,
    rssMb: Number(stderr.trim().split('\n').at(-1)) / 1024,
    firstMsPerTurn: gap(times.slice(0, window)),
    lastMsPerTurn: gap(times.slice(-window)),
    lastCpuMsPerTurn: gap(cpu.slice(-window)),
    serialiseMs: inherent.ms,
    requestMb: inherent.mb,
  };
}

const rows: (string | number)[][] = [];
let baseline: Run | undefined;
for (const turns of SIZES) {
  const result = await run(turns);
  baseline ??= result;
  rows.push([
    turns,
    fmt(result.wallMs / 1000, 2),
    fmt(result.firstMsPerTurn, 2),
    fmt(result.lastMsPerTurn, 2),
    `${fmt(result.lastMsPerTurn / baseline.lastMsPerTurn, 2)}×`,
    fmt(result.lastCpuMsPerTurn, 2),
    `${fmt(result.lastCpuMsPerTurn / baseline.lastCpuMsPerTurn, 2)}×`,
    `${fmt(result.serialiseMs, 2)} (${fmt(result.requestMb, 2)} MB)`,
    fmt(result.rssMb),
  ]);
}
printTable(
  [
    'turns',
    'wall (s)',
    'ms/turn, first 100',
    'ms/turn, last 100',
    'last vs N=100',
    'CPU ms/turn, last 100',
    'CPU vs N=100',
    'inherent: serialise last request (ms)',
    'peak RSS (MB)',
  ],
  rows,
);
