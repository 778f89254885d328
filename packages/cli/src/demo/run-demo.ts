import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReplayGenerators, type Runtime, sanitizeEnv } from '@kodo/core/engine';
import { parseCliArgs } from '../shared/args';
import { ExitCode } from '../shared/exit-codes';
import { createCliRuntime } from '../shared/runtime-setup';
import { createTranscriptRenderer, styles } from './render';

const DEMO_PROMPT = 'The tests in this project fail. Find the bug, fix it, and make sure the tests pass.';

/**
 * `kodo demo`: copies a small sample project with a real bug into a scratch directory and replays
 * a scripted model session through the real runtime, as `kodo -y` there would assemble it. The
 * model's replies are scripted; every tool call (search, read, edit, shell) runs for real, and
 * the tests are checked again at the end.
 */
export async function runDemo(io: {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}): Promise<number> {
  const s = styles(io.stdout);
  const assets = findAssets();
  const workspaceDir = await mkdtemp(join(tmpdir(), 'kodo-demo-'));
  await cp(join(assets, 'sample'), workspaceDir, { recursive: true });

  io.stdout.write(
    `${s.bold('kodo demo')} — an offline replay.\n` +
      `${s.yellow("The model's replies are scripted")} (no API key, no network); every tool call runs for real\n` +
      `in a scratch copy of a small project: ${workspaceDir}\n` +
      `Approval mode: yolo (the demo approves each tool call itself).\n\n` +
      `${s.bold('> ')}${DEMO_PROMPT}\n\n`,
  );

  const runtime = await demoRuntime(workspaceDir, join(assets, 'session.jsonl'));
  try {
    return await replay(runtime, workspaceDir, io);
  } finally {
    await runtime.close();
  }
}

/**
 * The runtime every front end gets (createRuntime), with the scripted model injected as
 * `kodo mcp serve` injects its own. The demo reads no settings file and no extensions, so it
 * shows the same run on every machine; the scratch copy is kodo's own sample, so it is trusted.
 */
async function demoRuntime(workspaceDir: string, script: string): Promise<Runtime> {
  const { FakeContentGenerator } = await loadReplayGenerators();
  const scripted = FakeContentGenerator.fromFile(script, { strict: true });
  return createCliRuntime({
    // The command line the demo stands for: the demo approves each tool call itself.
    args: parseCliArgs(['--approval-mode=yolo', '--extensions=none']),
    settings: {},
    cwd: workspaceDir,
    env: process.env,
    trusted: true,
    approvals: { interactive: false },
    customCommands: false,
    generator: () => ({ generator: scripted, model: 'scripted-demo', flush: async () => undefined }),
  });
}

async function replay(
  runtime: Runtime,
  workspaceDir: string,
  io: { stdout: NodeJS.WritableStream & { isTTY?: boolean }; stderr: NodeJS.WritableStream },
): Promise<number> {
  const s = styles(io.stdout);
  const { session } = await runtime.newSession();
  await session.start('startup');
  const render = createTranscriptRenderer(io.stdout);
  const stream = session.sendMessage(DEMO_PROMPT, new AbortController().signal);
  let next = await stream.next();
  while (!next.done) {
    render(next.value);
    next = await stream.next();
  }
  const result = next.value;
  if (result.kind !== 'completed') {
    io.stderr.write(
      `[ERROR] The demo session ended early: ${result.kind === 'error' ? result.failure.message : result.kind}\n`,
    );
    return ExitCode.error;
  }

  // Independent check, outside the scripted session: do the project's tests pass now?
  const check = await runNodeTests(workspaceDir);
  const stats = session.statsSnapshot();
  io.stdout.write(
    `\n${s.bold('Check:')} node --test in ${workspaceDir} → ${check.passed ? s.green('tests pass') : s.red('tests FAIL')}` +
      `${check.summary ? ` (${check.summary})` : ''}\n` +
      `${s.dim(`Tool calls: ${stats.tools.totalCalls} (${stats.tools.totalSuccess} ok), lines +${stats.files.totalLinesAdded} −${stats.files.totalLinesRemoved}, model turns: ${session.turnsUsed}.`)}\n` +
      `The scratch copy is kept in ${workspaceDir}: look at the fixed code there, and delete it when done.\n` +
      `${s.dim('Run it for real: export GEMINI_API_KEY=… then kodo -p "your request" in your project.')}\n`,
  );
  return check.passed ? ExitCode.ok : ExitCode.error;
}

function runNodeTests(cwd: string): Promise<{ passed: boolean; summary: string }> {
  return new Promise((resolve) => {
    // TAP asked for by name: the default reporter's summary differs between Node versions
    // (Node 26 prints no `# pass N` lines when stdout is not a terminal).
    const args = ['--test', '--test-reporter=tap'];
    execFile(process.execPath, args, { cwd, env: sanitizeEnv(process.env) }, (error, stdout) => {
      const pass = /^# pass (\d+)/m.exec(stdout)?.[1];
      const fail = /^# fail (\d+)/m.exec(stdout)?.[1];
      resolve({ passed: !error, summary: pass !== undefined ? `${pass} passed, ${fail ?? 0} failed` : '' });
    });
  });
}

/** The sample project and script: beside the bundle (dist/demo) or in the source tree. */
function findAssets(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'demo'), join(here, '..', 'demo'), join(here, 'assets')];
  const found = candidates.find((dir) => existsSync(join(dir, 'session.jsonl')));
  if (!found) throw new Error(`Demo assets not found (looked in ${candidates.join(', ')}).`);
  return found;
}
