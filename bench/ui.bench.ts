// Interactive UI: launch → prompt ready to type, keystroke echo while 10k tokens stream in, and
// peak RSS. kodo runs in a real pseudo-terminal (util-linux `script`, 100×30) against the
// testkit's Gemini mock, which streams the long answer slowly; timings are read from the bytes
// the terminal receives.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { geminiTextReply, startGeminiMock } from '@kodo/testkit';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
// The placeholder of the empty prompt; its first letter is drawn as the cursor, so match the rest.
const READY = 'ype your message';
const TOKENS = 10_000;
const TOKENS_PER_CHUNK = 10;
const CHUNK_DELAY_MS = 6;
const KEYSTROKES = 40;

interface Terminal {
  child: ChildProcess;
  output: () => string;
  /** performance.now() when `text` first appears at or after offset `from`. */
  waitFor(text: string, from?: number, timeoutMs?: number): Promise<{ at: number; offset: number }>;
  type(keys: string): void;
  close(): Promise<void>;
}

let lastOutput = () => '';

function openTerminal(command: string, env: Record<string, string>): Terminal {
  const child = spawn('script', ['-qfec', `stty cols 100 rows 30; exec ${command}`, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let output = '';
  const waiters: { text: string; from: number; resolve: (v: { at: number; offset: number }) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const at = performance.now();
    output += chunk;
    for (const waiter of [...waiters]) {
      const offset = output.indexOf(waiter.text, waiter.from);
      if (offset !== -1) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve({ at, offset });
      }
    }
  });
  lastOutput = () => output;
  return {
    child,
    output: () => output,
    waitFor(text, from = 0, timeoutMs = 15_000) {
      const offset = output.indexOf(text, from);
      if (offset !== -1) return Promise.resolve({ at: performance.now(), offset });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `timed out waiting for ${JSON.stringify(text)}; screen bytes: ${JSON.stringify(output.slice(-600))}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          text,
          from,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        });
      });
    },
    type(keys) {
      child.stdin!.write(keys);
    },
    async close() {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((r) => child.on('close', r));
    },
  };
}

/** The node process under `script` (it `exec`s the command, so it is script's only child). */
function childPid(parent: number): number | undefined {
  try {
    return (
      Number(readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/)[0]) ||
      undefined
    );
  } catch {
    return undefined;
  }
}

function peakRssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const home = mkdtempSync(join(tmpdir(), 'kodo-bench-ui-home-'));
const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-ui-cwd-'));
const baseEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  KODO_HOME: home,
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
  // The folder-trust question comes before the UI; the temp folder is trusted for the benchmark.
  KODO_TRUST_WORKSPACE: 'true',
};
const mock = await startGeminiMock();
process.chdir(cwd);

try {
  // 1. Launch → prompt ready, against the floor (node printing the marker in the same pty).
  const floorCommand = `${process.execPath} -e "process.stdout.write('T${READY}')"`;
  const kodoCommand = `${process.execPath} ${KODO_BIN}`;
  const env = { ...baseEnv, GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: mock.url };
  const launches = { floor: [] as number[], kodo: [] as number[], rss: [] as number[] };
  for (let round = 0; round < RUNS + 2; round += 1) {
    for (const [name, command] of [
      ['floor', floorCommand],
      ['kodo', kodoCommand],
    ] as const) {
      const started = performance.now();
      const terminal = openTerminal(command, env);
      const { at } = await terminal.waitFor(READY);
      if (name === 'kodo') {
        const rss = peakRssMb(childPid(terminal.child.pid!));
        if (rss !== undefined && round >= 2) launches.rss.push(rss);
      }
      await terminal.close();
      if (round >= 2) launches[name].push(at - started);
    }
  }

  // 2. Keystroke echo while 10k tokens stream.
  // About ten tokens a chunk, every chunk different (repeated text would trip loop detection).
  const pieces = Array.from({ length: TOKENS / TOKENS_PER_CHUNK }, (_, i) => {
    const line = `Step ${i}: check item ${i * 7} against rule ${i % 13}, then `;
    if (i % 40 === 39) return `${line}done.\n\n`;
    if (i % 8 === 7) return `${line}go on.\n`;
    return line;
  });
  mock.setScript([{ chunks: geminiTextReply(pieces), delayMs: CHUNK_DELAY_MS }]);
  const terminal = openTerminal(kodoCommand, env);
  await terminal.waitFor(READY);
  await new Promise((resolve) => setTimeout(resolve, 300));
  terminal.type('stream a long answer');
  await terminal.waitFor('stream a long answer');
  terminal.type('\r');
  const streamStart = await terminal.waitFor('Step 1:');
  const echoes: number[] = [];
  // Keys nobody's answer contains, each one drawn followed by the inverse-video cursor.
  const alphabet = 'zqxjkvwyZQXJKVWY';
  let typed = '';
  for (let i = 0; i < KEYSTROKES; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 90 + Math.random() * 40));
    const key = alphabet[i % alphabet.length]!;
    typed += key;
    const from = terminal.output().length;
    const sent = performance.now();
    terminal.type(key);
    const { at } = await terminal.waitFor(`${typed}\u001b[7m`, from, 5_000);
    echoes.push(at - sent);
  }
  const streamingStill = !terminal
    .output()
    .includes(`Step ${TOKENS / TOKENS_PER_CHUNK - 1}:`, streamStart.offset);
  const requestDone = await mock.requests[0]?.settled;
  await terminal.waitFor(`Step ${TOKENS / TOKENS_PER_CHUNK - 1}:`, streamStart.offset, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssDuringStream = peakRssMb(childPid(terminal.child.pid!));
  await terminal.close();

  console.log(
    `${RUNS} launches each (medians, 2 warm-up rounds); then one session streaming ${TOKENS} tokens ` +
      `(${TOKENS / TOKENS_PER_CHUNK} chunks, ${CHUNK_DELAY_MS} ms apart) with ${KEYSTROKES} keystrokes typed meanwhile.\n`,
  );
  const launchKodo = median(launches.kodo);
  const launchFloor = median(launches.floor);
  printTable(
    ['measure', 'value'],
    [
      ['launch → prompt ready, kodo (ms, median)', fmt(launchKodo)],
      ['launch → marker, floor: node in the same pty (ms, median)', fmt(launchFloor)],
      ['kodo over the floor (ms)', fmt(launchKodo - launchFloor)],
      ['peak RSS at prompt ready (MB, median)', launches.rss.length ? fmt(median(launches.rss)) : '-'],
      ['keystroke echo while streaming (ms, median)', fmt(median(echoes))],
      [
        'keystroke echo while streaming (ms, p95 / max)',
        `${fmt(percentile(echoes, 95))} / ${fmt(Math.max(...echoes))}`,
      ],
      ['all keystrokes typed while the answer was still streaming', streamingStill ? 'yes' : 'no'],
      [
        'peak RSS after streaming 10k tokens (MB)',
        rssDuringStream !== undefined ? fmt(rssDuringStream) : '-',
      ],
      ['mock request outcome', String(requestDone)],
    ],
  );
  console.log('');
  printTable(
    ['budget', 'met'],
    [
      ['launch → prompt ready ≤ 300 ms', launchKodo <= 300 ? 'yes' : 'NO'],
      ['keystroke echo ≤ 50 ms while streaming (p95)', percentile(echoes, 95) <= 50 ? 'yes' : 'NO'],
      [
        'RSS ≤ 120 MB after 10k tokens',
        rssDuringStream !== undefined && rssDuringStream <= 120 ? 'yes' : 'NO',
      ],
    ],
  );
} catch (error) {
  // Show what the terminal had received, to tell a kodo failure from a harness one.
  console.error(`${(error as Error).message}\n${JSON.stringify(lastOutput().slice(-1500))}`);
  process.exitCode = 1;
} finally {
  await mock.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
