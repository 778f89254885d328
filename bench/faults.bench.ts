// The fault suite as a report: every fault kind injected before each model request of a
// scripted session with tool calls, run through the built kodo against the mock Gemini server.
import { FAULT_KINDS, type FaultRun, runFaultScenario } from '@kodo/testkit';
import { printTable } from './table';

const runs: FaultRun[] = [];
for (const kind of FAULT_KINDS) {
  for (const position of [0, 1, 2]) runs.push(await runFaultScenario(kind, position));
}

const rows: (string | number)[][] = FAULT_KINDS.map((kind) => {
  const mine = runs.filter((run) => run.kind === kind);
  return [
    kind,
    mine.length,
    mine.reduce((sum, run) => sum + run.faultsInjected, 0),
    mine.filter((run) => run.completed).length,
    mine.filter((run) => run.asExpected).length,
    mine.reduce((sum, run) => sum + run.invalidHistories, 0),
    mine.filter((run) => run.duplicatedOutput).length,
  ];
});
const total = (column: number) => rows.reduce((sum, row) => sum + Number(row[column]), 0);
rows.push(['**total**', total(1), total(2), total(3), total(4), total(5), total(6)]);
printTable(
  [
    'fault',
    'runs',
    'faults injected',
    'sessions completed',
    'ended as expected',
    'invalid histories',
    'text printed twice',
  ],
  rows,
);
console.log('');
const problems = runs.flatMap((run) =>
  run.problems.map((problem) => `${run.kind} @${run.position}: ${problem}`),
);
console.log(problems.length === 0 ? 'No problems.' : problems.join('\n'));
console.log(`\nGoal: 0 invalid histories — ${total(5) === 0 ? 'met' : 'NOT met'}.`);
