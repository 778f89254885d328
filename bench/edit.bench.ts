// Edit accuracy: a generated corpus of realistic model mistakes (wrong indentation, trailing
// blanks, over-escaping, CRLF, tabs vs spaces, typos, non-unique snippets), each run through the
// real `replace` tool in a temp workspace and compared with the intended result. Also times the
// fuzzy strategy on a file at its work cap.
// Run: node bench/run.mjs edit   (EDIT_BENCH_VERBOSE=1 lists every case that was not applied;
// EDIT_BENCH_SEED=<n> generates another corpus)
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createReplaceTool } from '../packages/core/src/tools/builtin/replace';
import type { ToolContext } from '../packages/core/src/tools/tool';
import { Workspace } from '../packages/core/src/tools/workspace';
import { CATEGORIES, type EditCase, generateCorpus } from './edit/corpus';
import { fmt, median, printTable } from './table';

type Verdict = 'applied' | 'refused' | 'wrong-location' | 'mangled' | 'refused-correctly';

interface Outcome {
  case: EditCase;
  verdict: Verdict;
  ms: number;
  message: string;
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-edit-bench-')));
const ctx: ToolContext = {
  workspace: new Workspace({ roots: [root] }),
  env: {},
  shellInactivityTimeoutMs: 1000,
};
const tool = createReplaceTool();

async function runCase(editCase: EditCase): Promise<Outcome> {
  const rel = join(editCase.id, editCase.fileName);
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, editCase.original);
  const started = process.hrtime.bigint();
  const built = tool.build({ file_path: rel, instruction: 'benchmark edit', ...editCase.params }, ctx);
  if (!built.ok) throw new Error(`${editCase.id}: invalid arguments: ${built.error.message}`);
  const result = await built.invocation.execute({ signal: new AbortController().signal });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const after = readFileSync(path, 'utf8');
  const message = typeof result.llmContent === 'string' ? result.llmContent.split('\n')[0]! : '';
  const unchanged = after === editCase.original;
  let verdict: Verdict;
  if (editCase.expect.kind === 'refuse') {
    verdict = result.error && unchanged ? 'refused-correctly' : 'wrong-location';
  } else if (!result.error && after === editCase.expect.content) {
    verdict = 'applied';
  } else if (unchanged) {
    verdict = 'refused';
  } else {
    verdict = overlaps(changedLines(editCase.original, after), editCase.expect.spans)
      ? 'mangled'
      : 'wrong-location';
  }
  return { case: editCase, verdict, ms, message };
}

/** The original's lines that differ from the result (common prefix and suffix removed). */
function changedLines(before: string, after: string): { start: number; end: number } {
  const a = before.replace(/\r\n/g, '\n').split('\n');
  const b = after.replace(/\r\n/g, '\n').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let tail = 0;
  while (tail < a.length - start && tail < b.length - start && a.at(-1 - tail) === b.at(-1 - tail)) tail++;
  return { start, end: a.length - tail };
}

function overlaps(
  changed: { start: number; end: number },
  spans: Array<{ start: number; end: number }>,
): boolean {
  return spans.some((span) =>
    changed.start === changed.end
      ? changed.start >= span.start && changed.start <= span.end
      : changed.start < span.end && changed.end > span.start,
  );
}

/**
 * Fuzzy matching at its work cap (file lines × old_string length² = 4×10⁸), worst case: every
 * line has the shape and length of old_string's lines, so no window is skipped by length and each
 * one costs a bounded edit distance. The 10-line old_string has a typo; the block is mid-file.
 */
