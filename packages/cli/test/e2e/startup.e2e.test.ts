// The built kodo's start-up path (see docs/performance.md): plain loading of an ES module bundle,
// with Node's own compile cache where Node has one (22.1+), kept in kodo's home.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { geminiTextReply, runKodo, startGeminiMock } from '@kodo/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modulesAtFirstRequest } from './helpers';

/** The start-up bench's floor: a bare node:http request to the mock. */
const floorClient = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'bench',
  'floor-client.mjs',
);

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

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** `module.enableCompileCache` came with Node 22.1. */
const nodeHasCompileCache = major > 22 || (major === 22 && minor >= 1);

describe('start-up (built kodo)', () => {
  it('loads no module before the first request that only later work needs', async () => {
    // Skills, agents and an extension on disk take the discovery path too.
    const skill = join(home, '.gemini', 'skills', 'probe');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: probe\ndescription: Probes.\n---\nBody.\n');
    const extension = join(home, '.gemini', 'extensions', 'probe-ext');
    mkdirSync(extension, { recursive: true });
    writeFileSync(join(extension, 'gemini-extension.json'), '{"name":"probe-ext","version":"1.0.0"}');
    const builtins = modulesAtFirstRequest(home);
    const files = modulesAtFirstRequest(home, { files: true });
    try {
      const run = await kodo({ HOME: home, ...builtins.env });
      expect(run.code, run.stderr).toBe(0);
      // Each costs time to load (~0.1 ms for timers/promises, ~1 ms or more for the others) and
      // serves only what comes after the request (file tools, subprocesses, ending process
      // groups, crypto, worker threads, timing).
      const later = ['fs/promises', 'child_process', 'crypto', 'worker_threads', 'perf_hooks', 'zlib'];
      // Newer Nodes load some of these themselves for an HTTP request (Node 24 and 26: crypto,
      // worker_threads): only what the floor of the start-up bench (a bare node:http request)
      // does not load counts.
      const floor = modulesAtFirstRequest(home, { tag: 'floor' });
      // Asynchronous: the mock answering it runs in this process.
      mock.setScript([{ chunks: geminiTextReply('floor') }]);
      await promisify(execFile)(process.execPath, [floorClient], {
        env: { PATH: process.env.PATH ?? '', FLOOR_BASE_URL: mock.url, ...floor.env },
      });
      const bare = floor.read().builtins;
      floor.cleanup();
      for (const name of [...later, 'timers/promises']) {
        if (bare.includes(`NativeModule ${name}`)) continue;
        expect(builtins.read().builtins, name).not.toContain(`NativeModule ${name}`);
      }
      // Node 20.19+ loads the bundle synchronously with require (main.ts), which puts it in
      // require's cache; other Nodes import() it.
      const required = builtins.read().files.some((file) => file.endsWith(join('dist', 'cli.mjs')));
      expect(required).toBe(major === 20 && process.features.require_module);
      const second = await kodo({ HOME: home, ...files.env });
      expect(second.code, second.stderr).toBe(0);
      const loaded = files.read().files;
      // The bundle is ES modules, loaded by Node's own loader.
      expect(loaded.some((file) => file.endsWith(join('dist', 'cli.mjs')))).toBe(true);
      // No dependency (zod, the SDKs, Ink): only kodo's own bundle.
      expect(loaded.filter((file) => file.includes('node_modules'))).toEqual([]);
      // The first request's code comes in a few files (scripts/first-request-chunk.mjs), not
      // the ~45 chunks esbuild would split it into: Node 20 pays for each file it loads.
      // (Here 9 with the skill and extension on disk; each file is listed once per access.)
      const chunks = [...new Set(loaded.filter((file) => file.includes(join('dist', 'chunks'))))];
      expect(chunks.length, chunks.join('\n')).toBeLessThanOrEqual(10);
    } finally {
      builtins.cleanup();
      files.cleanup();
      rmSync(join(home, '.gemini'), { recursive: true, force: true });
    }
  });

  it('says which Node it needs on a Node without process.getBuiltinModule, before loading the bundle', async () => {
    // Before Node 20.16 and 22.3; the bundle answers its dependencies' require() with it.
    const preload = join(home, 'no-builtin-module.cjs');
    writeFileSync(preload, 'delete process.getBuiltinModule;\n');
    const before = mock.requests.length;
    try {
      const run = await kodo({ NODE_OPTIONS: `--require ${preload}` });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `kodo needs Node 20.18.1 or newer, or 22.3 or newer; this is ${process.version}.\n`,
      );
      expect(mock.requests).toHaveLength(before);
    } finally {
      rmSync(preload, { force: true });
    }
  });

  it.runIf(nodeHasCompileCache)(
    "keeps Node's compile cache in kodo's home, and none with KODO_COMPILE_CACHE=off",
    async () => {
      const cacheDir = join(home, 'cache', 'compile');
      rmSync(cacheDir, { recursive: true, force: true });
      const off = await kodo({ KODO_COMPILE_CACHE: 'off' });
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toBe('hello from the mock\n');
      expect(existsSync(cacheDir)).toBe(false);
      const first = await kodo({});
      expect(first.code, first.stderr).toBe(0);
      expect(readdirSync(cacheDir, { recursive: true }).length).toBeGreaterThan(0);
      const second = await kodo({});
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toBe('hello from the mock\n');
    },
  );

  it.runIf(!nodeHasCompileCache)(
    'runs from source where Node has no compile cache, leaving nothing behind',
    async () => {
      const run = await kodo({});
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('hello from the mock\n');
      expect(existsSync(join(home, 'cache', 'compile'))).toBe(false);
    },
  );
});
