// Startup (issue O's budget: first request ≤ 2.0× the floor on Node 20, peak RSS ≤ 90 MB): launch → first model request received by the mock, and peak RSS, for `kodo -p "hi"`
// against the testkit's Gemini mock, side by side with the floor (a bare node:http client), plus
// `kodo --version` against `node -e ''`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { geminiTextReply, startGeminiMock } from '@kodo/testkit';
import { FIRST_REQUEST_BUDGET, fmt, median, printTable } from './table';

// 30: one process's time to the first request varies by ±25 % on a shared VM (V8's random
// hash-seed set-up alone moves it by 2–4 ms), which left a median of 15 about ±5 % from run to run.
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
// Bundled into .kodo-bench/ by bench/run.mjs: the repository root is one level up either way.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const floorClient = join(root, 'bench', 'floor-client.mjs');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

interface Sample {
  firstRequestMs: number | undefined;
  totalMs: number;
  peakRssMb: number | undefined;
}

async function runOnce(
  command: string[],
  env: Record<string, string>,
  mockRequests?: () => number[],
): Promise<Sample> {
  const argv = hasGnuTime ? [GNU_TIME, '-f', '__RSS_KB=%M', ...command] : command;
  const before = mockRequests?.().length ?? 0;
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const totalMs = performance.now() - started;
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}: ${stderr}`);
  const received = mockRequests?.().slice(before)[0];
  const rss = /__RSS_KB=(\d+)/.exec(stderr)?.[1];
  return {
    firstRequestMs: received !== undefined ? received - started : undefined,
    totalMs,
    peakRssMb: rss ? Number(rss) / 1024 : undefined,
  };
}

interface Case {
  label: string;
  command: string[];
  env: Record<string, string>;
  /** Whether the run sends a request to the mock (launch → first request is measured). */
  requests: boolean;
}

/**
 * Runs the cases round-robin (a few warm-up rounds first), so the floor and kodo meet the same
 * machine state and the same warmed-up mock server. Each round starts one case later: a run
 * is slower after a heavy one (the compile-cache-off run leaves the CPU's caches cold), and in a
 * fixed order the same case would always pay for it.
 */
async function measureAll(cases: Case[], mock: Awaited<ReturnType<typeof startGeminiMock>>) {
  const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
  const received = () => mock.requests.map((r) => r.receivedAt);
  for (let round = 0; round < RUNS + 3; round += 1) {
    for (let index = 0; index < cases.length; index += 1) {
      const c = cases[(round + index) % cases.length]!;
      const sample = await runOnce(c.command, c.env, c.requests ? received : undefined);
      if (round >= 3) samples.get(c)!.push(sample);
    }
  }
  if (process.env.BENCH_SAMPLES) {
    // Every sample, sorted, to see the spread behind a median (the machine's noise is not normal).
    for (const c of cases) {
      const values = samples
        .get(c)!
        .map((s) => s.firstRequestMs ?? s.totalMs)
        .sort((x, y) => x - y);
      console.log(`${c.label}: ${values.map((v) => v.toFixed(0)).join(' ')}`);
    }
  }
  const floorRuns = samples.get(cases[0]!)!;
  return cases.map((c) => {
    const runs = samples.get(c)!;
    // Each round runs every case back to back: the ratio within a round leaves out what the
    // machine did between rounds (another VM's load, frequency changes), which moves a median
    // of the absolute times by several per cent from one bench run to the next.
    const paired = runs
      .map((sample, round) => {
        const floorMs = floorRuns[round]?.firstRequestMs;
        return sample.firstRequestMs !== undefined && floorMs ? sample.firstRequestMs / floorMs : undefined;
      })
      .filter((ratio): ratio is number => ratio !== undefined);
    const pick = (key: keyof Sample) => {
      const values = runs.map((s) => s[key]).filter((v): v is number => v !== undefined);
      return values.length > 0 ? median(values) : undefined;
    };
    return {
      label: c.label,
      firstRequestMs: pick('firstRequestMs'),
      totalMs: pick('totalMs')!,
      rssMb: pick('peakRssMb'),
      maxRss: Math.max(...runs.map((s) => s.peakRssMb ?? 0)),
      pairedRatio: paired.length > 0 ? median(paired) : undefined,
    };
  });
}

/**
 * A home with what users bring: 20 skills (in the Gemini CLI, Claude Code, `.agents` and kodo
 * folders), 10 agent files, and 2 extensions each holding a command, a skill and a context file.
 */
function populateHome(dir: string): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const skillRoots = [
    join(dir, '.gemini', 'skills'),
    join(dir, '.claude', 'skills'),
    join(dir, '.agents', 'skills'),
    join(dir, 'skills'),
  ];
  for (let index = 0; index < 20; index += 1) {
    const name = `skill-${index}`;
    write(
      join(skillRoots[index % skillRoots.length]!, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Helps with task ${index} when the user asks for it.\n---\n# ${name}\n${'Step.\n'.repeat(40)}`,
    );
  }
  for (let index = 0; index < 10; index += 1) {
    const folder = index % 2 === 0 ? join(dir, '.claude', 'agents') : join(dir, 'agents');
    write(
      join(folder, `agent-${index}.md`),
      `---\nname: agent-${index}\ndescription: Reviews area ${index}.\ntools: Read, Grep, Glob\nmodel: inherit\n---\nYou review area ${index}.\n`,
    );
  }
  for (const name of ['ext-one', 'ext-two']) {
    const root = join(dir, 'extensions', name);
    write(
      join(root, 'gemini-extension.json'),
      JSON.stringify({ name, version: '1.0.0', contextFileName: 'CONTEXT.md' }),
    );
    write(join(root, 'CONTEXT.md'), `Context of ${name}.`);
    write(join(root, 'commands', 'run.toml'), `description = "Run ${name}"\nprompt = "Run {{args}}"\n`);
    write(
      join(root, 'skills', `${name}-skill`, 'SKILL.md'),
      `---\nname: ${name}-skill\ndescription: The ${name} skill.\n---\nBody.\n`,
    );
  }
}

