// Resume memory: peak RSS and wall time of `kodo --resume <id> -p "continue"` on a generated
// 1,000-turn session whose every turn carries a 64 KiB tool output (~66 MB of JSONL), next to a
// fresh `kodo -p` and to what merely parsing and copying that file once costs. Budget: ≤ 200 MB.
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectId } from '../packages/core/src/config/project';
import { sessionFileName } from '../packages/core/src/session/records';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TURNS = 1_000;
const OUTPUT_BYTES = 64 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const GNU_TIME = '/usr/bin/time';
if (!existsSync(GNU_TIME)) throw new Error('resume bench needs GNU time (/usr/bin/time) for peak RSS');

const home = mkdtempSync(join(tmpdir(), 'kodo-bench-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-cwd-'));
const sessionId = '5e55104e-0000-4000-8000-000000000001';

/** A shell-like output of `bytes` bytes that differs per turn (so nothing dedupes it). */
function toolOutput(turn: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line += 1) {
    const text = `[turn ${turn}] line ${line}: compiled module_${(turn * 7919 + line) % 10007}.ts in ${(line * 13) % 997} ms`;
    lines.push(text);
    size += text.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

/** Session counters in the shape kodo records them, after `turns` turns of one call each. */
function statsAfter(turns: number) {
  const tokens = {
    input: 1000 * turns,
    prompt: 1000 * turns,
    candidates: 40 * turns,
    total: 1040 * turns,
    cached: 0,
    thoughts: 0,
    tool: 0,
  };
  const api = { totalRequests: 2 * turns, totalErrors: 0, totalLatencyMs: 900 * turns, errorsByType: {} };
  const decisions = { accept: turns, reject: 0, modify: 0, auto_accept: 0 };
  return {
    models: {
      'gemini-2.5-pro': {
        api,
        tokens,
        roles: {
          main: {
            totalRequests: api.totalRequests,
            totalErrors: 0,
            totalLatencyMs: api.totalLatencyMs,
            tokens,
          },
        },
      },
    },
    tools: {
      totalCalls: turns,
      totalSuccess: turns,
      totalFail: 0,
      totalDurationMs: 900 * turns,
      totalDecisions: decisions,
      byName: {
        run_shell_command: { count: turns, success: turns, fail: 0, durationMs: 900 * turns, decisions },
      },
    },
    files: { totalLinesAdded: 0, totalLinesRemoved: 0 },
  };
}

/** Writes the session log line by line (the bench itself never holds the file). */
function generateSession(): string {
  const dir = join(home, 'sessions', projectId(cwd));
  mkdirSync(dir, { recursive: true });
  const start = new Date('2026-08-21T10:30:00Z');
  const file = join(dir, sessionFileName(sessionId, start));
  const fd = openSync(file, 'w');
  const write = (value: unknown) => writeSync(fd, `${JSON.stringify(value)}\n`);
  const t = start.toISOString();
  write({
    sessionId,
    projectHash: '0'.repeat(64),
    startTime: t,
    lastUpdated: t,
    kind: 'main',
    directories: [cwd],
  });
  for (let turn = 0; turn < TURNS; turn += 1) {
    const callId = `run_shell_command_${turn}`;
    write({
      id: `u${turn}`,
      timestamp: t,
      type: 'user',
      content: [{ text: `Step ${turn}: run the build again.` }],
    });
    write({
      id: `g${turn}`,
      timestamp: t,
      type: 'gemini',
      content: [
        { text: `Running the build (step ${turn}).` },
        {
          functionCall: {
            id: callId,
            name: 'run_shell_command',
            args: { command: `npm run build -- --step ${turn}` },
          },
        },
      ],
      tokens: { input: 1000 + turn, output: 20, cached: 0, total: 1020 + turn },
      model: 'gemini-2.5-pro',
    });
    write({
      id: `r${turn}`,
      timestamp: t,
      type: 'user',
      content: [
        {
          functionResponse: {
            id: callId,
            name: 'run_shell_command',
            response: { output: `Output: ${toolOutput(turn, OUTPUT_BYTES)}\nExit Code: 0` },
          },
        },
      ],
      toolResults: [{ id: callId, name: 'run_shell_command', status: 'success', durationMs: 900 }],
    });
    write({
      id: `a${turn}`,
      timestamp: t,
      type: 'gemini',
      content: [{ text: `Step ${turn} built cleanly.` }],
    });
    write({ $set: { lastUpdated: t, stats: statsAfter(turn + 1), todos: [] } });
  }
  closeSync(fd);
  return file;
}

interface Sample {
  wallMs: number;
  rssMb: number;
}

async function runOnce(command: string[], env: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  const child = spawn(GNU_TIME, ['-f', '__RSS_KB=%M', ...command], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: home, KODO_TRUST_WORKSPACE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}: ${stderr}\n${stdout}`);
  const rss = /__RSS_KB=(\d+)/.exec(stderr)?.[1];
  if (!rss) throw new Error(`no RSS figure in: ${stderr}`);
  return { wallMs, rssMb: Number(rss) / 1024 };
}

/** The figures mean something only if the session really was resumed (its counters restored). */
async function checkResumeWorks(fake: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [KODO_BIN, '--resume', sessionId, '-p', 'check', '--fake-responses', fake, '-o', 'json'],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: home, KODO_HOME: home, KODO_TRUST_WORKSPACE: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  await new Promise((resolve) => child.on('close', resolve));
  const result = JSON.parse(stdout);
  if (result.session_id !== sessionId || result.stats.tools.totalCalls !== TURNS) {
    throw new Error(`the session was not resumed: ${stdout.slice(0, 500)}`);
  }
}

try {
  const file = generateSession();
  const fileMb = statSync(file).size / (1024 * 1024);
  const fake = join(cwd, 'fake.jsonl');
  const reply = {
    candidates: [
      { content: { role: 'model', parts: [{ text: 'Continuing.' }] }, finishReason: 'STOP', index: 0 },
    ],
  };
  writeFileSync(fake, `${JSON.stringify({ method: 'generateContentStream', response: [reply] })}\n`);
  // What holding the file "once" costs: every line parsed, then the history copied, as a naive
  // loader would (read, split, parse, hand a copy to the chat).
  const naive = join(cwd, 'naive.mjs');
  writeFileSync(
    naive,
    `import { readFileSync } from 'node:fs';
const records = readFileSync(process.argv[2], 'utf8').split('\\n').filter(Boolean).map((line) => JSON.parse(line));
const copy = structuredClone(records.filter((record) => record.type));
if (copy.length === 0) process.exit(1);\n`,
  );
  const env = { KODO_HOME: home };
  const spillDir = join(home, 'tmp', projectId(cwd), 'tool-outputs');
  const cases = [
    {
      label: 'kodo -p "hi" (new session, for scale)',
      command: [process.execPath, KODO_BIN, '-p', 'hi', '--fake-responses', fake],
      cold: false,
    },
    {
      label: 'kodo --resume <id> -p … (first resume: old outputs saved to files)',
      command: [
        process.execPath,
        KODO_BIN,
        '--resume',
        sessionId,
        '-p',
        'continue',
        '--fake-responses',
        fake,
      ],
      cold: true,
    },
    {
      label: 'kodo --resume <id> -p … (saved outputs reused)',
      command: [
        process.execPath,
        KODO_BIN,
        '--resume',
        sessionId,
        '-p',
        'continue',
        '--fake-responses',
        fake,
      ],
      cold: false,
    },
    {
      label: 'reference: node parsing + copying the file once',
      command: [process.execPath, naive, file],
      cold: false,
    },
  ];
  await checkResumeWorks(fake);
  const samples = new Map(cases.map((c) => [c, [] as Sample[]]));
  for (let round = 0; round < RUNS + 1; round += 1) {
    for (const c of cases) {
      if (c.cold) rmSync(spillDir, { recursive: true, force: true });
      const sample = await runOnce(c.command, env);
      if (round > 0) samples.get(c)!.push(sample);
    }
  }
  console.log(
    `${TURNS} turns, one ${OUTPUT_BYTES / 1024} KiB tool output each: ${fmt(fileMb)} MB of JSONL. ${RUNS} runs each (after one warm-up round), medians; peak RSS from GNU time.\n`,
  );
  const rows = cases.map((c) => {
    const runs = samples.get(c)!;
    return {
      c,
      wall: median(runs.map((s) => s.wallMs)),
      rss: median(runs.map((s) => s.rssMb)),
      maxRss: Math.max(...runs.map((s) => s.rssMb)),
    };
  });
  printTable(
    ['run', 'wall (ms)', 'peak RSS (MB, median / max)'],
    rows.map((row) => [row.c.label, fmt(row.wall), `${fmt(row.rss)} / ${fmt(row.maxRss)}`]),
  );
  const resumeMax = Math.max(
    ...rows.filter((row) => row.c.command.includes('--resume')).map((row) => row.maxRss),
  );
  console.log('');
  printTable(
    ['budget', 'figure', 'met'],
    [['resume peak RSS ≤ 200 MB', `${fmt(resumeMax)} MB`, resumeMax <= 200 ? 'yes' : 'NO']],
  );
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
