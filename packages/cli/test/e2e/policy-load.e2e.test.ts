/**
 * A policy that cannot be loaded stops kodo (exit 52, one line per problem naming the file),
 * whether the person named it (`--policy`, `--admin-policy`, settings `policyPaths` and
 * `adminPolicyPaths`) or kodo found it (`~/.kodo/policies`, `~/.gemini/policies`, the project's
 * `.kodo/policies`): running on without its rules would allow what it meant to refuse. The attack
 * in each case: the broken or missing file held the deny, and the model's call is one it denied.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, writeFileIn } from './helpers';

const fixture = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', name);

const dirs = e2eDirs();

const kodo = (args: string[]) =>
  runKodo(['-p', 'x', '--fake-responses', fixture('policy-shell.jsonl'), ...args], {
    cwd: dirs.workspace,
    env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home, KODO_SANDBOX: 'false' },
  });

/** The shell is allowed by the user's settings; only the (broken) policy could deny it. */
const allowShell = () =>
  writeFileIn(
    join(dirs.home, 'settings.json'),
    JSON.stringify({ tools: { allowed: ['run_shell_command'] } }),
  );

/** A deny for the shell, written with a mistake kodo cannot read past. */
const BROKEN_DENY = `
[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 500
argsPattern = "(unclosed"
`;

function expectStopped(run: { code: number | null; stdout: string; stderr: string }, file: string) {
  expect(run.code).toBe(52);
  expect(run.stderr).toContain(`Policy file error in ${file}:`);
  expect(run.stderr).toMatch(/invalid regular expression|no such file|line \d+/);
  // Nothing ran: no model answer, no command output.
  expect(run.stdout).toBe('');
  expect(run.stderr).not.toContain('An unexpected critical error');
}

describe('a policy that cannot be loaded', () => {
  it('--policy with a broken rule stops kodo instead of running without it', async () => {
    allowShell();
    const policy = join(dirs.root, 'deny.toml');
    writeFileSync(policy, BROKEN_DENY);
    expectStopped(await kodo(['--policy', policy]), policy);
  });

  it('--policy naming a file that does not exist stops kodo, in every output format', async () => {
    const missing = join(dirs.root, 'missing.toml');
    for (const format of ['text', 'json', 'stream-json']) {
      const run = await kodo(['--policy', missing, '-o', format]);
      expect(run.code).toBe(52);
      // stream-json reports it as its result event on stdout; the others on stderr.
      expect(run.stderr + run.stdout).toContain(`Policy file error in ${missing}: no such file or directory`);
    }
  });

  it('--admin-policy that is not TOML stops kodo', async () => {
    const policy = join(dirs.root, 'admin.toml');
    writeFileSync(policy, '[[rule]\ntoolName = "run_shell_command"\n');
    const run = await kodo(['--admin-policy', policy]);
    expectStopped(run, policy);
  });

  it('settings policyPaths and adminPolicyPaths are loaded, and a broken one stops kodo', async () => {
    const good = join(dirs.root, 'deny.toml');
    writeFileSync(
      good,
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "echo"\ndecision = "deny"\npriority = 500\ndenyMessage = "From policyPaths."\n',
    );
    writeFileIn(
      join(dirs.home, 'settings.json'),
      JSON.stringify({ tools: { allowed: ['run_shell_command'] }, policyPaths: [good] }),
    );
    const loaded = await kodo(['-o', 'stream-json']);
    expect(loaded.code).toBe(0);
    const results = loaded.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'tool_result');
    expect(results[0]).toMatchObject({
      status: 'error',
      error: { message: 'Tool execution denied by policy. From policyPaths.' },
    });

    const broken = join(dirs.root, 'admin.toml');
    writeFileSync(broken, BROKEN_DENY);
    writeFileIn(
      join(dirs.home, 'settings.json'),
      JSON.stringify({ tools: { allowed: ['run_shell_command'] }, adminPolicyPaths: [broken] }),
    );
    expectStopped(await kodo([]), broken);
  });

  it('a broken file kodo found by itself (~/.kodo/policies, the project) stops kodo too', async () => {
    allowShell();
    const user = join(dirs.home, 'policies', 'deny.toml');
    writeFileIn(user, BROKEN_DENY);
    expectStopped(await kodo([]), user);

    const project = join(dirs.workspace, '.kodo', 'policies', 'deny.toml');
    writeFileIn(user, '');
    writeFileIn(project, BROKEN_DENY);
    expectStopped(await kodo([]), project);
  });
});
