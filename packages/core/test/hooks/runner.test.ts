import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHookProcess } from '../../src/hooks/runner';
import { isGroupAlive } from '../../src/tools/shell/process-group';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kodo-hook-runner-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (
  command: string,
  options: { input?: string; timeoutMs?: number; signal?: AbortSignal; killGraceMs?: number } = {},
) =>
  runHookProcess({
    command,
    cwd: dir,
    env: { PATH: process.env.PATH, HOOK_VAR: 'from-env' },
    input: options.input ?? '{"hook_event_name":"BeforeTool"}\n',
    timeoutMs: options.timeoutMs ?? 5_000,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
  });

async function waitUntilDead(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isGroupAlive(pgid)) return true;
    await sleep(20);
  }
  return !isGroupAlive(pgid);
}

describe('runHookProcess', () => {
  it('passes the input on stdin, runs in the cwd with the given env, and collects both streams', async () => {
    const result = await run('read -r line; echo "$line|$PWD|$HOOK_VAR"; echo oops >&2; exit 3');
    expect(result.endedBy).toBe('exit');
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe(`{"hook_event_name":"BeforeTool"}|${dir}|from-env\n`);
    expect(result.stderr).toBe('oops\n');
  });

  it('kills a hook that outlives its timeout, whole process group, without waiting for it', async () => {
    const started = Date.now();
    const result = await run('echo $$ > leader.pid; sleep 30 & sleep 30', { timeoutMs: 300 });
    const elapsed = Date.now() - started;
    expect(result.endedBy).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2_000);
    // Its background child is in the group and goes with it.
    const pgid = Number(readFileSync(join(dir, 'leader.pid'), 'utf8'));
    expect(await waitUntilDead(pgid, 3_000)).toBe(true);
  });

  it('sends SIGKILL after the grace period to a hook that ignores SIGTERM, and has returned already', async () => {
    const started = Date.now();
    const result = await run("trap '' TERM; echo $$ > leader.pid; while true; do sleep 0.05; done", {
      timeoutMs: 300,
      killGraceMs: 400,
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result.endedBy).toBe('timeout');
    const pgid = Number(readFileSync(join(dir, 'leader.pid'), 'utf8'));
    expect(isGroupAlive(pgid)).toBe(true);
    expect(await waitUntilDead(pgid, 3_000)).toBe(true);
  });

  it('stops at once when the session is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await run('sleep 30', { signal: controller.signal });
    expect(result.endedBy).toBe('abort');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('does not fail when a hook exits without reading a large input', async () => {
    const result = await run('exit 0', { input: `${'x'.repeat(2_000_000)}\n` });
    expect(result.endedBy).toBe('exit');
    expect(result.exitCode).toBe(0);
  });

  it('does not wait for background children that keep the pipes open', async () => {
    const started = Date.now();
    const result = await run('(sleep 5; echo late) & echo "{}"');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
