// Policy engine: what it adds to startup (building the engine, with and without policy files),
// the one-time cost of loading the shell parser (tree-sitter bash, WebAssembly) on the first
// shell check, and the per-call cost of checks once warm. Cold costs are measured in fresh
// child processes (this file re-run with POLICY_BENCH_CHILD set), round-robin.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PolicyEngine } from '../packages/core/src/scheduler/policy/engine';
import { loadShellParser } from '../packages/core/src/scheduler/policy/shell-parser';
import { loadPolicyEngine } from '../packages/core/src/scheduler/policy/sources';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARM_ITERATIONS = 2000;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const POLICY = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "git diff", "npm test", "ls"]
decision = "allow"
priority = 100

[[rule]]
toolName = ["write_file", "replace"]
argsPattern = '"file_path":"[^"]*\\.lock"'
decision = "deny"
priority = 200
`;

/** One cold measurement, in this (fresh) process; prints the figure in ms. */
async function child(kind: string, home: string): Promise<void> {
  const env = { KODO_HOME: join(home, 'kodo'), GEMINI_CLI_HOME: join(home, 'gemini') };
  const started = nowMs();
  if (kind === 'parser') {
    const parser = await loadShellParser();
    parser.parse('git status && npm test 2>&1 | tail -5');
  } else if (kind === 'engine-empty' || kind === 'engine-files') {
    await loadPolicyEngine({ cwd: home, env });
  } else if (kind === 'first-shell-check') {
    const engine = new PolicyEngine();
    await engine.check(
      { name: 'run_shell_command', kind: 'execute', args: { command: 'git status' } },
      { mode: 'default', interactive: true },
    );
  }
  process.stdout.write(`${nowMs() - started}\n`);
}

function runChild(kind: string, home: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        POLICY_BENCH_CHILD: kind,
        POLICY_BENCH_HOME: home,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    proc.on('close', (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`child ${kind} exited ${code}`)),
    );
  });
}

async function warm(label: string, run: () => unknown | Promise<unknown>): Promise<[string, number]> {
  for (let i = 0; i < 200; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < WARM_ITERATIONS; i += 1) {
    const started = nowMs();
    await run();
    samples.push(nowMs() - started);
  }
  return [label, median(samples) * 1000];
}

async function main(): Promise<void> {
  const emptyHome = mkdtempSync(join(tmpdir(), 'kodo-policy-bench-'));
  const filesHome = mkdtempSync(join(tmpdir(), 'kodo-policy-bench-'));
  try {
    for (const dir of [
      join(filesHome, 'kodo', 'policies'),
      join(filesHome, 'gemini', '.gemini', 'policies'),
    ]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'team.toml'), POLICY);
      writeFileSync(join(dir, 'more.toml'), POLICY);
    }
    const cases = [
      {
        label: 'build the engine, no policy files (startup path)',
        kind: 'engine-empty',
        home: emptyHome,
        budget: 2,
      },
      {
        label: 'build the engine, 4 policy files (startup path)',
        kind: 'engine-files',
        home: filesHome,
        budget: 20,
      },
      { label: 'load the shell parser (tree-sitter bash)', kind: 'parser', home: emptyHome, budget: 100 },
      { label: 'first shell check in a session', kind: 'first-shell-check', home: emptyHome, budget: 100 },
    ];
    const samples = new Map<string, number[]>(cases.map((c) => [c.kind, []]));
    for (let round = 0; round < RUNS; round += 1) {
      for (const c of cases) samples.get(c.kind)!.push(await runChild(c.kind, c.home));
    }
    console.log(`Cold costs, fresh process each (${RUNS} rounds, medians):\n`);
    printTable(
      ['step', 'median (ms)', 'max (ms)', 'budget (ms)', 'met'],
      cases.map((c) => {
        const values = samples.get(c.kind)!;
        const value = median(values);
        return [c.label, fmt(value), fmt(Math.max(...values)), c.budget, value <= c.budget ? 'yes' : 'no'];
      }),
    );

    const engine = await loadPolicyEngine({
      cwd: filesHome,
      env: { KODO_HOME: join(filesHome, 'kodo'), GEMINI_CLI_HOME: join(filesHome, 'gemini') },
    });
    const context = { mode: 'default' as const, interactive: true };
    const shell = (command: string) => ({
      name: 'run_shell_command',
      kind: 'execute' as const,
      args: { command },
    });
    await engine.check(shell('ls'), context);
    const rows = [
      await warm('read_file', () =>
        engine.check({ name: 'read_file', kind: 'read', args: { file_path: 'a.ts' } }, context),
      ),
      await warm('write_file (args pattern)', () =>
        engine.check(
          { name: 'write_file', kind: 'edit', args: { file_path: 'a.lock', content: 'x'.repeat(2000) } },
          context,
        ),
      ),
      await warm('shell: git status', () => engine.check(shell('git status'), context)),
      await warm('shell: compound with $(…) and redirection', () =>
        engine.check(
          shell('git diff $(git merge-base HEAD main) | tee out.txt && npm test 2>&1 | tail -5'),
          context,
        ),
      ),
      await warm('hide check (isToolHidden)', () =>
        engine.isToolHidden({ name: 'write_file', kind: 'edit' }, context),
      ),
    ];
    console.log(
      `\nWarm checks (${WARM_ITERATIONS} iterations, medians; ${engine.getRules().length} rules):\n`,
    );
    const budgets = [50, 50, 1000, 1000, 50];
    printTable(
      ['check', 'median (µs)', 'budget (µs)', 'met'],
      rows.map(([label, value], i) => [label, fmt(value), budgets[i]!, value <= budgets[i]! ? 'yes' : 'no']),
    );
  } finally {
    rmSync(emptyHome, { recursive: true, force: true });
    rmSync(filesHome, { recursive: true, force: true });
  }
}

const childKind = process.env.POLICY_BENCH_CHILD;
if (childKind) await child(childKind, process.env.POLICY_BENCH_HOME ?? tmpdir());
else await main();
