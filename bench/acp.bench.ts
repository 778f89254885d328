// ACP memory over a long session: one `kodo --acp` session answers PROMPTS prompts, each a
// tool call (in turn read_file, write_file and a shell command run in the client's terminal via
// terminal/*, in yolo mode) and an answer, from a generated --fake-responses script, driven by the
// SDK's client. Prints peak and final RSS (VmHWM/VmRSS of
// the kodo process). Budget: peak RSS < 150 MB.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAcpKodo } from '../packages/cli/test/e2e/acp-harness';
import { fmt, printTable } from './table';

const PROMPTS = Number(process.env.BENCH_ACP_PROMPTS ?? 200);
const BUDGET_MB = 150;

const root = mkdtempSync(join(tmpdir(), 'kodo-bench-acp-'));
const cwd = join(root, 'project');
const home = join(root, 'home');
mkdirSync(cwd);
mkdirSync(home);
writeFileSync(join(cwd, 'data.txt'), `${'a line of data to read back\n'.repeat(200)}`);

const usage = { promptTokenCount: 1200, candidatesTokenCount: 40, totalTokenCount: 1240 };
const reply = (parts: Record<string, unknown>[]) =>
  JSON.stringify({
    method: 'generateContentStream',
    response: [
      { candidates: [{ content: { role: 'model', parts }, index: 0 }] },
      {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: usage,
      },
    ],
  });
const lines: string[] = [];
for (let prompt = 0; prompt < PROMPTS; prompt += 1) {
  const calls = [
    { name: 'read_file', args: { file_path: 'data.txt' } },
    {
      name: 'write_file',
      args: { file_path: `out/file-${prompt % 10}.txt`, content: `version ${prompt}\n`.repeat(50) },
    },
    { name: 'run_shell_command', args: { command: `echo step ${prompt}; head -c 2000 data.txt` } },
  ];
  const call = calls[prompt % calls.length];
  lines.push(reply([{ text: `Step ${prompt}.` }, { functionCall: call }]));
  lines.push(reply([{ text: `Done with step ${prompt}.` }]));
}
const fixture = join(root, 'fake.jsonl');
writeFileSync(fixture, `${lines.join('\n')}\n`);

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

const kodo = startAcpKodo({
  cwd,
  // Unconfined, so commands go to the client's terminal (a sandboxed command stays local).
  env: { KODO_HOME: home, GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'bench-key', KODO_SANDBOX: 'false' },
  args: ['--fake-responses', fixture],
  terminal: true,
});
const started = performance.now();
let afterFirst = 0;
try {
  await kodo.initialize();
  const { sessionId } = await kodo.agent.request('session/new', { cwd, mcpServers: [] });
  await kodo.agent.request('session/set_mode', { sessionId, modeId: 'yolo' });
  for (let prompt = 0; prompt < PROMPTS; prompt += 1) {
    const answer = await kodo.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `do step ${prompt}` }],
    });
    if (answer.stopReason !== 'end_turn')
      throw new Error(`prompt ${prompt} stopped with ${answer.stopReason}`);
    if (prompt === 0) afterFirst = memoryMb(kodo.child.pid!).rss;
    // The client keeps nothing: a long session must not grow this process's memory either.
    kodo.updates.length = 0;
  }
  const elapsed = performance.now() - started;
  const terminals = kodo.terminals.calls.filter((call) => call.method === 'create').length;
  if (terminals !== Math.floor(PROMPTS / 3)) throw new Error(`${terminals} terminals for ${PROMPTS} prompts`);
  if (kodo.terminals.open !== 0) throw new Error(`${kodo.terminals.open} terminals never released`);
  const { rss, peak } = memoryMb(kodo.child.pid!);
  printTable(
    [
      'prompts',
      'tool calls',
      'RSS after 1st (MB)',
      'RSS at end (MB)',
      'peak RSS (MB)',
      'ms / prompt',
      `budget < ${BUDGET_MB} MB`,
    ],
    [
      [
        PROMPTS,
        PROMPTS,
        fmt(afterFirst),
        fmt(rss),
        fmt(peak),
        fmt(elapsed / PROMPTS),
        peak < BUDGET_MB ? 'ok' : 'OVER',
      ],
    ],
  );
  if (peak >= BUDGET_MB) process.exitCode = 1;
} finally {
  await kodo.close();
  rmSync(root, { recursive: true, force: true });
}
