/**
 * What the e2e tests share: fresh temp folders for each test (the workspace `kodo` runs in, the
 * home its state goes to), and the environment that points `kodo` at a mock Gemini server.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type GeminiMock, startGeminiMock } from '@kodo/testkit';
import { afterEach, beforeEach } from 'vitest';

/** The built kodo (`npm run build`). */
export const cliDist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

export interface E2eDirs {
  /** The temp folder holding the others; a test may add its own folders here. */
  readonly root: string;
  /** `kodo`'s working directory. */
  readonly workspace: string;
  /** `kodo`'s home (`KODO_HOME`). */
  readonly home: string;
}

/**
 * Before each test of the calling file (or describe block): a fresh temp folder, its real path
 * (tools report real paths), holding the workspace (`project`, or `workspaceName`) and `home`.
 * Removed after the test. Read the paths inside hooks and tests, not at collection time.
 */
export function e2eDirs(options: { workspaceName?: string } = {}): E2eDirs {
  const dirs = { root: '', workspace: '', home: '' };
  beforeEach(() => {
    dirs.root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-e2e-')));
    dirs.workspace = join(dirs.root, options.workspaceName ?? 'project');
    dirs.home = join(dirs.root, 'home');
    mkdirSync(dirs.workspace);
    mkdirSync(dirs.home);
  });
  afterEach(() => rmSync(dirs.root, { recursive: true, force: true }));
  return dirs;
}

/** `kodo` against the Gemini mock at `url`: homes in `home`, a test key, quick retries. */
export function geminiMockEnv(home: string, url: string | undefined): Record<string, string | undefined> {
  return {
    KODO_HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: url,
    KODO_RETRY_BASE_MS: '5',
  };
}

/**
 * The whole environment of a spawned `kodo` (nothing from the developer's shell but PATH): its
 * home and kodo's in `home`, the test's workspace trusted, then `extra`.
 */
export function spawnedKodoEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    KODO_HOME: home,
    KODO_TRUST_WORKSPACE: 'true',
    ...extra,
  };
}

/** What a spawned kodo had loaded when its first model request started. */
export interface LoadedModules {
  /** Node's built-ins (`NativeModule fs`…). */
  builtins: string[];
  /** Files, by path (CommonJS and ES modules). */
  files: string[];
}

/**
 * Records what a run loaded before its first request, through a preload written in `dir`: pass
 * `env` to the run, then `read()`. `files: true` also lists the ES modules it loaded, through
 * module hooks (which load worker_threads and node:module themselves: read `builtins` from a run
 * without them).
 */
export function modulesAtFirstRequest(
  dir: string,
  options: { files?: boolean; tag?: string } = {},
): {
  env: { NODE_OPTIONS: string };
  read(): LoadedModules;
  cleanup(): void;
} {
  const tag = options.tag ?? (options.files ? 'files' : 'builtins');
  const report = join(dir, `modules-${tag}.json`);
  const loadedList = join(dir, `modules-${tag}-loaded.txt`);
  const hooks = join(dir, `record-modules-${tag}-hooks.mjs`);
  const preload = join(dir, `record-modules-${tag}.cjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(loadedList)}, url + '\\n');
  return next(url, context);
}`,
  );
  writeFileSync(
    preload,
    `${options.files ? `require('node:module').register(${JSON.stringify(pathToFileURL(hooks).href)});\n` : ''}const dc = require('node:diagnostics_channel');
dc.subscribe('http.client.request.start', function once() {
  dc.unsubscribe('http.client.request.start', once);
  const fs = require('node:fs');
  const esm = fs.existsSync(${JSON.stringify(loadedList)}) ? fs.readFileSync(${JSON.stringify(loadedList)}, 'utf8').split('\\n').filter((url) => url.startsWith('file:')).map((url) => require('node:url').fileURLToPath(url)) : [];
  fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ builtins: process.moduleLoadList, files: [...Object.keys(require.cache), ...esm] }));
});`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${preload}` },
    read: () => JSON.parse(readFileSync(report, 'utf8')) as LoadedModules,
    cleanup: () => {
      for (const file of [report, loadedList, hooks, preload]) rmSync(file, { force: true });
    },
  };
}

/** Writes a file, making its folders first. */
export function writeFileIn(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * A mock Gemini server per test: `start` it inside a test (its options are the testkit's); it
 * is closed after the test. `url` is undefined until started (kodo then has no mock to reach).
 */
export function geminiMockPerTest(): {
  start(options?: Parameters<typeof startGeminiMock>[0]): Promise<GeminiMock>;
  readonly url: string | undefined;
} {
  let mock: GeminiMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });
  return {
    async start(options) {
      mock = await startGeminiMock(options);
      return mock;
    },
    get url() {
      return mock?.url;
    },
  };
}

/** The parts of a Gemini request body the e2e tests read from the mock's log. */
export interface GeminiRequestBody {
  systemInstruction?: { parts: { text?: string }[] };
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools?: { functionDeclarations: { name: string }[] }[];
}
