import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeContentGenerator } from '../../src/llm/fake';
import { PolicyEngine } from '../../src/scheduler/policy/engine';
import { autoSavedPolicyPath, loadPolicyEngine } from '../../src/scheduler/policy/sources';
import { Session } from '../../src/session/session';
import { ToolRegistry } from '../../src/tools/registry';
import { calls, collect, stream, tempContext, testTools, text } from '../helpers';
import { call, ctx, shell } from './helpers';

describe('"allow always" for the session', () => {
  it('allows the root commands of a shell line, in this mode and more permissive ones', async () => {
    const engine = new PolicyEngine();
    expect((await engine.check(shell('git status && npm test'), ctx())).decision).toBe('ask_user');
    engine.allowForSession(shell('git status && npm test'), { mode: 'default' });
    const decide = async (command: string, mode: 'default' | 'auto_edit' | 'plan' = 'default') =>
      (await engine.check(shell(command), ctx(mode))).decision;
    expect(await decide('git log --oneline')).toBe('allow');
    expect(await decide('npm run lint', 'auto_edit')).toBe('allow');
    expect(await decide('gitk')).toBe('ask_user');
    expect(await decide('git log && curl x')).toBe('ask_user');
    expect(await decide('git log > out')).toBe('ask_user');
    expect(await decide('git log', 'plan')).toBe('deny');
    const sessionRule = engine.getRules().find((rule) => rule.source === 'session');
    expect(sessionRule).toMatchObject({ priority: 3.95, modes: ['default', 'auto_edit', 'yolo'] });
  });

  it('"all server tools": every tool of that MCP server, no other server', async () => {
    const engine = new PolicyEngine();
    const mcp = (name: string, serverName: string) => ({
      name,
      kind: 'other' as const,
      args: {},
      serverName,
    });
    engine.allowForSession(mcp('mcp_my_db_query', 'my_db'), { mode: 'default', wholeServer: true });
    expect((await engine.check(mcp('mcp_my_db_drop', 'my_db'), ctx())).decision).toBe('allow');
    expect((await engine.check(mcp('mcp_web_get', 'web'), ctx())).decision).toBe('ask_user');
    // Without wholeServer, only the tool itself.
    const single = new PolicyEngine();
    single.allowForSession(mcp('mcp_my_db_query', 'my_db'), { mode: 'default' });
    expect((await single.check(mcp('mcp_my_db_query', 'my_db'), ctx())).decision).toBe('allow');
    expect((await single.check(mcp('mcp_my_db_drop', 'my_db'), ctx())).decision).toBe('ask_user');
  });

  it('allows a file tool for that file only', async () => {
    const engine = new PolicyEngine();
    await engine.check(call('replace', { file_path: 'src/a.ts' }), ctx('auto_edit'));
    engine.allowForSession(call('write_file', { file_path: 'src/a (1).ts', content: 'x' }));
    expect(engine.getRules().find((rule) => rule.source === 'session')?.modes).toEqual(['auto_edit', 'yolo']);
    const decide = async (file_path: string, mode: 'default' | 'auto_edit' = 'auto_edit') =>
      (await engine.check(call('write_file', { file_path, content: 'y' }), ctx(mode))).decision;
    expect(await decide('src/a (1).ts')).toBe('allow');
    expect(await decide('src/a (1).ts', 'default')).toBe('ask_user');
  });

  it('allows other tools by name', async () => {
    const engine = new PolicyEngine();
    engine.allowForSession(call('save_memory', { fact: 'x' }), { mode: 'default' });
    expect((await engine.check(call('save_memory', { fact: 'y' }), ctx())).decision).toBe('allow');
  });
});

