import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { listBackgroundProcessesTool } from '../../src/tools/builtin/list-background-processes';
import { readBackgroundOutputTool } from '../../src/tools/builtin/read-background-output';
import { shellTool } from '../../src/tools/builtin/shell';
import { ToolRegistry } from '../../src/tools/registry';
import { BackgroundJobs } from '../../src/tools/shell/background-jobs';
import { isGroupAlive } from '../../src/tools/shell/process-group';
import type { ToolContext } from '../../src/tools/tool';
import { Workspace } from '../../src/tools/workspace';
import { calls, text as modelText, stream } from '../helpers';
import { runTool, text } from './helpers';

let ws: TempWorkspace;
let logDir: string;
let jobs: BackgroundJobs;
beforeEach(() => {
  ws = createTempWorkspace();
  logDir = join(ws.root, '.tmp', 'background-processes');
  jobs = new BackgroundJobs({ logDir });
  ws.ctx.shell = { jobs, outputLimit: { thresholdChars: 40_000, spillDir: join(ws.root, '.tmp') } };
});
afterEach(async () => {
  await jobs.dispose();
  ws.cleanup();
});

const background = (command: string, extra: Record<string, unknown> = {}, signal?: AbortSignal) =>
  runTool(shellTool, { command, is_background: true, ...extra }, ws.ctx, signal ? { signal } : {});
const list = async () => text(await runTool(listBackgroundProcessesTool, {}, ws.ctx));
const read = (args: Record<string, unknown>) => runTool(readBackgroundOutputTool, args, ws.ctx);

function pidOf(content: string): number {
  const match = /^Command is running in background\. PID: (\d+)\. Initial output:\n/.exec(content);
  if (!match) throw new Error(`not a background start: ${content}`);
  return Number(match[1]);
}

