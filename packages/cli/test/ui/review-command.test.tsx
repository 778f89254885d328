import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewMaterial, reviewPrompt } from '../../src/ui/commands/review-command';
import { call, finish, KEYS, renderApp, text } from './helpers';

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});
const until = (check: () => void) => vi.waitFor(check, { timeout: 8_000, interval: 20 });

function gitRepo(dir: string) {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'calc.js'), 'export const add = (a, b) => a + b;\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  return git;
}

describe('/review', () => {
  it('sends the working tree’s diff and untracked files; the turn is read-only (plan mode), then the mode comes back', async () => {
    const ui = renderApp({
      turns: [
        { chunks: [call('write_file', { file_path: 'calc.js', content: 'hacked' }), finish()] },
        { chunks: [text('calc.js:1 — high — subtracts instead of adding'), finish()] },
      ],
    });
    app = ui;
    gitRepo(ui.workspace);
    writeFileSync(join(ui.workspace, 'calc.js'), 'export const add = (a, b) => a - b;\n');
    writeFileSync(join(ui.workspace, 'new.js'), 'export {};\n');
    await ui.type('/review');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('subtracts instead of adding'));
    const prompt = ui.generator.requests[0]!.contents.at(-1)!
      .parts.map((part) => part.text ?? '')
      .join('');
    expect(prompt).toContain('Review the changes in the working tree. Do not change any file');
    expect(prompt).toContain('-export const add = (a, b) => a + b;');
    expect(prompt).toContain('+export const add = (a, b) => a - b;');
    expect(prompt).toContain('- new.js');
    expect(prompt).toContain('severity (critical, high, medium or low)');
    // Enforced by the policy (plan mode), not by asking: the model's write was refused.
    expect(readFileSync(join(ui.workspace, 'calc.js'), 'utf8')).toBe('export const add = (a, b) => a - b;\n');
    const response = ui.generator.requests[1]!.contents.at(-1)!.parts[0]!.functionResponse!.response as {
      error?: string;
    };
    expect(response.error).toMatch(/Plan Mode/);
    expect(ui.sessions[0]!.getApprovalMode()).toBe('default');
  });

  it('says when there is nothing to review, without a request', async () => {
    const ui = renderApp({ turns: [] });
    app = ui;
    gitRepo(ui.workspace);
    await ui.type('/review');
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain('Nothing to review: no changes in the working tree.'));
    expect(ui.generator.requests).toHaveLength(0);
  });

  it('takes a range, and refuses what is not one (no option injection)', async () => {
    const calls: string[][] = [];
    const git = async (args: string[]) => {
      calls.push(args);
      return 'diff --git a/x b/x\n';
    };
    const material = await reviewMaterial('main...HEAD', '/repo', git);
    expect(material.label).toBe('main...HEAD');
    expect(calls[0]).toEqual([
      '-c',
      'core.quotepath=off',
      'diff',
      '--no-color',
      '--no-ext-diff',
      'main...HEAD',
      '--',
    ]);
    await expect(reviewMaterial('--output=/tmp/x', '/repo', git)).rejects.toThrow('not a revision range');
    await expect(reviewMaterial('main; rm -rf /', '/repo', git)).rejects.toThrow('not a revision range');
    expect(
      reviewPrompt({ label: 'r', diff: 'x'.repeat(200_000), untracked: [], stat: ' a | 2 +-' }),
    ).toContain('The diff is too long to include');
  });
});