async function fuzzyAtCap(): Promise<number[]> {
  const block = Array.from(
    { length: 10 },
    (_, i) => `    const value${i} = compute(input.field${i}, options);`,
  );
  const oldString = block.join('\n').replace('compute(input.field5', 'compute(inptu.field5');
  const lineCount = Math.floor(4e8 / oldString.length ** 2);
  const filler = Array.from(
    { length: lineCount },
    (_, i) => `    const other${i % 10} = compute(input.param${i % 10}, options);`,
  );
  filler.splice(Math.floor(lineCount / 2), 10, ...block);
  const path = join(root, 'large.ts');
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    writeFileSync(path, `${filler.join('\n')}\n`);
    const started = process.hrtime.bigint();
    const built = tool.build(
      {
        file_path: 'large.ts',
        instruction: 'i',
        old_string: oldString,
        new_string: block.join('\n').toUpperCase(),
      },
      ctx,
    );
    if (!built.ok) throw new Error(built.error.message);
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    if (result.error || !String(result.llmContent).includes('Applied fuzzy match'))
      throw new Error(`fuzzy at cap failed: ${result.error?.message}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

try {
  const seed = process.env.EDIT_BENCH_SEED ? Number(process.env.EDIT_BENCH_SEED) : undefined;
  const corpus = generateCorpus(seed);
  const outcomes: Outcome[] = [];
  for (const editCase of corpus) outcomes.push(await runCase(editCase));

  const categories = [...new Set(outcomes.map((o) => o.case.category))].sort(
    (a, b) => order(a) - order(b) || a.localeCompare(b),
  );
  const rows = categories.map((category) =>
    row(
      category,
      outcomes.filter((o) => o.case.category === category),
    ),
  );
  rows.push(row('**all**', outcomes));
  printTable(
    [
      'category',
      'cases',
      'applied correctly',
      'refused (should apply)',
      'refused correctly',
      'mangled',
      'wrong location',
    ],
    rows,
  );

  const shouldApply = outcomes.filter((o) => o.case.expect.kind === 'apply');
  const applied = shouldApply.filter((o) => o.verdict === 'applied').length;
  const wrong = outcomes.filter((o) => o.verdict === 'wrong-location').length;
  const mustRefuse = outcomes.filter((o) => o.case.expect.kind === 'refuse');
  const refusedRight = mustRefuse.filter((o) => o.verdict === 'refused-correctly').length;
  const appliedPct = (100 * applied) / shouldApply.length;
  const times = outcomes.map((o) => o.ms);
  const cap = await fuzzyAtCap();

  console.log('');
  printTable(
    ['measure', 'value', 'budget', 'met'],
    [
      ['cases', outcomes.length, '≥ 200', outcomes.length >= 200 ? 'yes' : 'NO'],
      [
        'applied correctly (unique intended location)',
        `${applied}/${shouldApply.length} (${fmt(appliedPct)} %)`,
        '≥ 95 %',
        appliedPct >= 95 ? 'yes' : 'NO',
      ],
      ['edits at a wrong location', wrong, '0', wrong === 0 ? 'yes' : 'NO'],
      [
        'refused correctly (no unique location)',
        `${refusedRight}/${mustRefuse.length}`,
        'all',
        refusedRight === mustRefuse.length ? 'yes' : 'NO',
      ],
      [
        'time per edit, median / max (ms)',
        `${fmt(median(times), 2)} / ${fmt(Math.max(...times), 1)}`,
        '',
        '',
      ],
      [
        'fuzzy at the work cap, median of 5 (ms)',
        fmt(median(cap), 0),
        '< 1000',
        median(cap) < 1000 ? 'yes' : 'NO',
      ],
    ],
  );

  if (process.env.EDIT_BENCH_VERBOSE) {
    for (const outcome of outcomes.filter(
      (o) => o.verdict !== 'applied' && o.verdict !== 'refused-correctly',
    )) {
      console.log(
        `\n### ${outcome.case.id} (${outcome.case.category}: ${outcome.case.mistake}) → ${outcome.verdict}`,
      );
      console.log(outcome.message);
      console.log('old_string:', JSON.stringify(outcome.case.params.old_string));
      console.log('new_string:', JSON.stringify(outcome.case.params.new_string));
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

function order(category: string): number {
  const index = CATEGORIES.findIndex((c) => category.startsWith(c.name));
  return index === -1 ? CATEGORIES.length : index;
}

function row(category: string, list: Outcome[]): (string | number)[] {
  const count = (verdict: Verdict) => list.filter((o) => o.verdict === verdict).length;
  const apply = list.filter((o) => o.case.expect.kind === 'apply').length;
  const refuse = list.length - apply;
  const pct = (n: number, of: number) => `${n} (${fmt((100 * n) / of, 0)} %)`;
  return [
    category,
    list.length,
    apply ? pct(count('applied'), apply) : '–',
    apply ? count('refused') : '–',
    refuse ? pct(count('refused-correctly'), refuse) : '–',
    count('mangled'),
    count('wrong-location'),
  ];
}
