// grep_search against raw ripgrep on a 50,000-file tree (generated once under .kodo-bench/ and
// reused): median wall time per query of the real tool (build + execute, rg backend: spawn, JSON
// stream, caps, context, formatting) and of the same rg binary with the same search flags and
// plain output read to the end, as a person would run it. Budget: ≤ 1.2× raw rg per query.
// A second table times the fallbacks (git grep, the JavaScript scan) on the same tree.
// Usage: node bench/run.mjs grep   (BENCH_RUNS=n, default 15; BENCH_GREP_FALLBACKS=0 skips them)
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { createGrepTool } from '../packages/core/src/tools/builtin/grep';
import type { GrepBackend } from '../packages/core/src/tools/grep/backend';
import { GitGrepBackend } from '../packages/core/src/tools/grep/git-backend';
import { JsGrepBackend } from '../packages/core/src/tools/grep/js-backend';
import { RipgrepBackend, ripgrepArgs } from '../packages/core/src/tools/grep/rg-backend';
import type { ToolContext } from '../packages/core/src/tools/tool';
import { Workspace } from '../packages/core/src/tools/workspace';
import { ensureGrepTree, HANDLER_EVERY, RARE_TOKEN } from './grep/tree';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;
const FALLBACK_RUNS = 3;
const BUDGET_RATIO = 1.2;
// Bundled into .kodo-bench/ by bench/run.mjs: the repository root is one level up either way.
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Query {
  label: string;
  args: { pattern: string } & Record<string, unknown>;
}

/** The query set the budget applies to: literal, regex, rare and common-but-capped searches. */
const QUERIES: Query[] = [
  {
    label: 'literal (fixed_strings), capped at 100',
    args: { pattern: 'handleRequest(', fixed_strings: true },
  },
  {
    label: `regex, ~${Math.ceil(50_000 / HANDLER_EVERY)} matches`,
    args: { pattern: 'function\\s+\\w+Handler\\(' },
  },
  { label: 'rare: 2 matches (+ auto-context)', args: { pattern: RARE_TOKEN } },
  { label: 'common word, capped at 100', args: { pattern: 'import' } },
  {
    label: 'regex + include_pattern *.py, capped',
    args: { pattern: 'class \\w+Service:', include_pattern: '*.py' },
  },
  { label: 'names_only, capped at 100 files', args: { pattern: 'TODO', names_only: true } },
];
/**
 * Outside the budget, shown for what it costs: every one of ~110k matches kept and formatted
 * (the JSON stream is ~3.7× the bytes of rg's plain output, and the tool builds a 10 MB result).
 */
const STRESS: Query = {
  label: 'stress: literal, every match (total_max_matches 1e6)',
  args: { pattern: 'handleRequest(', fixed_strings: true, total_max_matches: 1_000_000 },
};

const tree = ensureGrepTree(join(repoRoot, '.kodo-bench'));
const ctx: ToolContext = {
  workspace: new Workspace({ roots: [tree.root] }),
  env: process.env,
  shellInactivityTimeoutMs: 30_000,
};

/** One call of grep_search; returns wall ms and the match count from the header. */
async function timeTool(backend: GrepBackend, args: Query['args']): Promise<{ ms: number; matches: number }> {
  // The tool's 30 s timeout is not under test; a slow fallback on a busy machine must finish.
  const tool = createGrepTool({ backend, timeoutMs: 600_000 });
  const started = performance.now();
  const built = tool.build(args, ctx);
  if (!built.ok) throw new Error(built.error.message);
  const result = await built.invocation.execute({ signal: new AbortController().signal });
  const ms = performance.now() - started;
  const text = typeof result.llmContent === 'string' ? result.llmContent : '';
  const count = /^Found (\d+) /.exec(text)?.[1];
  if (count === undefined && !text.startsWith('No matches')) throw new Error(`grep_search failed: ${text}`);
  return { ms, matches: Number(count ?? 0) };
}

