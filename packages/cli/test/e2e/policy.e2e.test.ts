import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const fixture = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', name);

const dirs = e2eDirs();

const kodo = (args: string[]) =>
  runKodo(args, { cwd: dirs.workspace, env: { KODO_HOME: dirs.home, GEMINI_CLI_HOME: dirs.home } });
const runShellFixture = () =>
  kodo(['-p', 'x', '-o', 'stream-json', '--fake-responses', fixture('policy-shell.jsonl')]);
const toolResults = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((event) => event.type === 'tool_result');

const ECHO_POLICY = `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "echo"
decision = "allow"
priority = 100
`;

describe('kodo with policies', () => {
  it('--policy lets an allowed command run headless in default mode, and refuses its redirection', async () => {
    const policy = join(dirs.home, 'echo.toml');
    writeFileSync(policy, ECHO_POLICY);
    const run = await kodo([
      '-p',
      'x',
      '-o',
      'stream-json',
      '--policy',
      policy,
      '--fake-responses',
      fixture('policy-shell.jsonl'),
    ]);
    expect(run.code).toBe(0);
    const [echo, redirect] = toolResults(run.stdout);
    expect(echo).toMatchObject({ status: 'success' });
    expect(echo.output).toContain('hi');
    expect(redirect).toMatchObject({
      status: 'error',
      error: { type: 'policy_violation', message: 'Tool execution denied by policy.' },
    });
    expect(existsSync(join(dirs.workspace, 'f'))).toBe(false);
  });

  it('without a policy the shell is not offered headless', async () => {
    const run = await kodo([
      '-p',
      'x',
      '-o',
      'stream-json',
      '--fake-responses',
      fixture('policy-shell.jsonl'),
    ]);
    expect(run.code).toBe(0);
    const results = toolResults(run.stdout);
    // As in Gemini CLI, an undeclared tool is "not registered" (the model is told it was not found).
    expect(results.map((result) => result.error?.type)).toEqual([
      'tool_not_registered',
      'tool_not_registered',
    ]);
    expect(results[0]?.error?.message).toMatch(/^Tool "run_shell_command" is not allowed in this mode/);
  });

  it('reads ~/.kodo/policies; a broken file there stops kodo instead of running without it', async () => {
    mkdirSync(join(dirs.home, 'policies'));
    writeFileSync(join(dirs.home, 'policies', 'echo.toml'), ECHO_POLICY);
    writeFileSync(join(dirs.home, 'policies', 'broken.toml'), '[[rule]\n');
    const run = await runShellFixture();
    expect(run.code).toBe(52);
    expect(run.stdout).toContain(
      `[USER] Policy file error in ${join(dirs.home, 'policies', 'broken.toml')}:`,
    );
    expect(toolResults(run.stdout)).toEqual([]);
    // Without the broken file, the good one applies.
    rmSync(join(dirs.home, 'policies', 'broken.toml'));
    const fixed = await runShellFixture();
    expect(fixed.code).toBe(0);
    expect(toolResults(fixed.stdout).map((result) => result.status)).toEqual(['success', 'error']);
  });
});
