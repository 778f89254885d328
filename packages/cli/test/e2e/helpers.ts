/**
 * What the e2e tests share: fresh temp folders for each test (the workspace `kodo` runs in, the
 * home its state goes to), and the environment that points `kodo` at a mock Gemini server.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

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

/** Writes a file, making its folders first. */
export function writeFileIn(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The parts of a Gemini request body the e2e tests read from the mock's log. */
export interface GeminiRequestBody {
  systemInstruction?: { parts: { text?: string }[] };
  contents: { role: string; parts: Record<string, unknown>[] }[];
  tools?: { functionDeclarations: { name: string }[] }[];
}
