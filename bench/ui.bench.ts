// Interactive UI (issue S): launch → prompt ready to type, then a ~41.7 KB Markdown answer
// streamed fast (~2,500 tok/s) and slow (~250 tok/s) into a real 120×40 pseudo-terminal (util-linux
// `script`) from the testkit's Gemini mock: first token on screen after the mock sent it, key echo
// p50/p95/max while streaming, terminal bytes ÷ answer bytes, CPU during the stream and peak RSS.
// Timings are read from the bytes the terminal receives.
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
/** Characters per token, as the rates are quoted (≈ 4 for English prose and code). */
const CHARS_PER_TOKEN = 4;
/** ~2,500 tok/s: 20 tokens every 8 ms; ~250 tok/s: 4 tokens every 16 ms. */
const FAST = { tokensPerChunk: 20, delayMs: 8, keyEveryMs: 100 };
const SLOW = { tokensPerChunk: 4, delayMs: 16, keyEveryMs: 400 };
/** Keys typed per stream at most: they stay on one line of the 120-column input. */
const MAX_KEYS = 100;
const END_MARKER = 'kodo-bench-answer-end';
const FIRST_MARKER = 'Benchmark answer';
const ANSWER = longMarkdownAnswer(41_700);
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Terminal {
  child: ChildProcess;
  output: () => string;
  /** performance.now() when `text` first appears at or after offset `from`. */
  waitFor(text: string, from?: number, timeoutMs?: number): Promise<{ at: number; offset: number }>;
  type(keys: string): void;
  close(): Promise<void>;
}

let lastOutput = () => '';