/** The same rg search with plain output, read to the end; returns wall ms and output lines. */
function timeRawRg(args: Query['args']): Promise<{ ms: number; lines: number }> {
  const rgArgs = ripgrepArgs(
    {
      searchPath: tree.root,
      workspaceRoot: tree.root,
      pattern: args.pattern,
      caseSensitive: false,
      fixedStrings: args.fixed_strings === true,
      include: args.include_pattern as string | undefined,
      respectIgnoreFiles: true,
      maxTotal: Number.POSITIVE_INFINITY,
      maxPerFile: args.names_only ? 1 : undefined,
      env: process.env,
      signal: new AbortController().signal,
    },
    { isDirectory: true },
  ).map((arg) => (arg === '--json' ? '--line-number' : arg));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ['--no-heading', '--color=never', ...rgArgs], {
      cwd: tree.root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) reject(new Error(`rg exited ${code}`));
      else resolve({ ms: performance.now() - started, lines });
    });
  });
}

function loadText(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

const rg = new RipgrepBackend(rgPath);
console.log(
  `Tree: ${tree.files.toLocaleString('en')} files (50,000 source files; node_modules/ and a gitignored dist/ ` +
    `hold the rest) at .kodo-bench/grep-tree, ${tree.reused ? 'reused' : `generated in ${fmt(tree.generateMs / 1000)} s`}. ` +
    `ripgrep: ${rgPath}. ${RUNS} runs per query after ${WARMUP} warm-up runs, tool and raw rg alternating ` +
    `(ABBA order); medians. ${cpus().length} CPUs, load average ${loadText()} at the start.\n`,
);

const rows: (string | number)[][] = [];
const verdicts: [string, boolean][] = [];
for (const query of [...QUERIES, STRESS]) {
  const toolMs: number[] = [];
  const rawMs: number[] = [];
  let matches = 0;
  let rawLines = 0;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    // ABBA order: neither side always runs right after the other, which would favour it in drift.
    let tool: Awaited<ReturnType<typeof timeTool>>;
    let raw: Awaited<ReturnType<typeof timeRawRg>>;
    if (run % 2 === 0) {
      tool = await timeTool(rg, query.args);
      raw = await timeRawRg(query.args);
    } else {
      raw = await timeRawRg(query.args);
      tool = await timeTool(rg, query.args);
    }
    matches = tool.matches;
    rawLines = raw.lines;
    if (run >= WARMUP) {
      toolMs.push(tool.ms);
      rawMs.push(raw.ms);
    }
  }
  const ratio = median(toolMs) / median(rawMs);
  const ok = ratio <= BUDGET_RATIO;
  if (query !== STRESS) verdicts.push([query.label, ok]);
  rows.push([
    query.label,
    matches,
    rawLines,
    fmt(median(toolMs)),
    fmt(median(rawMs)),
    `${fmt(ratio, 2)}×`,
    query === STRESS ? `${ok ? 'yes' : 'no'} (not budgeted)` : ok ? 'yes' : 'NO',
  ]);
}
printTable(
  [
    'query',
    'matches (tool)',
    'lines (raw rg)',
    'grep_search (ms)',
    'raw rg (ms)',
    'ratio',
    `≤ ${BUDGET_RATIO}×`,
  ],
  rows,
);
console.log(
  `\nBudget (grep_search ≤ ${BUDGET_RATIO}× raw rg on every query of the set; the stress row is not budgeted): ` +
    `${verdicts.every(([, ok]) => ok) ? 'met' : 'NOT met'}. ` +
    `Load average at the end: ${loadText()}.`,
);

if (process.env.BENCH_GREP_FALLBACKS !== '0') {
  console.log(`\nFallback backends, same tool and tree (${FALLBACK_RUNS} runs, medians, ms):\n`);
  const backends: [string, GrepBackend][] = [
    ['ripgrep', rg],
    ['git grep', new GitGrepBackend()],
    ['javascript', new JsGrepBackend()],
  ];
  const fallbackRows: (string | number)[][] = [];
  for (const query of QUERIES.slice(0, 4)) {
    const cells: string[] = [];
    for (const [, backend] of backends) {
      const samples: number[] = [];
      try {
        for (let run = 0; run < FALLBACK_RUNS; run++) samples.push((await timeTool(backend, query.args)).ms);
        cells.push(fmt(median(samples)));
      } catch (error) {
        cells.push(`failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    fallbackRows.push([query.label, ...cells]);
  }
  printTable(['query', ...backends.map(([name]) => name)], fallbackRows);
}
