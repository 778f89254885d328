/**
 * Sessions recorded by the real Gemini CLI 0.61.0, Claude Code 2.1.332 and Codex 0.171.0
 * (fixtures/foreign-sessions, how they were made in its README), installed into a test's home
 * for a test's project. The tools recorded in `/tmp/kodo-foreign/{home,project}`; installing puts
 * the test's paths in their place, and Claude Code's project folder is named after the project.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ForeignTool = 'gemini' | 'claude' | 'codex';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'foreign-sessions');
const RECORDED_HOME = '/tmp/kodo-foreign/home';
const RECORDED_PROJECT = '/tmp/kodo-foreign/project';

/** What each recorded session holds, for assertions. */
export const FOREIGN_SESSION_FACTS = {
  prompt: 'Read notes.txt and tell me the launch code.',
  note: 'The launch code is tangerine-42.',
  answer: 'The launch code in notes.txt is tangerine-42.',
  thinking: 'The user wants the launch code; I should read notes.txt first.',
  afterThinking: 'The file says tangerine-42, so that is the answer.',
  ids: {
    gemini: 'c4a9b981-64b3-435e-81a2-caea91cb5ab8',
    claude: '40b2b861-3878-411c-95cd-625611782124',
    codex: '01a235eb-e31f-7841-ac02-2005a9606043',
  } as Record<ForeignTool, string>,
} as const;

/** Where each tool keeps its home below the user's home. */
const HOME_DIRS: Record<ForeignTool, string> = { gemini: '.gemini', claude: '.claude', codex: '.codex' };

/** Claude Code's folder name for a project: every character but letters and digits as `-`. */
const claudeProjectDir = (project: string) => project.replace(/[^a-zA-Z0-9]/g, '-');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Copies the recorded sessions of `tools` into `home` (as `~/.gemini`, `~/.claude`, `~/.codex`)
 * for `project`, and returns each tool's session file as installed.
 */
export function installForeignSessions(
  home: string,
  project: string,
  tools: readonly ForeignTool[] = ['gemini', 'claude', 'codex'],
): Partial<Record<ForeignTool, string>> {
  const installed: Partial<Record<ForeignTool, string>> = {};
  for (const tool of tools) {
    const source = join(FIXTURES, tool);
    for (const file of filesUnder(source)) {
      const rel = relative(source, file).replace(
        claudeProjectDir(RECORDED_PROJECT),
        claudeProjectDir(project),
      );
      const target = join(home, HOME_DIRS[tool], rel);
      mkdirSync(dirname(target), { recursive: true });
      const text = readFileSync(file, 'utf8')
        .replaceAll(RECORDED_PROJECT, project)
        .replaceAll(RECORDED_HOME, home);
      writeFileSync(target, text);
      if (/(session-.*|rollout-.*|[0-9a-f-]{36})\.jsonl$/.test(target)) installed[tool] = target;
    }
  }
  return installed;
}

/** The fixture file of one tool's session, unchanged (for tests that damage a copy). */
export function foreignSessionFixture(tool: ForeignTool): string {
  const file = filesUnder(join(FIXTURES, tool)).find((path) => path.endsWith('.jsonl'));
  if (!file) throw new Error(`no ${tool} session fixture`);
  return file;
}
