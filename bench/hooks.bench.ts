// Hooks: what they cost a session. With hooks configured for other events, an event without a
// matching hook must cost next to nothing (it is checked on every model call and tool call).
// With a hook, the cost is the hook process: measured for a bash one-liner and a Node script,
// against a bare `bash -c` spawn, so the runner's own overhead shows.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookConfigFromSources } from '../packages/core/src/hooks/config';
import { HookSystem } from '../packages/core/src/hooks/hook-system';
import type { HooksSettings } from '../packages/core/src/hooks/types';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const dir = mkdtempSync(join(tmpdir(), 'kodo-hooks-bench-'));
const signal = new AbortController().signal;
writeFileSync(
  join(dir, 'hook.mjs'),
  "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.stringify({decision:'allow'})));\n",
);

function system(settings: HooksSettings): HookSystem {
  const config = hookConfigFromSources([{ scope: 'user', hooks: settings }], { allowProjectHooks: true });
  return new HookSystem({ config, cwd: dir, sessionId: 'bench', env: process.env });
}
const one = (command: string): HooksSettings => ({
  BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command }] }],
});

async function sample(run: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = nowMs();
    await run();
    samples.push(nowMs() - started);
  }
  return median(samples);
}

function bareSpawn(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--norc', '-c', 'echo {}'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stdin.on('error', () => {});
    child.stdin.end('{}\n');
    child.on('close', () => resolve());
  });
}

const input = { toolName: 'read_file', toolInput: { file_path: 'a.txt' } };
const unmatched = system(one('echo {}'));
const noMatchMs = await sample(async () => {
  for (let i = 0; i < 1000; i += 1) await unmatched.beforeTool(input, signal);
}, 20);
// Round-robin, so machine noise hits the bare spawn and the hook alike.
const shell = { ...input, toolName: 'run_shell_command' };
const bashHook = () => system(one(`echo '{"decision":"allow"}'`)).beforeTool(shell, signal);
const bare: number[] = [];
const hooked: number[] = [];
for (let i = 0; i < RUNS + 5; i += 1) {
  let started = nowMs();
  await bareSpawn();
  if (i >= 5) bare.push(nowMs() - started);
  started = nowMs();
  await bashHook();
  if (i >= 5) hooked.push(nowMs() - started);
}
const bareMs = median(bare);
const bashMs = median(hooked);
const nodeMs = await sample(() => system(one(`node "$KODO_PROJECT_DIR/hook.mjs"`)).beforeTool(shell, signal));
const four = (sequential: boolean): HooksSettings => ({
  BeforeTool: [
    { sequential, hooks: [1, 2, 3, 4].map((n) => ({ type: 'command', command: `echo '{}' # ${n}` })) },
  ],
});
const parallelRuns: number[] = [];
const sequentialRuns: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  let started = nowMs();
  await system(four(false)).beforeTool(input, signal);
  parallelRuns.push(nowMs() - started);
  started = nowMs();
  await system(four(true)).beforeTool(input, signal);
  sequentialRuns.push(nowMs() - started);
}
const parallelMs = median(parallelRuns);
const sequentialMs = median(sequentialRuns);
rmSync(dir, { recursive: true, force: true });

const overhead = bashMs - bareMs;
printTable(
  ['What', 'Median', 'Budget', 'Met'],
  [
    [
      'Event with no matching hook (per event)',
      `${fmt(noMatchMs, 2)} µs`,
      '< 20 µs',
      noMatchMs / 1000 < 0.02 ? 'yes' : 'NO',
    ],
    ['Bare `bash -c` spawn (reference)', `${fmt(bareMs)} ms`, '—', '—'],
    ['BeforeTool, bash one-liner hook', `${fmt(bashMs)} ms`, '—', '—'],
    ['Runner overhead over the bare spawn', `${fmt(overhead)} ms`, '< 5 ms', overhead < 5 ? 'yes' : 'NO'],
    ['BeforeTool, Node script hook', `${fmt(nodeMs)} ms`, '—', '—'],
    ['4 hooks sequential', `${fmt(sequentialMs)} ms`, '—', '—'],
    // Informational: what parallel runs gain depends on the free cores.
    ['4 hooks in parallel', `${fmt(parallelMs)} ms`, '—', '—'],
  ],
);
