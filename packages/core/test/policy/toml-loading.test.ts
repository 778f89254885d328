import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import { loadPolicyEngine, namedPolicyPaths, PolicyLoadError } from '../../src/scheduler/policy/sources';
import { parsePolicyToml } from '../../src/scheduler/policy/toml-rules';
import { call, ctx, shell } from './helpers';

/** A policy file as Gemini CLI users write them (comments, arrays, tables, snake_case keys). */
const GEMINI_STYLE = `
# Team policy for this repository.
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "git diff", "npm test"]
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandRegex = "git (push|reset)"
decision = "ask_user"
priority = 150

[[rule]]
toolName = ["write_file", "replace"]
argsPattern = '"file_path":"[^"]*.lock"'
decision = "deny"
priority = 200
deny_message = "Lock files are generated."

[[rule]]
mcpName = "github"
toolName = "create_issue"
decision = "allow"
priority = 50
modes = ["autoEdit", "yolo"]

[[rule]]
toolName = "mcp_*"
decision = "allow"
priority = 40
interactive = true

[rule.toolAnnotations]
readOnlyHint = true

[[rule]]
toolName = "run_shell_command"
commandPrefix = "npm run build"
decision = "allow"
priority = 90
allow_redirection = true

[[safety_checker]]
toolName = "write_file"
priority = 10
checker = { type = "in-process", name = "allowed-path" }
`;

describe('policy TOML', () => {
  it('reads a Gemini CLI policy file unchanged', async () => {
    const parsed = parsePolicyToml(GEMINI_STYLE, { tier: 'user', file: 'team.toml' });
    expect(parsed.errors).toEqual([]);
    // kodo runs no safety checkers: the one here makes write_file ask instead (subagent-rules.test.ts).
    expect(parsed.warnings).toEqual([expect.stringContaining('cannot run the checker "allowed-path"')]);
    // 3 prefixes + 1 regex + 2 tool names + 1 + 1 + 1, and the checker's
    expect(parsed.rules).toHaveLength(10);
    expect(parsed.rules[0]).toMatchObject({
      toolName: 'run_shell_command',
      decision: 'allow',
      priority: 4.1,
    });
    expect(parsed.rules.find((rule) => rule.mcpName === 'github')).toMatchObject({
      toolName: 'mcp_github_create_issue',
      modes: ['auto_edit', 'yolo'],
    });
    expect(parsed.rules.at(-2)).toMatchObject({ allowRedirection: true });
    expect(parsed.rules.find((rule) => rule.denyMessage)).toMatchObject({
      denyMessage: 'Lock files are generated.',
    });

    const engine = new PolicyEngine({ rules: parsed.rules });
    const decide = async (input: ReturnType<typeof call>) => (await engine.check(input, ctx())).decision;
    expect(await decide(shell('git diff --stat'))).toBe('allow');
    expect(await decide(shell('git push origin main'))).toBe('ask_user');
    expect(await decide(shell('npm run build > build.log'))).toBe('allow');
    expect(await decide(shell('npm test > test.log'))).toBe('ask_user');
    expect(await engine.check(call('replace', { file_path: 'package.lock' }), ctx('yolo'))).toEqual({
      decision: 'deny',
      denyMessage: 'Lock files are generated.',
    });
    expect(await decide({ ...call('mcp_docs_search'), annotations: { readOnlyHint: true } })).toBe('allow');
  });

  it('reports a broken file and loads nothing from it', () => {
    const parsed = parsePolicyToml('[[rule]\ntoolName = "x"', { tier: 'user', file: '/p/broken.toml' });
    expect(parsed.rules).toEqual([]);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]).toMatch(/^\[USER\] Policy file error in \/p\/broken\.toml: .*line 1/);
  });

  it.each([
    ['an invalid regex', 'argsPattern = "(unclosed"', /invalid regular expression/],
    [
      'two matchers',
      'argsPattern = "a"\ncommandRegex = "b"',
      /argsPattern and commandRegex cannot be used together/,
    ],
    ['a bad priority', 'priority = 1000', /priority must be an integer from 0 to 999/],
    ['a bad decision', 'decision = "maybe"', /decision must be one of/],
    ['an unknown mode', 'modes = ["turbo"]', /unknown mode "turbo"/],
    ['an empty tool name', 'toolName = ""', /toolName must not be empty/],
    [
      'a command prefix on another tool',
      'toolName = "glob"\ncommandPrefix = "ls"',
      /need toolName = "run_shell_command"/,
    ],
  ])('skips a rule with %s and keeps the valid rules of the file', (_name, field, message) => {
    const base = { toolName: '"run_shell_command"', decision: '"allow"', priority: '10' };
    const overridden = Object.fromEntries(
      Object.entries(base).filter(([key]) => !field.split('\n').some((line) => line.startsWith(`${key} `))),
    );
    const bad = `[[rule]]\n${Object.entries(overridden)
      .map(([key, value]) => `${key} = ${value}`)
      .join('\n')}\n${field}\n`;
    const text = `${bad}\n[[rule]]\ntoolName = "glob"\ndecision = "deny"\npriority = 1\n`;
    const parsed = parsePolicyToml(text, { tier: 'admin', file: 'mixed.toml' });
    expect(parsed.rules.map((rule) => rule.toolName)).toEqual(['glob']);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]).toMatch(/^\[ADMIN\] Policy file error in mixed\.toml: rule #1: /);
    expect(parsed.errors[0]).toMatch(message);
  });

  it('warns about the old server__tool syntax but loads the rule', () => {
    const parsed = parsePolicyToml('[[rule]]\ntoolName = "github__list"\ndecision = "allow"\npriority = 1', {
      tier: 'user',
      file: 'old.toml',
    });
    expect(parsed.rules).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/^\[USER\] Policy file warning in old\.toml: rule #1: .*mcpName/);
  });
});