/** Whether a process runs (a zombie is dead, merely not yet reaped by a busy or absent init). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('run_shell_command is_background', () => {
  it('returns the PID and the first output, logs to background-<pid>.log and keeps running', async () => {
    const result = await background('echo hello; sleep 30', { delay_ms: 300 });
    const content = text(result);
    const pid = pidOf(content);
    expect(content).toBe(`Command is running in background. PID: ${pid}. Initial output:\nhello`);
    expect(readFileSync(join(logDir, `background-${pid}.log`), 'utf8')).toBe('hello\n');
    expect(isGroupAlive(pid)).toBe(true);
    expect(await list()).toBe(`- [PID ${pid}] RUNNING: \`echo hello; sleep 30\``);
  });

  it('waits 200 ms by default before returning', async () => {
    const started = Date.now();
    const content = text(await background('sleep 30'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(content.endsWith('Initial output:\n(empty)')).toBe(true);
  });

  it('kills every job, whole process group, when the registry is disposed', async () => {
    const pid = pidOf(text(await background('sleep 30 & echo $! > child.pid; sleep 30', { delay_ms: 0 })));
    await waitFor(() => existsSync(join(ws.root, 'child.pid')) && ws.read('child.pid').trim() !== '');
    const child = Number(ws.read('child.pid'));
    expect(isGroupAlive(pid)).toBe(true);
    expect(isRunning(child)).toBe(true);
    await jobs.dispose();
    expect(isGroupAlive(pid)).toBe(false);
    expect(isRunning(child)).toBe(false);
    await waitFor(() => jobs.get(pid)?.status === 'killed');
    expect(await list()).toBe(
      `- [PID ${pid}] KILLED: \`sleep 30 & echo $! > child.pid; sleep 30\` (Signal: SIGTERM)`,
    );
  });

  it('says when the command already ended during the delay, and lists its exit code', async () => {
    const content = text(await background('echo done; exit 3', { delay_ms: 300 }));
    const pid = pidOf(content);
    expect(content).toBe(
      `Command is running in background. PID: ${pid}. Initial output:\ndone\n(The command has already ended. Exit Code: 3)`,
    );
    expect(await list()).toBe(`- [PID ${pid}] EXITED: \`echo done; exit 3\` (Exit Code: 3)`);
  });

  it('kills the job when the call is cancelled during the delay', async () => {
    const controller = new AbortController();
    const pending = background('echo $$ > leader.pid; sleep 30', { delay_ms: 5000 }, controller.signal);
    await waitFor(() => existsSync(join(ws.root, 'leader.pid')) && ws.read('leader.pid').trim() !== '');
    controller.abort();
    expect(text(await pending)).toBe('Command was cancelled by user before it could complete.');
    expect(isGroupAlive(Number(ws.read('leader.pid')))).toBe(false);
  });

  it('fails cleanly without session services or when the command cannot start', async () => {
    const withoutServices = { ...ws.ctx, shell: undefined };
    const result = await runTool(shellTool, { command: 'true', is_background: true }, withoutServices);
    expect(result.error).toEqual({
      type: 'shell_execute_error',
      message: 'Background commands are not available in this session.',
    });
    mkdirSync(join(ws.root, 'gone'));
    const built = shellTool.build({ command: 'true', is_background: true, dir_path: 'gone' }, ws.ctx);
    if (!built.ok) throw new Error('build failed');
    rmdirSync(join(ws.root, 'gone'));
    const failed = await built.invocation.execute({ signal: new AbortController().signal });
    expect(failed.error?.type).toBe('shell_execute_error');
    expect(jobs.list()).toEqual([]);
  });

  it('is stopped with the session (Session.dispose), logging under the project temp dir', async () => {
    const tempDir = join(ws.root, '.project-tmp');
    const generator = new FakeContentGenerator(
      [
        stream(
          calls({ name: 'run_shell_command', args: { command: 'echo up; sleep 30', is_background: true } }),
        ),
        stream(modelText('started')),
      ],
      { strict: true },
    );
    const session = new Session({
      generator,
      model: 'test-model',
      tools: new ToolRegistry([shellTool]),
      toolContext: {
        workspace: new Workspace({ roots: [ws.root], tempDir }),
        env: ws.ctx.env,
        shellInactivityTimeoutMs: 10_000,
      },
      approvalMode: 'yolo',
      includeEnvironmentContext: false,
    });
    const events = session.sendMessage('start it', new AbortController().signal);
    while (!(await events.next()).done) {}
    // The session's own jobs (it made them: the caller's context had none).
    const [job] = (session as unknown as { toolContext: ToolContext }).toolContext.shell!.jobs.list();
    expect(job?.logPath).toBe(join(tempDir, 'background-processes', `background-${job!.pid}.log`));
    expect(isGroupAlive(job!.pid)).toBe(true);
    await session.dispose();
    expect(isGroupAlive(job!.pid)).toBe(false);
  });

  it('does not keep kodo alive, and dies with it when kodo exits without disposing', async () => {
    const dir = join(ws.root, 'exit-check');
    mkdirSync(dir);
    const src = (rel: string) => fileURLToPath(new URL(`../../src/tools/shell/${rel}`, import.meta.url));
    writeFileSync(
      join(dir, 'entry.ts'),
      [
        `import { BackgroundJobs } from ${JSON.stringify(src('background-jobs'))};`,
        `import { startBackground } from ${JSON.stringify(src('start-background'))};`,
        `const jobs = new BackgroundJobs({ logDir: ${JSON.stringify(join(dir, 'logs'))} });`,
        `const started = await startBackground({ jobs, command: 'sleep 30 & sleep 30', cwd: ${JSON.stringify(dir)}, env: process.env });`,
        `console.log(started.ok ? started.job.pid : started.message);`,
      ].join('\n'),
    );
    await build({
      entryPoints: [join(dir, 'entry.ts')],
      outfile: join(dir, 'entry.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const started = Date.now();
    const child = spawn(process.execPath, [join(dir, 'entry.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !isGroupAlive(pid), 2000);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('list_background_processes', () => {
  it('says when there are none', async () => {
    expect(await list()).toBe('No background processes found.');
    const bare = await runTool(listBackgroundProcessesTool, {}, { ...ws.ctx, shell: undefined });
    expect(text(bare)).toBe('No background processes found.');
  });
});

describe('read_background_output', () => {
  async function finishedJob(command: string): Promise<number> {
    const pid = pidOf(text(await background(command, { delay_ms: 0 })));
    await waitFor(() => jobs.get(pid)?.status === 'exited');
    return pid;
  }

  it('shows the last lines, 100 by default', async () => {
    const pid = await finishedJob('seq 1 500');
    const numbers = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => from + i).join('\n');
    expect(text(await read({ pid }))).toBe(`Showing last 100 of 500 lines:\n${numbers(401, 500)}`);
    expect(text(await read({ pid, lines: 3 }))).toBe('Showing last 3 of 500 lines:\n498\n499\n500');
    expect(text(await read({ pid, lines: 500 }))).toBe(`Full Log Output:\n${numbers(1, 500)}`);
  });

  it('reads at most the last 64 KiB and drops the partial first line', async () => {
    const pid = await finishedJob("seq -f '%099g' 1 3000"); // 100-byte lines, 300 KB
    const content = text(await read({ pid, lines: 10_000 }));
    const lines = content.split('\n').slice(1);
    expect(content.startsWith('Full Log Output:\n')).toBe(true);
    expect(lines).toHaveLength(Math.floor((64 * 1024) / 100));
    expect(lines.every((line) => /^\d{99}$/.test(line))).toBe(true);
    expect(Number(lines.at(-1))).toBe(3000);
    expect(text(await read({ pid, lines: 2 }))).toMatch(/^Showing last 2 of 655 lines:\n0+2999\n0+3000$/);
  });

  it('says when the log is empty, and waits delay_ms before reading', async () => {
    const pid = pidOf(text(await background('sleep 0.2; echo late; sleep 30', { delay_ms: 0 })));
    expect(text(await read({ pid }))).toBe('Log is empty.');
    expect(text(await read({ pid, delay_ms: 1000 }))).toBe('Full Log Output:\nlate');
  });

  it('only serves jobs of this session', async () => {
    const result = await read({ pid: process.pid });
    expect(result.error).toEqual({
      type: 'execution_failed',
      message: `Background process history lookup failed for PID ${process.pid}`,
    });
  });

  it('reports a missing log file', async () => {
    const pid = await finishedJob('echo hi');
    const logPath = join(logDir, `background-${pid}.log`);
    unlinkSync(logPath);
    expect((await read({ pid })).error).toEqual({
      type: 'execution_failed',
      message: `Log file not found at ${logPath}`,
    });
  });

  it('refuses a log that was replaced by a symlink', async () => {
    const pid = await finishedJob('echo hi');
    const logPath = join(logDir, `background-${pid}.log`);
    const secret = ws.write('secret.txt', 'top secret\n');
    unlinkSync(logPath);
    symlinkSync(secret, logPath);
    const result = await read({ pid });
    expect(result.error?.type).toBe('execution_failed');
    expect(result.error?.message).toContain('symbolic link');
    expect(text(result)).not.toContain('top secret');
  });

  it('validates its parameters', () => {
    expect(readBackgroundOutputTool.build({}, ws.ctx).ok).toBe(false);
    expect(readBackgroundOutputTool.build({ pid: 1, lines: 0 }, ws.ctx).ok).toBe(false);
    expect(readBackgroundOutputTool.build({ pid: 1.5 }, ws.ctx).ok).toBe(false);
  });
});