function openTerminal(
  command: string,
  env: Record<string, string>,
  size: { columns: number; rows: number } = { columns: 100, rows: 30 },
): Terminal {
  const child = spawn(
    'script',
    ['-qfec', `stty cols ${size.columns} rows ${size.rows}; exec ${command}`, '/dev/null'],
    {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
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

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat; after the command name, indexes 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
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

  // 2. A long Markdown answer streamed fast and slow into a 120×40 terminal.
  const streams = [await streamRun('fast', FAST), await streamRun('slow', SLOW)];

  console.log(
    `${RUNS} launches each (medians, 2 warm-up rounds, 100×30); then one session per rate streaming a ` +
      `${(ANSWER.length / 1024).toFixed(1)} KB Markdown answer into a 120×40 terminal with a key typed ` +
      `every ~100 ms (fast) or ~400 ms (slow), at most ${MAX_KEYS}, meanwhile. Load average at the start: ${loadAverage}.\n`,
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
    ],
  );
  console.log('');
  printTable(
    [
      'stream',
      'tok/s (sent)',
      'first token on screen (ms)',
      'key echo p50 / p95 / max (ms)',
      'keys',
      'terminal ÷ answer bytes',
      'CPU during stream (s)',
      'peak RSS (MB)',
    ],
    streams.map((r) => [
      r.name,
      fmt(r.tokensPerSecond),
      fmt(r.firstToken),
      `${fmt(median(r.echoes))} / ${fmt(percentile(r.echoes, 95))} / ${fmt(Math.max(...r.echoes))}`,
      `${r.echoes.length}${r.allKeysArrived ? '' : ' (LOST/REORDERED)'}`,
      fmt(r.bytesRatio),
      fmt(r.cpuSeconds),
      r.peakRss !== undefined ? fmt(r.peakRss) : '-',
    ]),
  );
  console.log('');
  const [fast, slow] = streams as [StreamResult, StreamResult];
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  printTable(
    ['budget', 'met'],
    [
      ['launch → prompt ready ≤ 500 ms', yes(launchKodo <= 500)],
      ['fast: key echo p95 ≤ 16 ms', yes(percentile(fast.echoes, 95) <= 16)],
      ['fast: key echo max ≤ 33 ms', yes(Math.max(...fast.echoes) <= 33)],
      ['fast: first token on screen ≤ 50 ms', yes(fast.firstToken <= 50)],
      ['fast: terminal bytes ≤ 3× the answer', yes(fast.bytesRatio <= 3)],
      ['slow: key echo p95 ≤ 16 ms', yes(percentile(slow.echoes, 95) <= 16)],
      ['peak RSS ≤ 120 MB', yes(streams.every((r) => r.peakRss !== undefined && r.peakRss <= 120))],
      ['every key typed while streaming arrived, in order', yes(streams.every((r) => r.allKeysArrived))],
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

/** A Markdown answer of about `bytes`: headings, paragraphs, lists, code and tables, no line repeated. */
function longMarkdownAnswer(bytes: number): string {
  let text = `# ${FIRST_MARKER}\n\n`;
  for (let section = 1; text.length < bytes - 200; section += 1) {
    text += `## Section ${section}: reading the module graph\n\n`;
    text += `Paragraph ${section} explains why **step ${section}** runs before step ${section + 1}: the loader resolves \`chunk-${section}.js\` first, then checks its exports against rule ${section % 13} and records the result in the table below.\n\n`;
    for (let item = 0; item < 4; item += 1)
      text += `- item ${section}.${item}: *check* \`value${item}\` against limit ${section * 7 + item}\n`;
    text += `\n\`\`\`ts\nexport function step${section}(input: number): number {\n  return input * ${section} + ${section % 7};\n}\n\`\`\`\n\n`;
    text += `| step | input | output |\n|---|---|---|\n| ${section} | ${section * 3} | ${section * 3 * section + (section % 7)} |\n\n`;
  }
  return `${text}Done: ${END_MARKER}\n`;
}

interface StreamResult {
  name: string;
  tokensPerSecond: number;
  firstToken: number;
  echoes: number[];
  allKeysArrived: boolean;
  bytesRatio: number;
  cpuSeconds: number;
  peakRss: number | undefined;
}

/** One session: the answer streamed at `rate` into a 120×40 terminal while keys are typed. */
async function streamRun(
  name: string,
  rate: { tokensPerChunk: number; delayMs: number; keyEveryMs: number },
): Promise<StreamResult> {
  const chunkChars = rate.tokensPerChunk * CHARS_PER_TOKEN;
  const pieces: string[] = [];
  for (let at = 0; at < ANSWER.length; at += chunkChars) pieces.push(ANSWER.slice(at, at + chunkChars));
  mock.setScript([{ chunks: geminiTextReply(pieces), delayMs: rate.delayMs }]);
  const requestIndex = mock.requests.length;
  const env = { ...baseEnv, GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: mock.url };
  // KODO_BENCH_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the streaming kodo.
  const flags = process.env.KODO_BENCH_NODE_FLAGS ?? '';
  const terminal = openTerminal(`${process.execPath} ${flags} ${KODO_BIN}`, env, { columns: 120, rows: 40 });
  await terminal.waitFor(READY);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const pid = childPid(terminal.child.pid!);
  terminal.type('stream a long answer');
  await terminal.waitFor('stream a long answer');
  const submittedAt = terminal.output().length;
  terminal.type('\r');
  const shown = await terminal.waitFor(FIRST_MARKER, submittedAt, 30_000);
  const request = mock.requests[requestIndex]!;
  const firstToken = shown.at - request.chunkSentAt[0]!;
  const cpuStart = cpuSeconds(pid);
  const echoes: number[] = [];
  // Keys nobody's answer contains, each one drawn followed by the inverse-video cursor.
  const alphabet = 'zqxjkvwyZQXJKVWY';
  let typed = '';
  let settled = false;
  void request.settled.then(() => {
    settled = true;
  });
  while (!settled && typed.length < MAX_KEYS) {
    await new Promise((resolve) => setTimeout(resolve, rate.keyEveryMs * (0.8 + Math.random() * 0.4)));
    if (settled) break;
    const key = alphabet[typed.length % alphabet.length]!;
    typed += key;
    const from = terminal.output().length;
    const sent = performance.now();
    terminal.type(key);
    const { at } = await terminal.waitFor(`${typed}\u001b[7m`, from, 60_000);
    echoes.push(at - sent);
  }
  await terminal.waitFor(END_MARKER, shown.offset, 60_000);
  const streamSeconds = (request.chunkSentAt.at(-1)! - request.chunkSentAt[0]!) / 1000;
  // Let the last repaint land, then count what the terminal received for the answer.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu = cpuSeconds(pid) - cpuStart;
  const bytes = Buffer.byteLength(terminal.output().slice(submittedAt));
  const allKeysArrived = terminal.output().lastIndexOf(typed) > shown.offset;
  const peakRss = peakRssMb(pid);
  if (flags) {
    // A profiler writes its file only on a clean exit: Ctrl+C clears the typed keys, twice more quits.
    for (let press = 0; press < 3; press += 1) {
      terminal.type('\u0003');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }
  await terminal.close();
  return {
    name,
    tokensPerSecond: ANSWER.length / CHARS_PER_TOKEN / streamSeconds,
    firstToken,
    echoes,
    allKeysArrived,
    bytesRatio: bytes / Buffer.byteLength(ANSWER),
    cpuSeconds: cpu,
    peakRss,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
