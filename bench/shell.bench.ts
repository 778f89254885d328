// Shell output memory: big outputs through the real run_shell_command tool, each run in a fresh
// child process so the peak RSS (VmHWM) is the tool's alone, not the bench's or the command's.
// Reports wall time, peak RSS, what the model received and the size of the saved full output.
// Usage: node bench/run.mjs shell   (BENCH_RUNS=n to change the repetitions, default 3)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellTool } from '../packages/core/src/tools/builtin/shell';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../packages/core/src/tools/output-limit';
import { BackgroundJobs } from '../packages/core/src/tools/shell/background-jobs';
import { Workspace } from '../packages/core/src/tools/workspace';
import { sanitizeEnv } from '../packages/core/src/utils/env';
import { fmt, median, printTable } from './table';

const CHILD_ENV = 'KODO_SHELL_BENCH_COMMAND';
const RSS_BUDGET_MB = 150;

interface Sample {
  ok: boolean;
  wallMs: number;
  peakRssMb: number;
  modelChars: number;
  outputChars: number;
  savedBytes: number;
  liveChunks: number;
}

/** Child side: run one command through the tool and report. */
async function runChild(command: string): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'kodo-shell-bench-'));
  const tempDir = join(root, '.tmp');
  try {
    const ctx = {
      workspace: new Workspace({ roots: [root], tempDir }),
      env: sanitizeEnv(process.env),
      shellInactivityTimeoutMs: 300_000,
      shell: {
        jobs: new BackgroundJobs({ logDir: join(tempDir, 'background-processes') }),
        outputLimit: { thresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS, spillDir: tempDir },
      },
    };
    const built = shellTool.build({ command }, ctx);
    if (!built.ok) throw new Error(built.error.message);
    let liveChunks = 0;
    let outputChars = 0;
    const started = process.hrtime.bigint();
    const result = await built.invocation.execute({
      signal: new AbortController().signal,
      // What a front end would do with live output: look at it and let it go.
      onOutput: (chunk) => {
        liveChunks += 1;
        outputChars += chunk.length;
      },
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const content = typeof result.llmContent === 'string' ? result.llmContent : '';
    const saved = /For full output see: (\S+)/.exec(content)?.[1];
    const sample: Sample = {
      ok: result.error === undefined && content.includes('Process Group PGID'),
      wallMs,
      peakRssMb: vmHwmMb(),
      modelChars: content.length,
      outputChars,
      savedBytes: saved ? statSync(saved).size : 0,
      liveChunks,
    };
    process.stdout.write(`${JSON.stringify(sample)}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Peak resident set size of this process so far, from /proc. */
function vmHwmMb(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function sample(command: string): Promise<Sample> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: command },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench child for ${command} exited ${code}`);
  return JSON.parse(out) as Sample;
}

async function runBench(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const cases = [
    { note: 'baseline: node + the tool', command: 'true' },
    { note: '2 MB', command: 'yes | head -n 1000000' },
    { note: '6.9 MB', command: 'seq 1 1000000' },
    { note: '100 MB', command: 'yes | head -n 50000000' },
  ];
  // Markdown: a pipe inside a table cell must be escaped.
  const cell = (command: string, note: string) => `\`${command.replace(/\|/g, '\\|')}\` (${note})`;
  const rows: (string | number)[][] = [];
  const budget: [string, boolean][] = [];
  for (const { note, command } of cases) {
    const label = cell(command, note);
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++) samples.push(await sample(command));
    const peak = Math.max(...samples.map((s) => s.peakRssMb));
    const last = samples.at(-1)!;
    rows.push([
      label,
      fmt(median(samples.map((s) => s.wallMs))),
      `${fmt(median(samples.map((s) => s.peakRssMb)))} / ${fmt(peak)}`,
      last.modelChars.toLocaleString('en-US'),
      last.savedBytes.toLocaleString('en-US'),
      `${last.liveChunks} (${last.outputChars.toLocaleString('en-US')})`,
    ]);
    if (command !== 'true') {
      budget.push([`${label}: completes`, samples.every((s) => s.ok)]);
      budget.push([`${label}: peak RSS ≤ ${RSS_BUDGET_MB} MB`, peak <= RSS_BUDGET_MB]);
    }
  }
  console.log(
    `${runs} runs each, medians; peak RSS is VmHWM of the node process running the tool (median / max); ` +
      `threshold ${DEFAULT_OUTPUT_THRESHOLD_CHARS.toLocaleString('en-US')} chars.\n`,
  );
  printTable(
    [
      'command',
      'wall (ms)',
      'peak RSS (MB)',
      'model got (chars)',
      'full output saved (bytes)',
      'live-view events (chars)',
    ],
    rows,
  );
  console.log('');
  printTable(
    ['budget', 'met'],
    budget.map(([name, ok]) => [name, ok ? 'yes' : 'NO']),
  );
}

const childCommand = process.env[CHILD_ENV];
if (childCommand !== undefined) await runChild(childCommand);
else await runBench();
