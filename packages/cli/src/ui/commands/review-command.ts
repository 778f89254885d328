import { execFile } from 'node:child_process';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

/** Past this, the diff is summarised (`--stat`) and the model reads the files itself. */
export const REVIEW_DIFF_LIMIT = 120_000;

/** A git revision range as `/review` accepts it: `main...HEAD`, `HEAD~3..HEAD`, `origin/main`. */
const RANGE = /^[\w./~^@{}-]+(\.\.\.?[\w./~^@{}-]+)?$/;

export type GitRunner = (args: string[], cwd: string) => Promise<string>;

const runGit: GitRunner = (args, cwd) =>
  new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve(stdout);
    });
  });

/** What is under review: the working tree's changes (tracked and untracked) or a range's diff. */
export async function reviewMaterial(
  range: string,
  cwd: string,
  git: GitRunner = runGit,
): Promise<{ label: string; diff: string; untracked: string[] }> {
  if (range !== '' && (range.startsWith('-') || !RANGE.test(range))) {
    throw new Error(`not a revision range: ${range} (e.g. /review main...HEAD)`);
  }
  const base = ['-c', 'core.quotepath=off', 'diff', '--no-color', '--no-ext-diff'];
  if (range !== '') {
    return { label: range, diff: await git([...base, range, '--'], cwd), untracked: [] };
  }
  const diff = await git([...base, 'HEAD', '--'], cwd).catch(() => git([...base, '--cached', '--'], cwd));
  const untracked = (await git(['ls-files', '--others', '--exclude-standard', '-z'], cwd))
    .split('\0')
    .filter((name) => name !== '');
  return { label: 'the working tree', diff, untracked };
}

export function reviewPrompt(material: {
  label: string;
  diff: string;
  untracked: string[];
  stat?: string;
}): string {
  const body =
    material.diff.length > REVIEW_DIFF_LIMIT
      ? `The diff is too long to include (${material.diff.length} characters). Its summary:\n${material.stat ?? ''}\nRead the changed files and their diffs yourself.`
      : `\`\`\`diff\n${material.diff}\n\`\`\``;
  const untracked =
    material.untracked.length > 0
      ? `\n\nNew files not yet tracked by git (read them too):\n${material.untracked.map((name) => `- ${name}`).join('\n')}`
      : '';
  return [
    `Review the changes in ${material.label}. Do not change any file: this is a read-only review (you may read files and search the code for context).`,
    'Look for bugs, security problems, missing error handling, missing tests and unclear code. For each finding, write one line:',
    '`path/to/file:line — severity (critical, high, medium or low) — what is wrong and how to fix it`',
    'Order the findings by severity, most severe first. If there is nothing to report, say so. End with a one-paragraph summary.',
    '',
    `${body}${untracked}`,
  ].join('\n');
}

/**
 * `/review [range]`: the model reviews the working tree's changes, or a range (`main...HEAD`),
 * with findings as file:line and severity. The turn runs in plan mode, so the policy itself
 * refuses every edit and shell command (the only write plan mode permits is a Markdown plan in
 * kodo's plans directory); the mode the person had comes back when the review ends.
 */
export function reviewCommand(git: GitRunner = runGit): SlashCommand {
  return terminalBuiltin('review', {
    async run({ args, cwd, session, addItem, sendPrompt }) {
      let material: Awaited<ReturnType<typeof reviewMaterial>>;
      try {
        material = await reviewMaterial(args, cwd, git);
      } catch (error) {
        addItem({ kind: 'info', tone: 'error', text: `/review: ${(error as Error).message}` });
        return;
      }
      if (material.diff.trim() === '' && material.untracked.length === 0) {
        addItem({ kind: 'info', tone: 'info', text: `Nothing to review: no changes in ${material.label}.` });
        return;
      }
      const stat =
        material.diff.length > REVIEW_DIFF_LIMIT
          ? await git(['diff', '--stat', ...(args ? [args] : ['HEAD']), '--'], cwd).catch(() => '')
          : undefined;
      const previous = session.getApprovalMode();
      const switched = session.setApprovalMode('plan', { source: 'keys' });
      if (!switched.ok) {
        addItem({ kind: 'info', tone: 'error', text: `/review: ${switched.message}` });
        return;
      }
      try {
        await sendPrompt(
          reviewPrompt({ ...material, ...(stat !== undefined ? { stat } : {}) }),
          `/review ${material.label}`,
        );
      } finally {
        session.setApprovalMode(previous, { source: 'keys' });
      }
    },
  });
}