describe('policy sources', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let cwd: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  const rule = (tool: string, decision: string, extra = '') =>
    `[[rule]]\ntoolName = "${tool}"\ndecision = "${decision}"\npriority = 10\n${extra}\n`;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kodo-policy-'));
    env = { KODO_HOME: join(root, 'kodo-home'), GEMINI_CLI_HOME: join(root, 'gemini-home') };
    cwd = join(root, 'project');
    mkdirSync(cwd);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads user policies from ~/.kodo and ~/.gemini, and the workspace below them', async () => {
    write(join(env.KODO_HOME!, 'policies', 'a.toml'), rule('tool_a', 'allow'));
    write(join(env.GEMINI_CLI_HOME!, '.gemini', 'policies', 'b.toml'), rule('tool_b', 'allow'));
    write(join(cwd, '.kodo', 'policies', 'w.toml'), rule('tool_a', 'deny') + rule('tool_w', 'allow'));
    // Not read: other extensions, subdirectories.
    write(join(env.KODO_HOME!, 'policies', 'notes.txt'), rule('tool_c', 'allow'));
    write(join(env.KODO_HOME!, 'policies', 'nested', 'c.toml'), rule('tool_c', 'allow'));
    const engine = await loadPolicyEngine({ cwd, env });
    const decide = async (name: string) => (await engine.check(call(name), ctx('default', false))).decision;
    expect(await decide('tool_a')).toBe('allow');
    expect(await decide('tool_b')).toBe('allow');
    expect(await decide('tool_w')).toBe('allow');
    expect(await decide('tool_c')).toBe('deny');
    const tiers = engine
      .getRules()
      .filter((r) => r.toolName === 'tool_a')
      .map((r) => r.priority);
    expect(tiers).toEqual([4.01, 3.01]);
  });

  it('--policy replaces the user directories; --admin-policy adds the admin tier', async () => {
    write(join(env.KODO_HOME!, 'policies', 'a.toml'), rule('tool_a', 'allow'));
    const file = join(root, 'one.toml');
    write(file, rule('tool_b', 'allow'));
    const dir = join(root, 'more');
    write(join(dir, 'x.toml'), rule('tool_x', 'allow'));
    write(join(root, 'admin.toml'), rule('tool_x', 'deny', 'denyMessage = "Admins said no."'));
    const engine = await loadPolicyEngine({
      cwd,
      env,
      policyPaths: [file, dir],
      adminPolicyPaths: [join(root, 'admin.toml')],
    });
    const check = (name: string) => engine.check(call(name), ctx('default', false));
    expect((await check('tool_a')).decision).toBe('deny');
    expect((await check('tool_b')).decision).toBe('allow');
    expect(await check('tool_x')).toEqual({ decision: 'deny', denyMessage: 'Admins said no.' });
  });

  it('refuses to build an engine without a named file, listing every problem', async () => {
    const missing = join(root, 'missing.toml');
    write(join(root, 'bad.toml'), rule('tool_x', 'deny', 'argsPattern = "(unclosed"'));
    const loading = loadPolicyEngine({
      cwd,
      env,
      policyPaths: [missing],
      adminPolicyPaths: [join(root, 'bad.toml')],
    });
    await expect(loading).rejects.toBeInstanceOf(PolicyLoadError);
    const error = (await loading.catch((e: unknown) => e)) as PolicyLoadError;
    expect(error.problems).toEqual([
      `[USER] Policy file error in ${missing}: no such file or directory`,
      expect.stringMatching(
        /^\[ADMIN\] Policy file error in .*bad\.toml: rule #1: invalid regular expression/,
      ),
    ]);
  });

  it('fails closed on a broken file it found by itself: it may have held the denials', async () => {
    write(join(env.KODO_HOME!, 'policies', 'bad.toml'), 'this is not toml');
    write(join(env.KODO_HOME!, 'policies', 'good.toml'), rule('tool_g', 'allow'));
    await expect(loadPolicyEngine({ cwd, env })).rejects.toThrow(
      `[USER] Policy file error in ${join(env.KODO_HOME!, 'policies', 'bad.toml')}:`,
    );
  });

  it("names paths from settings: the user's replace the user folders and add admin rules, the project's stay in the workspace tier", async () => {
    write(join(env.KODO_HOME!, 'policies', 'a.toml'), rule('tool_a', 'allow'));
    write(join(root, 'user.toml'), rule('tool_u', 'allow'));
    write(join(root, 'admin.toml'), rule('tool_x', 'deny'));
    // The project's "admin" policy tries to allow what the user's admin policy denies, and more.
    write(
      join(cwd, 'team', 'admin.toml'),
      rule('tool_x', 'allow') + rule('tool_p', 'allow') + rule('tool_u', 'deny').replace('10', '999'),
    );
    const named = namedPolicyPaths({
      flags: {},
      settings: [
        {
          scope: 'user',
          policyPaths: [join(root, 'user.toml')],
          adminPolicyPaths: [join(root, 'admin.toml')],
        },
        { scope: 'project', adminPolicyPaths: ['team/admin.toml'] },
      ],
    });
    const engine = await loadPolicyEngine({ cwd, env, ...named });
    const check = async (name: string) => (await engine.check(call(name), ctx('default', false))).decision;
    expect(await check('tool_a')).toBe('deny');
    expect(await check('tool_u')).toBe('allow');
    expect(await check('tool_x')).toBe('deny');
    // The project's file may deny (in the workspace tier, below the user's allow) but never allow.
    expect(await check('tool_p')).toBe('deny');
    expect(engine.getRules().filter((r) => r.source?.endsWith(join('team', 'admin.toml')))).toEqual([
      expect.objectContaining({ toolName: 'tool_u', decision: 'deny', priority: 3.999 }),
    ]);
    // --policy wins over the settings' policyPaths; --admin-policy adds to adminPolicyPaths.
    expect(
      namedPolicyPaths({
        flags: { policyPaths: ['flag.toml'], adminPolicyPaths: ['flag-admin.toml'] },
        settings: [{ scope: 'user', policyPaths: ['settings.toml'], adminPolicyPaths: ['a.toml'] }],
      }),
    ).toEqual({ policyPaths: ['flag.toml'], adminPolicyPaths: ['flag-admin.toml', 'a.toml'] });
  });

  it('turns tools.exclude, tools.allowed and tools.core into rules', async () => {
    const engine = await loadPolicyEngine({
      cwd,
      env,
      toolSettings: { exclude: ['web_fetch'], allowed: ['write_file', 'run_shell_command(git)'] },
    });
    const decide = async (input: ReturnType<typeof call>, mode: 'default' | 'yolo' = 'default') =>
      (await engine.check(input, ctx(mode, true))).decision;
    expect(await decide(call('web_fetch'), 'yolo')).toBe('deny');
    expect(await decide(call('write_file', { file_path: 'a' }))).toBe('allow');
    expect(await decide(shell('git log'))).toBe('allow');
    // Allowing some shell commands denies the others (priority 4.29).
    expect(await decide(shell('npm test'))).toBe('deny');

    const core = await loadPolicyEngine({
      cwd,
      env,
      toolSettings: { core: ['read_file', 'run_shell_command(ls)'] },
    });
    expect((await core.check(call('read_file'), ctx())).decision).toBe('allow');
    expect((await core.check(shell('ls -la'), ctx())).decision).toBe('allow');
    expect((await core.check(call('glob'), ctx())).decision).toBe('deny');
    expect((await core.check(call('glob'), ctx('plan'))).decision).toBe('allow');
  });

  it('tools.confirmationRequired asks even in yolo and over tools.allowed; headless the tool stays offered', async () => {
    const engine = await loadPolicyEngine({
      cwd,
      env,
      toolSettings: { confirmationRequired: ['read_file', 'run_shell_command'], allowed: ['read_file'] },
    });
    for (const mode of ['default', 'auto_edit', 'yolo'] as const) {
      expect((await engine.check(call('read_file', { file_path: 'a' }), ctx(mode, true))).decision).toBe(
        'ask_user',
      );
      expect((await engine.check(shell('ls && echo hi'), ctx(mode, true))).decision).toBe('ask_user');
      // Headless: still an ask (the scheduler fails the call), not a denial that hides the tool.
      expect((await engine.check(call('read_file', { file_path: 'a' }), ctx(mode, false))).decision).toBe(
        'ask_user',
      );
      expect(engine.isToolHidden({ name: 'read_file', kind: 'read' }, ctx(mode, false))).toBe(false);
    }
    // Other tools keep their usual decisions.
    expect((await engine.check(call('glob'), ctx('default', false))).decision).toBe('allow');
  });
});
