import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../src/contracts/sandbox';
import { runHookProcess } from '../../src/hooks/runner';
import { BwrapSandbox } from '../../src/safety/sandbox/bwrap';
import { shellTool } from '../../src/tools/builtin/shell';
import { BackgroundJobs } from '../../src/tools/shell/background-jobs';
import { runTool, text } from '../tools/helpers';

/**
 * Issue N (new-user run): a shell command in the UI left empty `.claude/ .gemini/ .kodo/
 * .vscode/` (and `.git`) folders in the project: the sandbox made them as read-only mount points
 * and removed them only when kodo exited. kodo creates nothing in the project that nobody asked
 * for: a mount point lives exactly as long as a command that needs it, so after the command the
 * project is as it was; while a command runs the paths stay protected (a missing `.kodo/` still
 * cannot be created by it).
 */
let ws: TempWorkspace;
let base: string;
let fakeBwrap: string;
const made: BwrapSandbox[] = [];
beforeEach(() => {
  ws = createTempWorkspace();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-leftovers-')));
  // Stands in for bwrap where it is missing: runs what follows `--`, ignoring the mounts.
  fakeBwrap = join(base, 'fake-bwrap');
  writeFileSync(fakeBwrap, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n');
  chmodSync(fakeBwrap, 0o755);
});
afterEach(() => {
  for (const box of made.splice(0)) box.dispose();
  ws.cleanup();
  rmSync(base, { recursive: true, force: true });
});

function policy(): SandboxPolicy {
  const hostTempDir = join(base, 'tmp');
  mkdirSync(hostTempDir, { recursive: true });
  return {
    writablePaths: [ws.root],
    hiddenPaths: [],
    readOnlyPaths: [],
    protectedRoots: [ws.root],
    protectedExempt: [],
    hostTempDir,
    unixSockets: [],
    network: false,
  };
}

function sandbox(binary = fakeBwrap): BwrapSandbox {
  const box = new BwrapSandbox({
    binary,
    policy: policy(),
    whenUnavailable: 'error',
    ...(binary === fakeBwrap ? { probe: async () => ({ ok: true as const }) } : {}),
  });
  made.push(box);
  return box;
}

const entries = () => readdirSync(ws.root).sort();

describe('a sandboxed command leaves nothing in the project', () => {
  it('the shell tool: no .kodo, .gemini, .claude, .vscode or .git after the command', async () => {
    ws.write('src/a.txt', 'a\n');
    const before = entries();
    const jobs = new BackgroundJobs({ logDir: join(base, 'logs') });
    ws.ctx.shell = { jobs, outputLimit: { thresholdChars: 4000, spillDir: base }, sandbox: sandbox() };
    const result = await runTool(shellTool, { command: 'echo ran' }, ws.ctx);
    expect(text(result)).toContain('ran');
    expect(entries()).toEqual(before);
    await jobs.dispose();
  });

  it('a background command: the mount points go when it ends', async () => {
    const before = entries();
    const jobs = new BackgroundJobs({ logDir: join(base, 'logs') });
    ws.ctx.shell = { jobs, outputLimit: { thresholdChars: 4000, spillDir: base }, sandbox: sandbox() };
    const result = await runTool(
      shellTool,
      { command: 'sleep 0.3', is_background: true, delay_ms: 0 },
      ws.ctx,
    );
    expect(text(result)).toContain('running in background');
    for (let i = 0; i < 200 && entries().length !== before.length; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(entries()).toEqual(before);
    await jobs.dispose();
  });

  it('a hook command', async () => {
    const before = entries();
    const ran = await runHookProcess({
      command: 'echo hook',
      cwd: ws.root,
      env: process.env,
      input: '{}',
      timeoutMs: 10_000,
      sandbox: sandbox(),
    });
    expect(ran.stdout).toContain('hook');
    expect(entries()).toEqual(before);
  });

  it('while a command runs its missing control paths are still protected; two commands share them', async () => {
    const box = sandbox();
    const spec = { file: 'bash', args: ['-c', 'true'], cwd: ws.root, env: {} };
    const first = await box.prepare(spec);
    const second = await box.prepare(spec);
    if (!first.ok || !second.ok) throw new Error('not prepared');
    for (const prepared of [first, second]) {
      const args = prepared.args.join(' ');
      for (const dir of ['.kodo', '.gemini', '.claude', '.vscode', '.git']) {
        expect(args).toContain(`--ro-bind ${join(ws.root, dir)} ${join(ws.root, dir)}`);
      }
    }
    first.release?.();
    // The second command still runs: its mount points must stay (removing one would unmount it there).
    expect(entries()).toEqual(expect.arrayContaining(['.kodo', '.git']));
    second.release?.();
    second.release?.(); // Twice is once.
    expect(entries()).toEqual([]);
  });

  it.skipIf(!hasBwrap())('through the real bwrap, when it runs here', async () => {
    const box = sandbox('bwrap');
    if (!(await box.status()).ok) return;
    const before = entries();
    const jobs = new BackgroundJobs({ logDir: join(base, 'logs') });
    ws.ctx.shell = { jobs, outputLimit: { thresholdChars: 4000, spillDir: base }, sandbox: box };
    const result = await runTool(shellTool, { command: 'mkdir .kodo/x 2>&1 || echo refused' }, ws.ctx);
    expect(text(result)).toContain('refused');
    expect(entries()).toEqual(before);
    await jobs.dispose();
  });
});

function hasBwrap(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v bwrap'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
