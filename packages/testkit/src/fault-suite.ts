import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GeminiMockStep, type GeminiWireResponse, geminiChunk, startGeminiMock } from './gemini-mock';
import { historyProblems, type WireContent } from './history-check';
import { runKodo } from './run-kodo';

/**
 * The fault suite: one scripted session with tool calls (read a file, write a file, answer),
 * run through the built `kodo` against the mock Gemini server while a fault is injected before
 * one of its model requests. Every request the mock receives is checked for a valid history,
 * and stdout for text printed twice.
 */

const TURNS: GeminiWireResponse[][] = [
  [
    geminiChunk([{ text: 'Reading a.txt.' }], { last: false }),
    geminiChunk([{ functionCall: { name: 'read_file', args: { file_path: 'a.txt' } } }]),
  ],
  [
    geminiChunk([{ text: 'Copying.' }], { last: false }),
    geminiChunk([{ functionCall: { name: 'write_file', args: { file_path: 'b.txt', content: 'alpha\n' } } }]),
  ],
  [geminiChunk([{ text: 'All done: ' }], { last: false }), geminiChunk([{ text: 'copied a to b.' }])],
];
export const FAULT_SUITE_EXPECTED_STDOUT = 'Reading a.txt.\nCopying.\nAll done: copied a to b.\n';
const MAX_ATTEMPTS = 3;

export type FaultKind =
  | 'drop mid-stream'
  | '429 with Retry-After'
  | '500 burst'
  | 'malformed chunk'
  | 'empty stream'
  | 'slow stream'
  | 'fallback model switch'
  | '500 past the retry budget';

export const FAULT_KINDS: readonly FaultKind[] = [
  'drop mid-stream',
  '429 with Retry-After',
  '500 burst',
  'malformed chunk',
  'empty stream',
  'slow stream',
  'fallback model switch',
  '500 past the retry budget',
];

export interface FaultRun {
  kind: FaultKind;
  /** Which model request (0-based) the fault hit. */
  position: number;
  faultsInjected: number;
  exitCode: number | null;
  /** Whether the run ended as it should: completed, or (past the retry budget) exit 1. */
  asExpected: boolean;
  completed: boolean;
  invalidHistories: number;
  problems: string[];
  duplicatedOutput: boolean;
  requests: number;
  modelsUsed: string[];
}

/** The steps injected before the scripted turn at `position`. */
function faultSteps(kind: FaultKind, turn: GeminiWireResponse[]): GeminiMockStep[] {
  switch (kind) {
    case 'drop mid-stream':
      return [{ fault: 'drop', chunks: turn.slice(0, 1) }];
    case '429 with Retry-After':
      return [{ fault: 'status', status: 429, retryAfter: 1 }];
    case '500 burst':
      return Array.from(
        { length: MAX_ATTEMPTS - 1 },
        () => ({ fault: 'status', status: 500 }) as GeminiMockStep,
      );
    case 'malformed chunk':
      return [{ fault: 'malformed', chunks: turn.slice(0, 1) }];
    case 'empty stream':
      return [{ fault: 'empty' }];
    case 'fallback model switch':
      return Array.from({ length: MAX_ATTEMPTS }, () => ({ fault: 'status', status: 429 }) as GeminiMockStep);
    case '500 past the retry budget':
      return Array.from({ length: MAX_ATTEMPTS }, () => ({ fault: 'status', status: 500 }) as GeminiMockStep);
    case 'slow stream':
      return [];
  }
}

export async function runFaultScenario(kind: FaultKind, position: number): Promise<FaultRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'kodo-fault-'));
  const home = mkdtempSync(join(tmpdir(), 'kodo-fault-home-'));
  writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
  mkdirSync(join(workspace, '.kodo'));
  writeFileSync(
    join(workspace, '.kodo', 'settings.json'),
    JSON.stringify({ general: { maxAttempts: MAX_ATTEMPTS }, model: { fallback: 'gemini-fallback' } }),
  );
  const script: GeminiMockStep[] = [];
  let faultsInjected = 0;
  for (const [index, turn] of TURNS.entries()) {
    if (index === position) {
      const faults = faultSteps(kind, turn);
      faultsInjected = faults.length || 1;
      script.push(...faults);
      if (kind === 'slow stream') {
        script.push({ fault: 'slow', chunks: turn, delayMs: 150 });
        continue;
      }
    }
    script.push({ chunks: turn });
  }
  const mock = await startGeminiMock({ script });
  try {
    const run = await runKodo(['-p', 'copy a.txt to b.txt', '-y', '-m', 'gemini-main'], {
      cwd: workspace,
      env: {
        KODO_HOME: home,
        GEMINI_API_KEY: 'k',
        GOOGLE_GEMINI_BASE_URL: mock.url,
        KODO_RETRY_BASE_MS: '2',
      },
      timeoutMs: 30_000,
    });
    const problems: string[] = [];
    let invalidHistories = 0;
    for (const [index, request] of mock.requests.entries()) {
      const found = historyProblems((request.body as { contents?: WireContent[] })?.contents ?? []);
      if (found.length > 0) {
        invalidHistories += 1;
        problems.push(...found.map((problem) => `request ${index}: ${problem}`));
      }
    }
    const completed = run.code === 0 && readIfExists(join(workspace, 'b.txt')) === 'alpha\n';
    const expectFailure = kind === '500 past the retry budget';
    const duplicatedOutput = completed && run.stdout !== FAULT_SUITE_EXPECTED_STDOUT;
    if (duplicatedOutput) problems.push(`stdout was ${JSON.stringify(run.stdout)}`);
    if (!completed && !expectFailure)
      problems.push(`exit ${run.code}: ${run.stderr.trim().split('\n').at(-1)}`);
    return {
      kind,
      position,
      faultsInjected,
      exitCode: run.code,
      completed,
      asExpected: expectFailure ? run.code === 1 && !completed : completed,
      invalidHistories,
      problems,
      duplicatedOutput,
      requests: mock.requests.length,
      modelsUsed: [...new Set(mock.requests.map((request) => request.model ?? '?'))],
    };
  } finally {
    await mock.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