const home = mkdtempSync(join(tmpdir(), 'kodo-bench-home-'));
// A second home with the kind of settings file most users have (Gemini CLI's, read for
// compatibility), so the cost of reading and checking settings is measured too.
const settingsHome = mkdtempSync(join(tmpdir(), 'kodo-bench-settings-home-'));
mkdirSync(join(settingsHome, '.gemini'));
writeFileSync(
  join(settingsHome, '.gemini', 'settings.json'),
  JSON.stringify({
    model: { name: 'gemini-2.5-pro', maxSessionTurns: 50, compressionThreshold: 0.6 },
    general: { defaultApprovalMode: 'default', maxAttempts: 5, checkpointing: { enabled: false } },
    ui: { theme: 'GitHub', hideBanner: true, hideTips: true },
    context: { fileName: ['GEMINI.md', 'AGENTS.md'], fileFiltering: { respectGitIgnore: true } },
    tools: { exclude: ['web_fetch'], allowed: ['run_shell_command(git status)'], useRipgrep: true },
    security: { folderTrust: { enabled: true }, auth: { selectedType: 'gemini-api-key' } },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    hooksConfig: { enabled: true, disabled: [] },
    budgets: { maxToolCalls: 200 },
  }),
);
const loadedHome = mkdtempSync(join(tmpdir(), 'kodo-bench-loaded-'));
populateHome(loadedHome);
const cwd = mkdtempSync(join(tmpdir(), 'kodo-bench-cwd-'));
const mock = await startGeminiMock();
// Every run takes one script step; refill generously.
mock.setScript(Array.from({ length: (RUNS + 3) * 5 + 8 }, () => ({ chunks: geminiTextReply('hello') })));
try {
  const env = {
    KODO_HOME: home,
    // Every folder kodo reads skills, commands, agents and extensions from is under here.
    HOME: home,
    // A fresh temp folder is untrusted; headless runs there need this (as in CI).
    KODO_TRUST_WORKSPACE: 'true',
    GEMINI_API_KEY: 'bench',
    GOOGLE_GEMINI_BASE_URL: mock.url,
    FLOOR_BASE_URL: mock.url,
  };
  process.chdir(cwd);
  const loadedEnv = { ...env, KODO_HOME: loadedHome, HOME: loadedHome };
  const [floor, kodo, kodoSettings, kodoNoCache, kodoLoaded, nodeEmpty, version] = await measureAll(
    [
      {
        label: 'floor: node + node:http request',
        command: [process.execPath, floorClient],
        env,
        requests: true,
      },
      {
        label: 'kodo -p "hi" (Gemini)',
        command: [process.execPath, KODO_BIN, '-p', 'hi'],
        env,
        requests: true,
      },
      {
        label: 'kodo -p "hi" (with ~/.gemini/settings.json)',
        command: [process.execPath, KODO_BIN, '-p', 'hi'],
        env: { ...env, GEMINI_CLI_HOME: settingsHome },
        requests: true,
      },
      {
        label: 'kodo -p "hi" (KODO_COMPILE_CACHE=off)',
        command: [process.execPath, KODO_BIN, '-p', 'hi'],
        env: { ...env, KODO_COMPILE_CACHE: 'off' },
        requests: true,
      },
      {
        label: 'kodo -p "hi" (20 skills, 10 agents, 2 extensions)',
        command: [process.execPath, KODO_BIN, '-p', 'hi'],
        env: loadedEnv,
        requests: true,
      },
      { label: "node -e ''", command: [process.execPath, '-e', ''], env, requests: false },
      { label: 'kodo --version', command: [process.execPath, KODO_BIN, '--version'], env, requests: false },
    ],
    mock,
  );
  if (!floor || !kodo || !kodoSettings || !kodoNoCache || !kodoLoaded || !nodeEmpty || !version)
    throw new Error('missing results');

  console.log(
    `${RUNS} runs each, medians; peak RSS from GNU time${hasGnuTime ? '' : ' (unavailable here)'}. "vs floor" divides the medians; "paired" is the median of each round's ratio to that round's floor run.\n`,
  );
  printTable(
    [
      'run',
      'launch → first request (ms)',
      'wall (ms)',
      'peak RSS (MB, median / max)',
      'vs floor',
      'vs floor, paired',
    ],
    [floor, kodo, kodoSettings, kodoNoCache, kodoLoaded].map((row) => [
      row.label,
      row.firstRequestMs !== undefined ? fmt(row.firstRequestMs) : '-',
      fmt(row.totalMs),
      row.rssMb !== undefined ? `${fmt(row.rssMb)} / ${fmt(row.maxRss)}` : '-',
      row.firstRequestMs !== undefined && floor.firstRequestMs
        ? `${fmt(row.firstRequestMs / floor.firstRequestMs, 2)}×`
        : '-',
      row.pairedRatio !== undefined ? `${fmt(row.pairedRatio, 2)}×` : '-',
    ]),
  );
  console.log('');
  printTable(
    ['run', 'wall (ms)', 'peak RSS (MB)', "vs node -e ''"],
    [nodeEmpty, version].map((row) => [
      row.label,
      fmt(row.totalMs),
      row.rssMb !== undefined ? fmt(row.rssMb) : '-',
      `${fmt(row.totalMs / nodeEmpty.totalMs, 2)}×`,
    ]),
  );
  const limit = `${fmt(FIRST_REQUEST_BUDGET)}×`;
  const budget = [
    [`first request ≤ ${limit} floor`, kodo.firstRequestMs! <= FIRST_REQUEST_BUDGET * floor.firstRequestMs!],
    ['… paired', (kodo.pairedRatio ?? Number.POSITIVE_INFINITY) <= FIRST_REQUEST_BUDGET],
    ['… with a settings file', kodoSettings.firstRequestMs! <= FIRST_REQUEST_BUDGET * floor.firstRequestMs!],
    [
      `with 20 skills + 10 agents + 2 extensions ≤ ${limit} floor`,
      kodoLoaded.firstRequestMs! <= FIRST_REQUEST_BUDGET * floor.firstRequestMs!,
    ],
    ['… paired', (kodoLoaded.pairedRatio ?? Number.POSITIVE_INFINITY) <= FIRST_REQUEST_BUDGET],
    ['peak RSS ≤ 90 MB', (kodo.maxRss || 0) <= 90],
    ["--version ≤ 1.3× node -e ''", version.totalMs <= 1.3 * nodeEmpty.totalMs],
  ] as const;
  console.log('');
  printTable(
    ['budget', 'met'],
    budget.map(([name, ok]) => [name, ok ? 'yes' : 'NO']),
  );
} finally {
  await mock.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(settingsHome, { recursive: true, force: true });
  rmSync(loadedHome, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
