// Checkpoint cost on a workspace of 10,000 source files (plus 5,000 ignored ones in node_modules
// and a build dir): the first snapshot, then checkpoints with nothing, one file or a dozen files
// changed (the budget: ≤ 300 ms each after the first), and a restore.
// Usage: node bench/run.mjs checkpoint   (BENCH_RUNS=n to change the repetitions, default 10);
// BENCH_VERBOSE=1 prints every sample.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../packages/core/src/safety/checkpoints';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const BUDGET_MS = 300;
const DIRS = 100;
const FILES_PER_DIR = 100;

const root = mkdtempSync(join(tmpdir(), 'kodo-bench-ckpt-'));
const workspace = join(root, 'ws');
const store = new CheckpointStore({ workspaceRoot: workspace, historyDir: join(root, 'history') });

function write(rel: string, text: string): void {
  const path = join(workspace, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function seed(): void {
  for (let d = 0; d < DIRS; d += 1) {
    for (let f = 0; f < FILES_PER_DIR; f += 1) {
      write(`src/m${d}/file${f}.ts`, `export const value${f} = ${d * FILES_PER_DIR + f};\n`.repeat(20));
    }
  }
  for (let i = 0; i < 5000; i += 1) write(`node_modules/pkg${i % 50}/lib/f${i}.js`, 'module.exports = 1;\n');
  for (let i = 0; i < 200; i += 1) write(`dist/chunk${i}.js`, 'bundle\n'.repeat(100));
  write('.gitignore', 'dist/\n');
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

try {
  seed();
  const first = await timed(() => store.create({ label: 'first' }));
  const cases: { label: string; change: (run: number) => void }[] = [
    { label: 'nothing changed', change: () => {} },
    { label: '1 file edited', change: (run) => write('src/m1/file1.ts', `// edit ${run}\n`) },
    {
      label: '10 edited, 1 created, 1 deleted',
      change: (run) => {
        for (let i = 0; i < 10; i += 1) write(`src/m${i + 10}/file${i}.ts`, `// edit ${run}\n`);
        write(`src/new/file-${run}.ts`, 'new\n');
        unlinkSync(join(workspace, `src/m50/file${run}.ts`));
      },
    },
  ];
  const rows: (string | number)[][] = [['first checkpoint (cold)', fmt(first), fmt(first), 'n/a']];
  let restoreTarget = '';
  for (const c of cases) {
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      c.change(run);
      samples.push(
        await timed(async () => {
          const checkpoint = await store.create({
            label: c.label,
            toolCall: { name: 'write_file', args: { file_path: 'src/x.ts' }, callId: `c${run}` },
          });
          restoreTarget ||= checkpoint.commit;
        }),
      );
    }
    const worst = Math.max(...samples);
    if (process.env.BENCH_VERBOSE) console.log(c.label, samples.map((x) => fmt(x)).join(' '));
    rows.push([
      `checkpoint: ${c.label}`,
      fmt(median(samples)),
      fmt(worst),
      worst <= BUDGET_MS ? 'yes' : 'NO',
    ]);
  }
  let changed = 0;
  const restore = await timed(async () => {
    changed = (await store.restoreFiles(restoreTarget, 'bench restore')).changed.length;
  });
  rows.push([`restore (${changed} files differ)`, fmt(restore), fmt(restore), 'n/a']);
  const size = execFileSync('du', ['-sk', join(root, 'history')], { encoding: 'utf8' }).split('\t')[0];
  console.log(
    `Workspace: ${(DIRS * FILES_PER_DIR).toLocaleString('en-US')} tracked files, 5,200 ignored; ${RUNS} runs per case; shadow repo ${fmt(Number(size) / 1024)} MB.\n`,
  );
  printTable(['operation', 'median ms', 'max ms', `≤ ${BUDGET_MS} ms`], rows);
} finally {
  rmSync(root, { recursive: true, force: true });
}
