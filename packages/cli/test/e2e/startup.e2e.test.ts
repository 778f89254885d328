// The built kodo's start-up path (see docs/performance.md): a headless run against the Gemini API
// takes every chunk it needs before the first request from the pack (dist/hot-pack.cjs), compiled
// from V8's code cache, and behaves the same with the loader switched off.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fnv1a } from '../../src/code-cache-file';
import { codeCacheBase, modulesAtFirstRequest } from './helpers';

let workspace: string;
let home: string;
let mock: Awaited<ReturnType<typeof startGeminiMock>>;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'kodo-e2e-'));
  home = mkdtempSync(join(tmpdir(), 'kodo-home-'));
  mock = await startGeminiMock();
});
afterAll(async () => {
  await mock.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const kodo = (env: Record<string, string>, prompt = 'hi') => {
  mock.setScript([{ chunks: geminiTextReply('hello from the mock') }]);
  return runKodo(['-p', prompt], {
    cwd: workspace,
    env: { KODO_HOME: home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: mock.url, ...env },
  });
};

describe('code cache and start-up pack (built kodo)', () => {
  it('serves the start-up chunks from the pack, compiled from a code cache', async () => {
    // The build leaves the caches; a second run is certain to find them whatever ran before.
    await kodo({ KODO_CODE_CACHE: 'report' });
    const run = await kodo({ KODO_CODE_CACHE: 'report' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello from the mock\n');
    const report =
      /\[code cache\] (\d+) scripts compiled \((\d+) from the cache, (\d+) rejected\), (\d+) chunks from the pack/.exec(
        run.stderr,
      );
    expect(report, run.stderr).not.toBeNull();
    const [compiled, fromCache, rejected, packed] = report!.slice(1).map(Number);
    expect(packed).toBeGreaterThanOrEqual(10);
    expect(rejected).toBe(0);
    expect(fromCache).toBe(compiled);
  });

  it('loads no module before the first request that only later work needs', async () => {
    // Skills, agents and an extension on disk take the discovery path too.
    const skill = join(home, '.gemini', 'skills', 'probe');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: probe\ndescription: Probes.\n---\nBody.\n');
    const extension = join(home, '.gemini', 'extensions', 'probe-ext');
    mkdirSync(extension, { recursive: true });
    writeFileSync(join(extension, 'gemini-extension.json'), '{"name":"probe-ext","version":"1.0.0"}');
    const modules = modulesAtFirstRequest(home);
    try {
      const run = await kodo({ HOME: home, ...modules.env });
      expect(run.code, run.stderr).toBe(0);
      const loaded = modules.read();
      // Each costs time to load (~0.1 ms for timers/promises, ~1 ms or more for the others) and
      // serves only what comes after the request (file tools, subprocesses, ending process
      // groups, crypto, worker threads, timing).
      const later = ['fs/promises', 'child_process', 'crypto', 'worker_threads', 'perf_hooks', 'zlib'];
      for (const name of [...later, 'timers/promises']) {
        expect(loaded.builtins, name).not.toContain(`NativeModule ${name}`);
      }
      // No dependency (zod, the SDKs, Ink): only kodo's own bundle.
      expect(loaded.files.filter((file) => file.includes('node_modules'))).toEqual([]);
    } finally {
      modules.cleanup();
      rmSync(join(home, '.gemini'), { recursive: true, force: true });
    }
  });

  it('compiles the entry itself from its cache, and from source when that cache is damaged', async () => {
    // V8 flags of its own give this test a cache folder no other test reads or writes (named
    // as codeCacheDir names it: the Node version and a hash of the flags).
    const flags = { NODE_OPTIONS: '--max-old-space-size=1900' };
    const ownDir = join(codeCacheBase, `${process.version}-${fnv1a(`\0${flags.NODE_OPTIONS}`).toString(16)}`);
    rmSync(ownDir, { recursive: true, force: true });
    const report = async () => {
      const run = await kodo({ ...flags, KODO_CODE_CACHE: 'report' });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('hello from the mock\n');
      const counts = /\[code cache\] (\d+) scripts compiled \((\d+) from the cache/.exec(run.stderr);
      expect(counts, run.stderr).not.toBeNull();
      return { compiled: Number(counts![1]), fromCache: Number(counts![2]) };
    };
    // The first run in this folder compiles from source and leaves the caches behind.
    expect((await report()).fromCache).toBe(0);
    const entryCache = join(ownDir, 'main.cjs.v8');
    expect(existsSync(entryCache)).toBe(true);
    // The entry (dist/main.cjs) and the pack.
    expect(await report()).toEqual({ compiled: 2, fromCache: 2 });
    // Zeroed blocks, as a failing disk leaves them: the checksum refuses the cache, the run
    // compiles from source and writes a sound one.
    const bytes = readFileSync(entryCache);
    bytes.fill(0, 64, Math.min(bytes.length, 4096));
    writeFileSync(entryCache, bytes);
    expect(await report()).toEqual({ compiled: 2, fromCache: 1 });
    expect(await report()).toEqual({ compiled: 2, fromCache: 2 });
    rmSync(ownDir, { recursive: true, force: true });
  });

  it("rewrites accepted caches in the build's warm-up mode, so a run over other paths adds its functions", async () => {
    // As scripts/warm-code-cache.mjs does: a prompt, then a custom command.
    const flags = { NODE_OPTIONS: '--max-old-space-size=1901' };
    const ownDir = join(codeCacheBase, `${process.version}-${fnv1a(`\0${flags.NODE_OPTIONS}`).toString(16)}`);
    rmSync(ownDir, { recursive: true, force: true });
    const commands = join(home, 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(join(commands, 'probe.toml'), 'prompt = "Probe {{args}}"\n');
    try {
      const warmUp = { ...flags, KODO_CODE_CACHE: 'warm-up' };
      expect((await kodo(warmUp)).code).toBe(0);
      const pack = join(ownDir, 'hot-pack.cjs.v8');
      const afterPrompt = statSync(pack).size;
      const command = await kodo(warmUp, '/probe now');
      expect(command.code, command.stderr).toBe(0);
      // The pack's cache was accepted, and still rewritten with what the command path compiled.
      expect(statSync(pack).size).toBeGreaterThan(afterPrompt);
    } finally {
      rmSync(commands, { recursive: true, force: true });
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it('runs the same with the loader off (KODO_CODE_CACHE=off)', async () => {
    const run = await kodo({ KODO_CODE_CACHE: 'off' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello from the mock\n');
    expect(run.stderr).not.toContain('[code cache]');
  });
});