describe('"allow always" saved', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'kodo-home-'));
    env = { KODO_HOME: home, GEMINI_CLI_HOME: home };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('appends the rule to auto-saved.toml once, and a new session loads it', async () => {
    const file = autoSavedPolicyPath(env);
    const engine = new PolicyEngine({ autoSavePath: file });
    await engine.check(shell('git status'), ctx());
    engine.allowForSession(shell('git status'), { save: true, mode: 'default' });
    engine.allowForSession(shell('git diff | cat'), { save: true, mode: 'default' });
    engine.allowForSession(call('write_file', { file_path: 'a"b.md' }), { save: true, mode: 'auto_edit' });
    const saved = readFileSync(file, 'utf8');
    expect(saved).toBe(
      [
        '[[rule]]',
        'toolName = "run_shell_command"',
        'commandPrefix = "git"',
        'decision = "allow"',
        'priority = 950',
        'modes = ["default", "autoEdit", "yolo"]',
        '',
        '[[rule]]',
        'toolName = "run_shell_command"',
        'commandPrefix = "cat"',
        'decision = "allow"',
        'priority = 950',
        'modes = ["default", "autoEdit", "yolo"]',
        '',
        '[[rule]]',
        'toolName = "write_file"',
        'argsPattern = "\\\\x00\\"file_path\\":\\"a\\\\\\\\\\"b\\\\.md\\"\\\\x00"',
        'decision = "allow"',
        'priority = 950',
        'modes = ["autoEdit", "yolo"]',
        '',
      ].join('\n'),
    );

    const messages: string[] = [];
    const next = await loadPolicyEngine({ cwd: home, env, onFeedback: (m) => messages.push(m) });
    expect(messages).toEqual([]);
    expect(next.getRules().filter((rule) => rule.priority === 4.95)).toHaveLength(3);
    expect((await next.check(shell('git push'), ctx('default', false))).decision).toBe('allow');
    expect(
      (await next.check(call('write_file', { file_path: 'a"b.md' }), ctx('auto_edit', false))).decision,
    ).toBe('allow');
    expect(
      (await next.check(call('write_file', { file_path: 'a"b.mdx' }), ctx('default', false))).decision,
    ).toBe('deny');
  });

  it('keeps what the file already holds and reports a file it cannot write', async () => {
    const file = autoSavedPolicyPath(env);
    mkdirSync(join(home, 'policies'), { recursive: true });
    writeFileSync(file, '# mine\n[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 1');
    const engine = new PolicyEngine({ autoSavePath: file });
    engine.allowForSession(call('save_memory'), { save: true, mode: 'yolo' });
    engine.allowForSession(call('save_memory'), { save: true, mode: 'yolo' });
    expect(readFileSync(file, 'utf8')).toBe(
      '# mine\n[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 1\n\n[[rule]]\ntoolName = "save_memory"\ndecision = "allow"\npriority = 950\nmodes = ["yolo"]\n',
    );

    const messages: string[] = [];
    const blocked = new PolicyEngine({
      autoSavePath: join(file, 'not-a-dir', 'auto-saved.toml'),
      onFeedback: (m) => messages.push(m),
    });
    blocked.allowForSession(call('save_memory'), { save: true });
    expect(messages).toEqual([
      expect.stringMatching(/^Could not save the policy rule to .*auto-saved\.toml: /),
    ]);
    // The session rule still holds.
    expect((await blocked.check(call('save_memory'), ctx())).decision).toBe('allow');
  });

  it('is what the scheduler does on "allow always and save"', async () => {
    const file = autoSavedPolicyPath(env);
    const generator = new FakeContentGenerator(
      [
        stream(calls({ name: 'edit_thing', args: { value: 'x' } })),
        stream(calls({ name: 'edit_thing', args: { value: 'y' } })),
        stream(text('done')),
      ],
      { strict: true },
    );
    const { ctx: toolContext, cleanup } = tempContext();
    let asked = 0;
    const session = new Session({
      generator,
      model: 'm',
      tools: new ToolRegistry(testTools()),
      toolContext,
      policy: new PolicyEngine({ autoSavePath: file }),
      includeEnvironmentContext: false,
      approvals: {
        interactive: true,
        confirm: async () => {
          asked += 1;
          return { outcome: 'proceed_always_and_save' };
        },
      },
    });
    await collect(session.sendMessage('go', new AbortController().signal));
    cleanup();
    expect(asked).toBe(1);
    expect(readFileSync(file, 'utf8')).toContain(
      'toolName = "edit_thing"\ndecision = "allow"\npriority = 950\nmodes = ["default", "autoEdit", "yolo"]',
    );
  });
});
