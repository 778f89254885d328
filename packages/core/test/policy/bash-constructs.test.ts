import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../src/scheduler/policy/policy';
import { ctx, engineWith, sharedShellParser, shell } from './helpers';

/**
 * The shell policy fails closed: every construct of bash (the corpus lists each statement and
 * expansion kind of the bash manual) is either understood, with every command it runs found and
 * checked, or the line needs approval. The attack: an allowed command plus a construct in which
 * bash runs `id` must never be allowed.
 */
interface Case {
  kind: string;
  line: string;
  commands?: string[];
  ask?: boolean;
}

const corpus: { cases: Case[] } = JSON.parse(
  readFileSync(join(import.meta.dirname, 'data', 'bash-constructs.json'), 'utf8'),
);

const ALLOW_GIT_AND_CAT = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git", "cat"]
decision = "allow"
priority = 100
`;

describe('the shell parser on every bash construct', () => {
  it.each(corpus.cases)('$kind', async ({ line, commands, ask }) => {
    const parsed = (await sharedShellParser()).parse(line);
    if (ask) {
      expect(parsed.ok, JSON.stringify(parsed)).toBe(false);
    } else {
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (parsed.ok) expect(parsed.commands.map((command) => command.text)).toEqual(commands);
    }
  });
});

describe('no construct smuggles a command past an allow rule', () => {
  const modes: ApprovalMode[] = ['default', 'auto_edit'];
  // Lines where bash would run `id`: not understood, or understood with `id` among their commands.
  const withPayload = corpus.cases.filter(
    (c) => c.ask || c.commands?.some((command) => /\bid\b/.test(command)),
  );
  for (const mode of modes) {
    it.each(withPayload)(`${mode}: $kind`, async ({ line }) => {
      const engine = engineWith({ user: ALLOW_GIT_AND_CAT });
      expect((await engine.check(shell(line), ctx(mode))).decision).not.toBe('allow');
      expect((await engine.check(shell(line), ctx(mode, false))).decision).toBe('deny');
    });
  }

  it('control: lines of understood constructs made only of allowed commands are allowed', async () => {
    const engine = engineWith({ user: ALLOW_GIT_AND_CAT });
    for (const line of [
      'git status && git log | cat',
      '[[ -f a.txt ]] && git status',
      // After `--`: a variable that may start with `-` could be a writing option (writing-options.test.ts).
      'for x in a b; do git log -- $x; done',
      'git status 2>&1 | cat',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash syntax, not a template
      'git status -- ${x:-main}',
    ]) {
      expect((await engine.check(shell(line), ctx('default'))).decision, line).toBe('allow');
    }
  });
});

describe('redirections in auto_edit (and with allowRedirection)', () => {
  const ALLOW_GIT_WITH_REDIRECTION = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "allow"
allowRedirection = true
priority = 100
`;
  const asks = [
    'git status > /tmp/outside.txt',
    'git status >> ~/.bashrc',
    'git status > ~/x',
    'git status > "$HOME/.profile"',
    'git status > ../outside.txt',
    'git status > /ws/../etc/x',
    'git status &> /tmp/x',
    'git status 2> /tmp/err',
    'git status < /etc/shadow',
    'git status > .git/hooks/pre-commit',
    'git status >> .kodo/settings.json',
    'git status > $(echo out)',
    'git status > out*.txt',
    '{ git status; } > /tmp/x',
    'git status | git log > /tmp/x',
    'bash -c "git status" > /tmp/x',
  ];
  for (const mode of ['auto_edit', 'default'] as const) {
    it.each(asks)(`${mode}: %s asks`, async (line) => {
      // auto_edit: git allowed by a rule without allowRedirection; default: with it.
      const engine = engineWith({
        user: mode === 'auto_edit' ? ALLOW_GIT_AND_CAT : ALLOW_GIT_WITH_REDIRECTION,
      });
      expect((await engine.check(shell(line), ctx(mode))).decision).not.toBe('allow');
    });
  }

  it.each([
    'git status > out.txt',
    'git status >> logs/out.txt',
    'git status > /ws/out.txt',
    'git status 2>/dev/null',
    'git status 2>&1 > out.txt',
  ])('allowRedirection: %s inside the workspace is allowed', async (line) => {
    const engine = engineWith({ user: ALLOW_GIT_WITH_REDIRECTION });
    expect((await engine.check(shell(line), ctx('default'))).decision).toBe('allow');
  });

  it('auto_edit with git allowed: a literal target inside runs, one outside asks', async () => {
    const engine = engineWith({ user: ALLOW_GIT_AND_CAT });
    expect((await engine.check(shell('git status > out.txt'), ctx('auto_edit'))).decision).toBe('allow');
    expect((await engine.check(shell('git status > /tmp/x'), ctx('auto_edit'))).decision).toBe('ask_user');
    expect((await engine.check(shell('git status >> ~/.bashrc'), ctx('auto_edit'))).decision).toBe(
      'ask_user',
    );
  });
});
